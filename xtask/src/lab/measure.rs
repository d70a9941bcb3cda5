//! Measuring every backend: timed builds, alternating perft rounds,
//! callgrind instructions per node, the criterion lookups bench.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use super::Options;
use super::record::{
    BackendRecord, CommitInfo, FORMAT_VERSION, PositionInfo, Record, Skipped, StepSeconds,
    WorkloadRecord, fits, geomean, host,
};
use crate::report::{BENCH_DEPTHS, WALL_BULK, WALL_FULL, read_criterion};
use crate::util::{
    self, ALL_BACKENDS, BMI2_FLAGS, Result, Workload, cargo, cpu_flag, median, output, root,
    set_rustflags, status, workloads,
};

// ---------------------------------------------------------------------------
// Measuring

/// `table` with every depth `by` plies shallower (at least 1).
pub(super) fn shallower(table: &[(&'static str, u32)], by: u32) -> Vec<(&'static str, u32)> {
    table
        .iter()
        .map(|&(p, d)| (p, d.saturating_sub(by).max(1)))
        .collect()
}

pub(super) fn progress(step: &str, text: &str) {
    eprintln!("lab [{step}] {text}");
}

pub(super) fn measure(opts: &Options) -> Result<Record> {
    let started = Instant::now();
    let date_utc = output(Command::new("date").args(["-u", "+%Y-%m-%dT%H:%M:%SZ"]))?
        .trim()
        .to_string();
    let v3 = cpu_flag("bmi2") && cpu_flag("avx2");
    let flags = if v3 { BMI2_FLAGS } else { "" };
    let mut names: Vec<&'static str> = opts
        .backends
        .clone()
        .unwrap_or_else(|| ALL_BACKENDS.to_vec());
    let mut skipped = Vec::new();
    if !v3 && names.contains(&"pext") {
        names.retain(|&n| n != "pext");
        let reason = "this CPU lacks BMI2 or AVX2: every backend is built without extra \
                      RUSTFLAGS, and pext needs BMI2";
        eprintln!("lab: {reason}; pext skipped");
        skipped.push(Skipped {
            name: "pext".into(),
            reason: reason.into(),
        });
    }
    if names.is_empty() {
        return Err("no backend left to measure".into());
    }
    let rounds = opts.rounds.unwrap_or(if opts.quick { 1 } else { 3 });
    let valgrind = if opts.callgrind {
        match output(Command::new("valgrind").arg("--version")) {
            Ok(v) => Some(v.trim().to_string()),
            Err(_) => {
                return Err(
                    "valgrind is not installed (callgrind counts instructions per \
                            node): install it with `apt-get install -y valgrind`, or pass \
                            --no-callgrind to skip that step"
                        .into(),
                );
            }
        }
    } else {
        eprintln!("lab: --no-callgrind: instructions per node are not counted");
        None
    };
    let n = names.len();
    eprintln!(
        "lab: {n} backends ({}), RUSTFLAGS={}, {rounds} round(s){}",
        names.join(", "),
        if flags.is_empty() {
            "(none)".to_string()
        } else {
            format!("'{flags}'")
        },
        if opts.quick {
            ", quick (two plies shallower)"
        } else {
            ""
        }
    );

    // 1. Builds.
    let t = Instant::now();
    let lab = root().join("target").join("lab");
    let build_dir = lab.join(if v3 { "v3" } else { "base" });
    let bin_dir = lab.join("bin");
    std::fs::create_dir_all(&bin_dir).map_err(|e| format!("{}: {e}", bin_dir.display()))?;
    let build = |name: &str| -> Result<()> {
        let mut cmd = Command::new(cargo());
        cmd.current_dir(root())
            .args([
                "build",
                "--release",
                "--bin",
                "quince",
                "--no-default-features",
                "--features",
                &format!("cli,{name}"),
                "--target-dir",
            ])
            .arg(&build_dir);
        set_rustflags(&mut cmd, flags);
        status(&mut cmd)
    };
    progress(
        "1/5 build",
        &format!("dependencies, with {} (untimed)", names[0]),
    );
    build(names[0])?;
    struct Built {
        bin: PathBuf,
        binary_bytes: u64,
        build_seconds: f64,
    }
    let mut built = Vec::new();
    for (k, name) in names.iter().enumerate() {
        // Remove the quince crate's artifacts (build script output, tables,
        // library, binary) so the build below is a full build of the crate.
        let mut clean = Command::new(cargo());
        clean
            .current_dir(root())
            .args(["clean", "--release", "-p", "quince", "--target-dir"])
            .arg(&build_dir);
        output(&mut clean)?;
        let t = Instant::now();
        build(name)?;
        let build_seconds = t.elapsed().as_secs_f64();
        let from = build_dir.join("release").join("quince");
        let bin = bin_dir.join(format!("quince-{name}"));
        std::fs::copy(&from, &bin).map_err(|e| format!("{}: {e}", from.display()))?;
        let binary_bytes = std::fs::metadata(&bin)
            .map_err(|e| format!("{}: {e}", bin.display()))?
            .len();
        progress(
            "1/5 build",
            &format!(
                "{}/{n} {name}: {build_seconds:.1} s, {binary_bytes} bytes",
                k + 1
            ),
        );
        built.push(Built {
            bin,
            binary_bytes,
            build_seconds,
        });
    }
    let build_seconds = t.elapsed().as_secs_f64();

    // 2. Table bytes, from the binaries themselves (which also proves each
    //    binary runs the backend it is named after).
    let host = host();
    let mut table_bytes = Vec::new();
    for (name, b) in names.iter().zip(&built) {
        let text = output(Command::new(&b.bin).args(["perft", "--json", "--depth", "1"]))?;
        let json: serde_json::Value =
            serde_json::from_str(text.trim()).map_err(|e| format!("perft JSON: {e}: {text}"))?;
        if json["slider"].as_str() != Some(name) {
            return Err(format!(
                "{}: slider {}, expected {name}",
                b.bin.display(),
                json["slider"]
            ));
        }
        let bytes = json["slider_table_bytes"]
            .as_u64()
            .ok_or_else(|| format!("perft JSON without slider_table_bytes: {text}"))?;
        progress(
            "2/5 tables",
            &format!("{name}: {bytes} bytes, {}", fits(bytes, &host)),
        );
        table_bytes.push(bytes);
    }

    // 3. Perft, alternating: in round r, workload p, the backends run in an
    //    order rotated by r + p, so none is always first or last.
    let t = Instant::now();
    let by = if opts.quick { 2 } else { 0 };
    let wall: Vec<Workload> = workloads(&shallower(&WALL_BULK, by), true)?
        .into_iter()
        .chain(workloads(&shallower(&WALL_FULL, by), false)?)
        .collect();
    // seconds[p][b]: per round.
    let mut seconds = vec![vec![Vec::new(); n]; wall.len()];
    for round in 0..rounds {
        for (p, w) in wall.iter().enumerate() {
            progress(
                "3/5 perft",
                &format!(
                    "round {}/{rounds}, workload {}/{} {}",
                    round + 1,
                    p + 1,
                    wall.len(),
                    w.id()
                ),
            );
            for k in 0..n {
                let b = (k + round + p) % n;
                seconds[p][b].push(w.time(&built[b].bin)?);
            }
        }
    }
    let perft_seconds = t.elapsed().as_secs_f64();

    // 4. Instructions per node.
    let grind: Vec<Workload> = if opts.quick {
        wall.clone()
    } else {
        workloads(&BENCH_DEPTHS, true)?
            .into_iter()
            .chain(workloads(&BENCH_DEPTHS, false)?)
            .collect()
    };
    // ipn[g][b]
    let mut ipn: Vec<Vec<f64>> = Vec::new();
    let mut callgrind_seconds = None;
    if opts.callgrind {
        let t = Instant::now();
        let total = grind.len() * n;
        for (g, w) in grind.iter().enumerate() {
            let mut row = Vec::new();
            for (b, name) in names.iter().enumerate() {
                progress(
                    "4/5 callgrind",
                    &format!("{}/{total} {} {name}", g * n + b + 1, w.id()),
                );
                row.push(w.instructions_per_node(&built[b].bin)?.1);
            }
            ipn.push(row);
        }
        callgrind_seconds = Some(t.elapsed().as_secs_f64());
    }

    // 5. Lookups per second: one criterion run with every backend compiled.
    let mut lookups: Vec<Option<(u64, f64)>> = vec![None; n];
    let mut bench_command = None;
    let mut bench_seconds = None;
    if opts.bench {
        let t = Instant::now();
        let bench_dir = lab.join(if v3 { "bench" } else { "bench-base" });
        let criterion_dir = bench_dir.join("criterion");
        let _ = std::fs::remove_dir_all(criterion_dir.join("sliders"));
        let mut args = vec![
            "bench",
            "--bench",
            "sliders",
            "--features",
            "all-sliders",
            "--",
            "--noplot",
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
        if n < ALL_BACKENDS.len() {
            args.push(format!("^sliders/({})$", names.join("|")));
        }
        let quoted: Vec<String> = args
            .iter()
            .map(|a| {
                if a.contains(['^', '|', '$', '(']) {
                    format!("'{a}'")
                } else {
                    a.clone()
                }
            })
            .collect();
        let shown = format!(
            "{}CARGO_TARGET_DIR=target/lab/{} cargo {}",
            if flags.is_empty() {
                String::new()
            } else {
                format!("RUSTFLAGS='{flags}' ")
            },
            bench_dir.file_name().unwrap_or_default().to_string_lossy(),
            quoted.join(" ")
        );
        progress(
            "5/5 bench",
            &format!("{shown} (compiles every backend once: minutes)"),
        );
        let mut cmd = Command::new(cargo());
        cmd.current_dir(root())
            .env("CARGO_TARGET_DIR", &bench_dir)
            .args(&args)
            .stderr(Stdio::inherit());
        set_rustflags(&mut cmd, flags);
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run cargo bench: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "{shown} failed ({}):\n{}",
                out.status,
                String::from_utf8_lossy(&out.stdout)
            ));
        }
        let results = read_criterion(&criterion_dir);
        for (b, name) in names.iter().enumerate() {
            match results.get(&format!("sliders/{name}")) {
                Some(&(elements, ns)) if ns > 0.0 && elements > 0 => {
                    lookups[b] = Some((elements, ns));
                    progress(
                        "5/5 bench",
                        &format!("{name}: {:.1} M lookups/s", elements as f64 / ns * 1e3),
                    );
                }
                _ => eprintln!("lab: no criterion result for sliders/{name}"),
            }
        }
        bench_command = Some(shown);
        bench_seconds = Some(t.elapsed().as_secs_f64());
    }

    // The record.
    let mnps: Vec<Vec<f64>> = wall
        .iter()
        .zip(&seconds)
        .map(|(w, per_backend)| {
            per_backend
                .iter()
                .map(|s| w.nodes as f64 / median(&mut s.clone()) / 1e6)
                .collect()
        })
        .collect();
    let best: Vec<f64> = mnps
        .iter()
        .map(|row| row.iter().copied().fold(0.0, f64::max))
        .collect();
    let mut backends = Vec::new();
    for (b, name) in names.iter().enumerate() {
        let mut list = Vec::new();
        for (p, w) in wall.iter().enumerate() {
            let g = grind
                .iter()
                .position(|g| g.position == w.position && g.bulk == w.bulk);
            list.push(WorkloadRecord {
                id: w.id(),
                position: w.position.to_string(),
                kind: if w.bulk { "bulk" } else { "full" }.into(),
                depth: w.depth,
                nodes: w.nodes,
                round_seconds: seconds[p][b].clone(),
                median_seconds: median(&mut seconds[p][b].clone()),
                mnps: mnps[p][b],
                ratio_to_best: mnps[p][b] / best[p],
                callgrind_depth: g.filter(|_| opts.callgrind).map(|g| grind[g].depth),
                callgrind_nodes: g.filter(|_| opts.callgrind).map(|g| grind[g].nodes),
                instructions_per_node: g.and_then(|g| ipn.get(g)).map(|row| row[b]),
            });
        }
        let of = |kind: &str, f: fn(&WorkloadRecord) -> Option<f64>| {
            geomean(list.iter().filter(|w| w.kind == kind).map(f))
        };
        backends.push(BackendRecord {
            name: name.to_string(),
            table_bytes: table_bytes[b],
            fits: fits(table_bytes[b], &host).into(),
            binary_bytes: built[b].binary_bytes,
            build_seconds: built[b].build_seconds,
            lookups_per_second: lookups[b].map(|(e, ns)| e as f64 / ns * 1e9),
            bench_ns_per_iteration: lookups[b].map(|(_, ns)| ns),
            bulk_mnps_geomean: of("bulk", |w| Some(w.mnps)),
            full_mnps_geomean: of("full", |w| Some(w.mnps)),
            bulk_ratio_to_best_geomean: of("bulk", |w| Some(w.ratio_to_best)),
            full_ratio_to_best_geomean: of("full", |w| Some(w.ratio_to_best)),
            bulk_instructions_per_node_geomean: of("bulk", |w| w.instructions_per_node),
            full_instructions_per_node_geomean: of("full", |w| w.instructions_per_node),
            workloads: list,
        });
    }
    let positions = util::standard_positions()?
        .into_iter()
        .map(|(name, fen, _)| PositionInfo {
            name: name.into(),
            fen,
        })
        .collect();
    let dirty = !util::git(&["status", "--porcelain", "--untracked-files=no"]).is_empty();
    let step_seconds = StepSeconds {
        build: build_seconds,
        perft: perft_seconds,
        callgrind: callgrind_seconds,
        bench: bench_seconds,
        total: started.elapsed().as_secs_f64(),
    };
    eprintln!(
        "lab: done in {:.0} s (build {:.0} s, perft {:.0} s, callgrind {}, bench {})",
        step_seconds.total,
        step_seconds.build,
        step_seconds.perft,
        step_seconds
            .callgrind
            .map_or("skipped".into(), |s| format!("{s:.0} s")),
        step_seconds
            .bench
            .map_or("skipped".into(), |s| format!("{s:.0} s")),
    );
    Ok(Record {
        kind: "sliders".into(),
        format_version: FORMAT_VERSION,
        commit: CommitInfo {
            hash: util::git(&["rev-parse", "HEAD"]),
            short: util::git(&["rev-parse", "--short=12", "HEAD"]),
            dirty,
        },
        date_utc,
        host,
        rustc: output(Command::new("rustc").arg("-V"))
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|_| "unknown".into()),
        rustflags: flags.into(),
        rounds,
        quick: opts.quick,
        skipped,
        positions,
        perft_command: "quince perft --json --depth D --fen FEN [--no-bulk]".into(),
        bench_command,
        bench_lookups_per_iteration: lookups.iter().flatten().map(|&(e, _)| e).next(),
        valgrind,
        step_seconds,
        backends,
    })
}
