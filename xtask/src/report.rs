//! `cargo run -p xtask -- report`: runs the lab and writes `reports/<name>.md`.
//!
//! Wall time on shared machines is noisy, so the report leans on two things
//! that are not: ratios between runs made side by side (backends alternating
//! round by round; engines inside one criterion run) and instruction counts
//! (callgrind, gungraun).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::svg::Chart;
use crate::util::{
    self, BMI2_FLAGS, Backend, Result, Workload, backends, cargo, commit, cpu_model, has_bmi2,
    median, output, root, set_rustflags, status, workloads,
};

/// Depths of the alternating wall-clock runs (2-16 million leaves, well
/// under a second each here).
pub(crate) const WALL_BULK: [(&str, u32); 6] = [
    ("start", 5),
    ("kiwipete", 4),
    ("pos3", 6),
    ("pos4", 5),
    ("pos5", 4),
    ("pos6", 4),
];
pub(crate) const WALL_FULL: [(&str, u32); 6] = [
    ("start", 5),
    ("kiwipete", 4),
    ("pos3", 5),
    ("pos4", 4),
    ("pos5", 4),
    ("pos6", 4),
];
/// Depths of the callgrind runs and of the benches (`benches/common`).
pub(crate) const BENCH_DEPTHS: [(&str, u32); 6] = [
    ("start", 4),
    ("kiwipete", 3),
    ("pos3", 5),
    ("pos4", 4),
    ("pos5", 3),
    ("pos6", 3),
];
const PEERS: [&str; 3] = ["cozy-chess", "shakmaty", "chess"];

struct Options {
    name: String,
    rounds: usize,
    benches: bool,
    gungraun: bool,
    flamegraphs: bool,
    pext_benches: bool,
}

fn parse(args: &[String]) -> Result<Options> {
    let mut o = Options {
        name: format!(
            "lab-{}",
            util::output(Command::new("date").args(["-u", "+%Y-%m-%d"]))?.trim()
        ),
        rounds: 3,
        benches: true,
        gungraun: true,
        flamegraphs: true,
        pext_benches: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--name" => o.name = it.next().ok_or("--name needs a value")?.clone(),
            "--rounds" => {
                o.rounds = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or("--rounds needs a positive number")?
            }
            "--no-benches" => o.benches = false,
            "--no-gungraun" => o.gungraun = false,
            "--no-flamegraphs" => o.flamegraphs = false,
            "--pext-benches" => o.pext_benches = true,
            other => return Err(format!("unknown report option {other}")),
        }
    }
    if o.name.is_empty() || o.name.contains('/') {
        return Err("--name must be a plain file name".into());
    }
    Ok(o)
}

/// One alternating wall-clock measurement series.
struct WallRow {
    workload: Workload,
    /// Per backend: seconds per round.
    seconds: Vec<Vec<f64>>,
}

pub fn run(args: &[String]) -> Result<bool> {
    let opts = parse(args)?;
    let started = std::time::Instant::now();
    let load_before = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let backends = backends();
    let bins: Vec<PathBuf> = backends.iter().map(Backend::build).collect::<Result<_>>()?;

    // 1. Perft per backend, alternating: in round r, position p, the backends
    //    run in an order rotated by r + p, so none is always first or last.
    let mut wall: Vec<WallRow> = workloads(&WALL_BULK, true)?
        .into_iter()
        .chain(workloads(&WALL_FULL, false)?)
        .map(|workload| WallRow {
            workload,
            seconds: vec![Vec::new(); backends.len()],
        })
        .collect();
    for round in 0..opts.rounds {
        eprintln!(
            "xtask: alternating perft, round {}/{}",
            round + 1,
            opts.rounds
        );
        for (p, row) in wall.iter_mut().enumerate() {
            for k in 0..backends.len() {
                let b = (k + round + p) % backends.len();
                row.seconds[b].push(row.workload.time(&bins[b])?);
            }
        }
    }

    // 2. Instructions per node per backend (callgrind on the CLI binary).
    let grind: Vec<Workload> = workloads(&BENCH_DEPTHS, true)?
        .into_iter()
        .chain(workloads(&BENCH_DEPTHS, false)?)
        .collect();
    let mut ipn: Vec<Vec<f64>> = Vec::new();
    for w in &grind {
        eprintln!("xtask: callgrind {}", w.id());
        ipn.push(
            bins.iter()
                .map(|bin| w.instructions_per_node(bin).map(|(_, x)| x))
                .collect::<Result<_>>()?,
        );
    }

    // 3. The start position, depths 1-6, with the fastest backend built.
    let best = bins.len() - 1;
    let start_table: Vec<(u32, u64, f64)> = (1..=6)
        .map(|d| {
            let w = workloads(&[("start", d)], true)?.remove(0);
            let s = w.time(&bins[best])?;
            Ok((d, w.nodes, s))
        })
        .collect::<Result<_>>()?;

    // 4. criterion (+ flamegraphs) and gungraun. By default in the
    //    workspace's target dir and without extra flags (the dependencies
    //    built by a plain `cargo bench` are reused), with `magic` selected
    //    (movegen uses it) and `all-sliders` (`sliders` compares every backend
    //    this target can run). With `--pext-benches` (and BMI2), pext is
    //    selected instead and joins `sliders`, built with the BMI2 flags in
    //    `target/lab/bench` (every dependency is rebuilt once for the flags).
    //    One backend feature only: two of them are a compile error.
    let pext = opts.pext_benches && has_bmi2();
    let bench_dir = if pext {
        root().join("target").join("lab").join("bench")
    } else {
        util::default_target_dir()
    };
    let features = if pext {
        "pext,all-sliders"
    } else {
        "magic,all-sliders"
    };
    let flags = if pext { BMI2_FLAGS } else { "" };
    let bench_cmd = |benches: &[&str], after: &[&str]| {
        let mut cmd = Command::new(cargo());
        cmd.current_dir(root())
            .env("CARGO_TARGET_DIR", &bench_dir)
            .args(["bench", "--features", features]);
        for b in benches {
            cmd.args(["--bench", b]);
        }
        cmd.arg("--").args(after);
        set_rustflags(&mut cmd, flags);
        cmd
    };
    let criterion_dir = bench_dir.join("criterion");
    if opts.benches {
        let _ = std::fs::remove_dir_all(&criterion_dir);
        eprintln!("xtask: criterion benches");
        status(&mut bench_cmd(&["movegen", "sliders", "perft"], &[]))?;
    }
    let out_dir = root().join("reports").join(&opts.name);
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    let mut flames = Vec::new();
    if opts.flamegraphs {
        // A few representative benchmarks only: profiling costs 5 s each.
        for (bench, filter) in [
            ("perft", "perft-bulk/kiwipete/quince"),
            ("perft", "perft-full/kiwipete/quince"),
            ("movegen", "movegen/quince$"),
            ("movegen", "make/quince-unmake"),
        ] {
            eprintln!("xtask: flamegraph {filter}");
            status(&mut bench_cmd(&[bench], &["--profile-time", "5", filter]))?;
        }
        flames = copy_flamegraphs(&criterion_dir, &out_dir)?;
    }
    let criterion = read_criterion(&criterion_dir);
    let gungraun = if opts.gungraun {
        eprintln!("xtask: gungraun instruction counts");
        let mut cmd = bench_cmd(&["instructions"], &["--output-format=json"]);
        read_gungraun(&output(&mut cmd)?)
    } else {
        BTreeMap::new()
    };

    // 5. The report.
    let ctx = Context {
        opts: &opts,
        backends: &backends,
        wall: &wall,
        grind: &grind,
        ipn: &ipn,
        start_table: &start_table,
        criterion: &criterion,
        gungraun: &gungraun,
        flames: &flames,
        load_before: load_before.trim(),
        bench_features: features,
        bench_flags: flags,
        minutes: 0.0,
    };
    let minutes = started.elapsed().as_secs_f64() / 60.0;
    let ctx = Context { minutes, ..ctx };
    let text = write_report(&ctx, &out_dir)?;
    let path = root().join("reports").join(format!("{}.md", opts.name));
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("report written to {}", path.display());
    Ok(true)
}

/// Criterion results: full id -> (elements per iteration, median ns per iteration).
pub(crate) type CriterionResults = BTreeMap<String, (u64, f64)>;

pub(crate) fn read_criterion(dir: &Path) -> CriterionResults {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if !path.is_dir() {
                continue;
            }
            if path.file_name().is_some_and(|n| n == "new") {
                let read = |f: &str| -> Option<Value> {
                    serde_json::from_str(&std::fs::read_to_string(path.join(f)).ok()?).ok()
                };
                if let (Some(bench), Some(est)) = (read("benchmark.json"), read("estimates.json")) {
                    let id = bench["full_id"].as_str().unwrap_or("").to_string();
                    let elements = bench["throughput"]["Elements"].as_u64().unwrap_or(0);
                    let ns = est["median"]["point_estimate"].as_f64().unwrap_or(f64::NAN);
                    out.insert(id, (elements, ns));
                }
            } else {
                stack.push(path);
            }
        }
    }
    out
}

/// Million elements per second of a criterion benchmark.
fn mps(results: &CriterionResults, id: &str) -> Option<f64> {
    let &(elements, ns) = results.get(id)?;
    (ns > 0.0).then(|| elements as f64 / ns * 1e3)
}

/// gungraun JSON lines -> ("<function> <id>", instructions).
fn read_gungraun(stdout: &str) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for line in stdout.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let function = v["function_name"].as_str().unwrap_or("");
        let id = v["id"].as_str().unwrap_or("");
        if let Some(ir) = find_ir(&v) {
            out.insert(format!("{function} {id}"), ir);
        }
    }
    out
}

/// The first integer under the first `"Ir"` key (gungraun's metric summary).
fn find_ir(v: &Value) -> Option<u64> {
    match v {
        Value::Object(map) => {
            if let Some(ir) = map.get("Ir") {
                return ir["values"]["new"].as_u64().or_else(|| first_int(ir));
            }
            map.values().find_map(find_ir)
        }
        Value::Array(items) => items.iter().find_map(find_ir),
        _ => None,
    }
}

fn first_int(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64(),
        Value::Object(map) => map.values().find_map(first_int),
        Value::Array(items) => items.iter().find_map(first_int),
        _ => None,
    }
}

fn copy_flamegraphs(criterion: &Path, out_dir: &Path) -> Result<Vec<(String, String)>> {
    let mut found = Vec::new();
    let mut stack = vec![criterion.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|n| n == "flamegraph.svg") {
                // .../criterion/<group...>/<id>/profile/flamegraph.svg
                let id = path
                    .parent()
                    .and_then(Path::parent)
                    .and_then(|p| p.strip_prefix(criterion).ok())
                    .map(|p| p.to_string_lossy().replace('/', "_"))
                    .unwrap_or_default();
                let file = format!("flamegraph-{id}.svg");
                std::fs::copy(&path, out_dir.join(&file)).map_err(|e| e.to_string())?;
                found.push((id, file));
            }
        }
    }
    found.sort();
    Ok(found)
}

struct Context<'a> {
    opts: &'a Options,
    backends: &'a [Backend],
    wall: &'a [WallRow],
    grind: &'a [Workload],
    ipn: &'a [Vec<f64>],
    start_table: &'a [(u32, u64, f64)],
    criterion: &'a CriterionResults,
    gungraun: &'a BTreeMap<String, u64>,
    flames: &'a [(String, String)],
    load_before: &'a str,
    bench_features: &'a str,
    bench_flags: &'a str,
    minutes: f64,
}

fn fmt(x: Option<f64>) -> String {
    match x {
        Some(v) if v.is_finite() => format!("{v:.1}"),
        _ => "-".into(),
    }
}

fn ratio(x: Option<f64>) -> String {
    match x {
        Some(v) if v.is_finite() => format!("{v:.2}x"),
        _ => "-".into(),
    }
}

fn write_svg(out_dir: &Path, file: &str, chart: &Chart) -> Result<String> {
    std::fs::write(out_dir.join(file), chart.to_svg()).map_err(|e| e.to_string())?;
    Ok(file.to_string())
}

fn write_report(c: &Context, out_dir: &Path) -> Result<String> {
    let dir_name = c.opts.name.as_str();
    let mut s = String::new();
    let rustc = output(Command::new("rustc").arg("--version")).unwrap_or_default();
    let valgrind = output(Command::new("valgrind").arg("--version")).unwrap_or_default();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let _ = writeln!(s, "# Quince lab report `{dir_name}`\n");
    let _ = writeln!(
        s,
        "Generated by `cargo run -p xtask -- report --name {dir_name}` in {:.0} minutes.\n",
        c.minutes
    );
    let _ = writeln!(s, "| | |\n| --- | --- |");
    let _ = writeln!(s, "| commit | `{}` |", commit());
    let _ = writeln!(
        s,
        "| commit date | {} |",
        util::git(&["log", "-1", "--format=%cd", "--date=iso-strict"]).replace('|', "/")
    );
    let _ = writeln!(
        s,
        "| CPU | {} ({cores} logical cores, BMI2 {}) |",
        cpu_model(),
        if has_bmi2() { "yes" } else { "no" }
    );
    let _ = writeln!(s, "| load average before the run | {} |", c.load_before);
    let _ = writeln!(s, "| toolchain | {} ; {} |", rustc.trim(), valgrind.trim());
    for b in c.backends {
        let _ = writeln!(
            s,
            "| `quince` binary `{}` | `cargo build --release --no-default-features --features {}`{} |",
            b.name,
            b.name,
            if b.rustflags.is_empty() {
                String::new()
            } else {
                format!(", `RUSTFLAGS='{}'`", b.rustflags)
            }
        );
    }
    let _ = writeln!(
        s,
        "| benches | `cargo bench --features {}`{} (movegen uses the selected backend; `all-sliders` compiles every backend into `sliders`); profile `bench`: fat LTO, 1 codegen unit, debug info |",
        c.bench_features,
        if c.bench_flags.is_empty() {
            String::new()
        } else {
            format!(", `RUSTFLAGS='{}'`", c.bench_flags)
        }
    );
    let _ = writeln!(
        s,
        "| peers | cozy-chess 0.3 (default features: no `pext`), shakmaty 0.30.1, chess 3.2 — dev-dependencies, perft written over each API in `benches/common` |"
    );
    let _ = writeln!(
        s,
        "\nThe machine is shared (2 cores, other builds running), so wall times vary by tens of percent between runs. \
         Read the **ratios** (measured side by side in one run) and the **instruction counts** (deterministic); \
         absolute Mnodes/s are indicative only.\n"
    );

    // Backends.
    let names: Vec<&str> = c.backends.iter().map(|b| b.name).collect();
    let _ = writeln!(
        s,
        "## Sliding backends: perft through the CLI, alternating runs\n"
    );
    let _ = writeln!(
        s,
        "`quince perft --json` per backend binary; {} rounds, in each round every backend runs each workload once, \
         in rotating order. Mnodes/s is the median over rounds; the ratio to `hq` is the median of the per-round ratios. \
         Instructions per node: callgrind on the same binaries at the bench depths (`{}`), net of start-up.\n",
        c.opts.rounds,
        BENCH_DEPTHS
            .iter()
            .map(|(n, d)| format!("{n} d{d}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut header = "| workload | nodes |".to_string();
    let mut rule = "| --- | ---: |".to_string();
    for n in &names {
        let _ = write!(header, " {n} Mn/s |");
        rule.push_str(" ---: |");
        if *n != "hq" {
            let _ = write!(header, " {n} / hq |");
            rule.push_str(" ---: |");
        }
    }
    for n in &names {
        let _ = write!(header, " {n} instr/node |");
        rule.push_str(" ---: |");
    }
    let _ = writeln!(s, "{header}\n{rule}");
    let mut chart_wall: Vec<(String, Vec<Option<f64>>)> =
        names.iter().map(|n| (n.to_string(), Vec::new())).collect();
    let mut categories = Vec::new();
    for row in c.wall {
        let w = &row.workload;
        let mnps: Vec<f64> = row
            .seconds
            .iter()
            .map(|secs| {
                median(
                    &mut secs
                        .iter()
                        .map(|t| w.nodes as f64 / t / 1e6)
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        let mut line = format!("| {} | {} |", w.id(), w.nodes);
        for (b, n) in names.iter().enumerate() {
            let _ = write!(line, " {} |", fmt(Some(mnps[b])));
            if *n != "hq" {
                let mut ratios: Vec<f64> = row.seconds[0]
                    .iter()
                    .zip(&row.seconds[b])
                    .map(|(hq, this)| hq / this)
                    .collect();
                let _ = write!(line, " {} |", ratio(Some(median(&mut ratios))));
            }
        }
        let grind_row = c
            .grind
            .iter()
            .position(|g| g.position == w.position && g.bulk == w.bulk);
        for b in 0..names.len() {
            let v = grind_row.map(|i| c.ipn[i][b]);
            let _ = write!(line, " {} |", v.map_or("-".into(), |x| format!("{x:.2}")));
        }
        let _ = writeln!(s, "{line}");
        categories.push(w.id());
        for (b, series) in chart_wall.iter_mut().enumerate() {
            series.1.push(Some(mnps[b]));
        }
    }
    let file = write_svg(
        out_dir,
        "backends.svg",
        &Chart {
            title: "quince perft per sliding backend (median of alternating rounds)".into(),
            unit: "Mnodes/s".into(),
            categories,
            series: chart_wall,
        },
    )?;
    let _ = writeln!(s, "\n![backends]({dir_name}/{file})\n");
    let file = write_svg(
        out_dir,
        "instructions-per-node.svg",
        &Chart {
            title: "instructions per perft node (callgrind)".into(),
            unit: "instructions per node".into(),
            categories: c.grind.iter().map(Workload::id).collect(),
            series: names
                .iter()
                .enumerate()
                .map(|(b, n)| (n.to_string(), c.ipn.iter().map(|r| Some(r[b])).collect()))
                .collect(),
        },
    )?;
    let _ = writeln!(s, "![instructions per node]({dir_name}/{file})\n");

    // Start position.
    let _ = writeln!(s, "## Start position\n");
    let _ = writeln!(
        s,
        "`quince perft --depth N` (bulk), backend `{}`, one run each:\n\n| depth | nodes | seconds | Mnodes/s |\n| ---: | ---: | ---: | ---: |",
        names[names.len() - 1]
    );
    for &(d, nodes, secs) in c.start_table {
        let _ = writeln!(
            s,
            "| {d} | {nodes} | {secs:.3} | {} |",
            fmt(Some(nodes as f64 / secs / 1e6))
        );
    }
    s.push('\n');

    if !c.criterion.is_empty() {
        write_criterion(&mut s, c, out_dir)?;
    }
    if !c.gungraun.is_empty() {
        write_gungraun(&mut s, c);
    }
    if !c.flames.is_empty() {
        let _ = writeln!(s, "## Flamegraphs\n");
        let _ = writeln!(
            s,
            "pprof samples while criterion runs each benchmark for 5 s (`--profile-time 5`):\n"
        );
        for (id, file) in c.flames {
            let _ = writeln!(s, "* [{id}]({dir_name}/{file})");
        }
        s.push('\n');
    }
    Ok(s)
}

fn write_criterion(s: &mut String, c: &Context, out_dir: &Path) -> Result<()> {
    let dir_name = c.opts.name.as_str();
    let r = c.criterion;
    let quince_id = r
        .keys()
        .find_map(|k| {
            k.strip_prefix("perft-bulk/start/")
                .filter(|id| id.starts_with("quince"))
        })
        .unwrap_or("quince")
        .to_string();
    let _ = writeln!(s, "## Quince against the peers (criterion, one run)\n");
    let _ = writeln!(
        s,
        "Median time per iteration, turned into Mnodes/s; every engine ran the same position in the same process, one after the other. \
         `{quince_id}` is Quince with its highest compiled backend. Bulk: the last ply is counted, not made. Full: every leaf move is made.\n"
    );
    for kind in ["perft-bulk", "perft-full"] {
        let _ = writeln!(s, "### {kind}\n");
        let _ = writeln!(
            s,
            "| position | {quince_id} | cozy-chess | shakmaty | chess | Quince / best peer |\n| --- | ---: | ---: | ---: | ---: | ---: |"
        );
        let mut categories = Vec::new();
        let mut series: Vec<(String, Vec<Option<f64>>)> = std::iter::once(quince_id.clone())
            .chain(PEERS.iter().map(|p| p.to_string()))
            .map(|n| (n, Vec::new()))
            .collect();
        for (pos, depth) in BENCH_DEPTHS {
            let q = mps(r, &format!("{kind}/{pos}/{quince_id}"));
            let peers: Vec<Option<f64>> = PEERS
                .iter()
                .map(|p| mps(r, &format!("{kind}/{pos}/{p}")))
                .collect();
            let best = peers.iter().flatten().fold(f64::NAN, |m, &v| m.max(v));
            let _ = writeln!(
                s,
                "| {pos} d{depth} | {} | {} | {} | {} | {} |",
                fmt(q),
                fmt(peers[0]),
                fmt(peers[1]),
                fmt(peers[2]),
                ratio(q.map(|q| q / best))
            );
            categories.push(format!("{pos} d{depth}"));
            series[0].1.push(q);
            for (i, p) in peers.iter().enumerate() {
                series[i + 1].1.push(*p);
            }
        }
        let file = write_svg(
            out_dir,
            &format!("{kind}.svg"),
            &Chart {
                title: format!("{kind}: Quince and peers (criterion, one run)"),
                unit: "Mnodes/s".into(),
                categories,
                series,
            },
        )?;
        let _ = writeln!(s, "\n![{kind}]({dir_name}/{file})\n");
    }

    let _ = writeln!(s, "### Move generation, make/unmake, legality, sliders\n");
    let _ = writeln!(
        s,
        "Over the fixed varied set (standard positions + every 6th position of `tests/data/suite.epd`). \
         Million elements per second: legal moves enumerated (`movegen`), moves made (`make`), positions (`legality/check-info`), \
         pseudo-legal moves tested (`legality/make-is-attacked`), rook+bishop lookups (`sliders`).\n"
    );
    let _ = writeln!(s, "| benchmark | M/s | ratio |\n| --- | ---: | ---: |");
    for (group, reference) in [
        ("movegen", "movegen/quince"),
        ("make", "make/quince-unmake"),
        ("legality", ""),
        ("sliders", "sliders/hq"),
    ] {
        for id in r.keys().filter(|k| k.starts_with(&format!("{group}/"))) {
            let v = mps(r, id);
            let rel = if reference.is_empty() {
                "-".to_string()
            } else {
                format!(
                    "{} of `{reference}`",
                    ratio(v.zip(mps(r, reference)).map(|(a, b)| a / b))
                )
            };
            let _ = writeln!(s, "| `{id}` | {} | {rel} |", fmt(v));
        }
    }
    s.push('\n');

    let _ = writeln!(s, "### Legality strategies x make styles (Quince)\n");
    let _ = writeln!(
        s,
        "Ratio to `legal-unmake` (the default) of the same row, same run.\n"
    );
    let combos = [
        "legal-unmake",
        "legal-copy",
        "pseudo-unmake",
        "pseudo-copy",
        "king-capture-unmake",
        "king-capture-copy",
    ];
    let _ = writeln!(
        s,
        "| workload | {} |\n| --- |{}",
        combos.join(" | "),
        " ---: |".repeat(combos.len())
    );
    for kind in ["strategy-bulk", "strategy-full"] {
        for (pos, depth) in BENCH_DEPTHS.iter().take(2) {
            let base = mps(r, &format!("{kind}/{pos}/legal-unmake"));
            let cells: Vec<String> = combos
                .iter()
                .map(|combo| {
                    let v = mps(r, &format!("{kind}/{pos}/{combo}"));
                    format!("{} ({})", fmt(v), ratio(v.zip(base).map(|(a, b)| a / b)))
                })
                .collect();
            let _ = writeln!(s, "| {kind} {pos} d{depth} | {} |", cells.join(" | "));
        }
    }
    s.push('\n');
    Ok(())
}

fn write_gungraun(s: &mut String, c: &Context) {
    let g = c.gungraun;
    let _ = writeln!(s, "## Instruction counts (gungraun)\n");
    let _ = writeln!(
        s,
        "`cargo bench --bench instructions`: each workload runs once under callgrind (setup excluded). \
         Instructions per node for perft; per move for movegen and make. Deterministic, so these are the numbers to compare across commits and machines.\n"
    );
    let engines = [
        ("quince", "quince"),
        ("cozy-chess", "cozy"),
        ("shakmaty", "shakmaty"),
        ("chess", "chess"),
    ];
    let _ = writeln!(
        s,
        "| workload | nodes | {} | Quince / best peer |\n| --- | ---: |{} ---: |",
        engines
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(" | "),
        " ---: |".repeat(engines.len())
    );
    let positions = util::standard_positions().unwrap_or_default();
    for kind in ["bulk", "full"] {
        for (i, (pos, depth)) in BENCH_DEPTHS.iter().enumerate() {
            let nodes = positions
                .iter()
                .find(|(n, _, _)| n == pos)
                .and_then(|(_, _, counts)| counts.get(*depth as usize - 1).copied())
                .unwrap_or(0);
            let per: Vec<Option<f64>> = engines
                .iter()
                .map(|(_, f)| {
                    g.get(&format!("{f}_{kind} {kind}_{i}"))
                        .map(|&ir| ir as f64 / nodes as f64)
                })
                .collect();
            let best_peer = per[1..].iter().flatten().fold(f64::NAN, |m, &v| m.min(v));
            // Fewer instructions is better: report best peer / Quince as a speed-like ratio.
            let _ = writeln!(
                s,
                "| {kind} {pos} d{depth} | {nodes} | {} | {} |",
                per.iter()
                    .map(|v| v.map_or("-".into(), |x| format!("{x:.1}")))
                    .collect::<Vec<_>>()
                    .join(" | "),
                ratio(per[0].map(|q| best_peer / q))
            );
        }
    }
    let _ = writeln!(
        s,
        "\nQuince / best peer > 1 means Quince needs fewer instructions per node.\n"
    );
    let _ = writeln!(
        s,
        "| workload | benchmark | instructions |\n| --- | --- | ---: |"
    );
    for (key, ir) in g
        .iter()
        .filter(|(k, _)| !k.contains("_bulk") && !k.contains("_full"))
    {
        let _ = writeln!(
            s,
            "| {} | `{key}` | {ir} |",
            key.split(' ').next().unwrap_or("")
        );
    }
    s.push('\n');
    let _ = c;
}
