//! `cargo run -p xtask -- lab`: every sliding-attack backend compared in
//! one run on one machine.
//!
//! Five measurements per backend, all with the same `RUSTFLAGS`:
//!
//! 1. build: the `quince` binary with only that backend (release profile),
//!    timed after one untimed build has compiled the dependencies, and its
//!    size;
//! 2. tables: the bytes of the tables the backend reads (`slider_table_bytes`
//!    of `quince perft --json`) against the CPU's L1d and L2;
//! 3. perft: bulk and full-make perft on the six standard positions, the
//!    backends alternating in a rotating order, the median of the rounds;
//! 4. callgrind: instructions per perft node, bulk and full;
//! 5. criterion: attack lookups per second (`benches/sliders.rs`, every
//!    backend compiled into one binary with `all-sliders`).
//!
//! The figures go to a record, `reports/data/sliders-<date>-<commit>.json`,
//! and the page `reports/sliders.md` (charts in `reports/sliders/`) is
//! rendered from that record alone, so `--render FILE` redraws it from any
//! record without measuring. The page's hand-written analysis (everything
//! from [`ANALYSIS_MARKER`] on) survives every re-render.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::charts::{self, Bar, BarChart};
use crate::report::{BENCH_DEPTHS, WALL_BULK, WALL_FULL, read_criterion};
use crate::util::{
    self, ALL_BACKENDS, BMI2_FLAGS, Result, Workload, cargo, cpu_flag, cpuinfo_field, median,
    output, root, set_rustflags, status, workloads,
};

pub const USAGE: &str = "\
usage: cargo run -p xtask -- lab [OPTIONS]

Builds, times and counts every sliding-attack backend in one run, writes the
record reports/data/sliders-<YYYY-MM-DD>-<commit>.json and renders
reports/sliders.md (charts in reports/sliders/) from it.

options:
  --rounds N         alternating perft rounds per workload (default 3; 1 with --quick)
  --backends a,b,c   measure only these backends (default: all 13; pext needs BMI2+AVX2)
  --no-bench         skip the criterion lookups-per-second bench (no all-sliders build)
  --no-callgrind     skip instructions per node (valgrind not needed then)
  --quick            smoke test: every perft two plies shallower, 1 round
  --render FILE      only re-render reports/sliders.md from an existing record
  -h, --help         this text

Every build uses RUSTFLAGS='-C target-cpu=x86-64-v3' when /proc/cpuinfo lists
bmi2 and avx2; otherwise no extra flags, and pext is skipped.";

/// The line from which `reports/sliders.md` is hand-written: kept verbatim
/// (to the end of the file) when the page is rendered again.
pub const ANALYSIS_MARKER: &str = "<!-- analysis (hand-written, kept by xtask lab) -->";

/// The record's `format_version`; bump it when a field changes meaning.
const FORMAT_VERSION: u32 = 1;

/// A lab run's figures, as written to `reports/data/sliders-*.json`.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Record {
    /// Always `"sliders"`.
    pub kind: String,
    pub format_version: u32,
    pub commit: CommitInfo,
    /// When the run started, ISO 8601, UTC.
    pub date_utc: String,
    pub host: Host,
    /// `rustc -V`.
    pub rustc: String,
    /// `RUSTFLAGS` of every build and of the bench (empty: none set, so
    /// `.cargo/config.toml`'s `-C target-cpu=x86-64-v2` applies).
    pub rustflags: String,
    /// Alternating perft rounds per workload.
    pub rounds: usize,
    /// A `--quick` smoke test (shallower perft): not for comparison.
    pub quick: bool,
    /// Backends not measured and why (e.g. pext without BMI2).
    pub skipped: Vec<Skipped>,
    /// The standard positions (`tests/data/standard.epd`).
    pub positions: Vec<PositionInfo>,
    /// The command each perft figure comes from.
    pub perft_command: String,
    /// The criterion command behind `lookups_per_second` (absent: not run).
    pub bench_command: Option<String>,
    /// Lookups (one rook or bishop attack set each) per bench iteration.
    pub bench_lookups_per_iteration: Option<u64>,
    /// `valgrind --version` when instructions were counted (absent: not run).
    pub valgrind: Option<String>,
    pub step_seconds: StepSeconds,
    /// In the order of the table of techniques (`src/sliders/mod.rs`).
    pub backends: Vec<BackendRecord>,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct CommitInfo {
    /// The full hash of `HEAD`.
    pub hash: String,
    /// Its first 12 hex digits (as in the record's file name).
    pub short: String,
    /// Whether tracked files differed from `HEAD` (uncommitted changes).
    pub dirty: bool,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Host {
    /// `model name` in `/proc/cpuinfo`.
    pub cpu_model_name: String,
    /// `vendor_id` (`GenuineIntel`, `AuthenticAMD`).
    pub cpu_vendor: Option<String>,
    /// `cpu family`, `model` and `stepping` in `/proc/cpuinfo`.
    pub cpu_family: Option<u32>,
    pub cpu_model: Option<u32>,
    pub cpu_stepping: Option<u32>,
    /// Per core (CPU 0), from `/sys/devices/system/cpu/cpu0/cache`.
    pub l1d_bytes: Option<u64>,
    pub l1i_bytes: Option<u64>,
    pub l2_bytes: Option<u64>,
    pub l3_bytes: Option<u64>,
    pub logical_cores: usize,
    pub bmi2: bool,
    pub avx2: bool,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Skipped {
    pub name: String,
    pub reason: String,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct PositionInfo {
    pub name: String,
    pub fen: String,
}

/// Wall seconds of each step of the run (absent: skipped).
#[derive(Serialize, Deserialize, Debug, Clone, Default)]
pub struct StepSeconds {
    pub build: f64,
    pub perft: f64,
    pub callgrind: Option<f64>,
    pub bench: Option<f64>,
    pub total: f64,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct BackendRecord {
    /// The feature and `slider` name.
    pub name: String,
    /// Bytes of the tables the backend reads (`slider_table_bytes`).
    pub table_bytes: u64,
    /// `"L1d"`, `"L2"` or `"beyond L2"`: the smallest cache the tables fit.
    pub fits: String,
    /// Bytes of the release `quince` binary with this backend.
    pub binary_bytes: u64,
    /// Wall seconds of `cargo build --release` of `quince` with this backend,
    /// dependencies already built (build script with the table codegen,
    /// library, binary).
    pub build_seconds: f64,
    /// Rook or bishop attack sets per second (criterion median).
    pub lookups_per_second: Option<f64>,
    /// Criterion's median nanoseconds per bench iteration.
    pub bench_ns_per_iteration: Option<f64>,
    /// Geometric means over the six positions.
    pub bulk_mnps_geomean: Option<f64>,
    pub full_mnps_geomean: Option<f64>,
    pub bulk_ratio_to_best_geomean: Option<f64>,
    pub full_ratio_to_best_geomean: Option<f64>,
    pub bulk_instructions_per_node_geomean: Option<f64>,
    pub full_instructions_per_node_geomean: Option<f64>,
    /// Bulk on the six positions, then full make.
    pub workloads: Vec<WorkloadRecord>,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct WorkloadRecord {
    /// `<position>-<bulk|full>-d<depth>`.
    pub id: String,
    pub position: String,
    /// `"bulk"` (last ply counted) or `"full"` (every leaf made, `--no-bulk`).
    pub kind: String,
    pub depth: u32,
    pub nodes: u64,
    /// `seconds` reported by `quince perft --json`, one per round.
    pub round_seconds: Vec<f64>,
    pub median_seconds: f64,
    /// Million nodes per second at the median seconds.
    pub mnps: f64,
    /// `mnps` over the best backend's `mnps` on this workload (1 = best).
    pub ratio_to_best: f64,
    /// Depth and nodes of the callgrind run (shallower than `depth`).
    pub callgrind_depth: Option<u32>,
    pub callgrind_nodes: Option<u64>,
    /// Instructions (`Ir`) per node, net of the same command at depth 0.
    pub instructions_per_node: Option<f64>,
}

struct Options {
    rounds: Option<usize>,
    backends: Option<Vec<&'static str>>,
    bench: bool,
    callgrind: bool,
    quick: bool,
    render: Option<PathBuf>,
    help: bool,
}

fn parse(args: &[String]) -> Result<Options> {
    let mut o = Options {
        rounds: None,
        backends: None,
        bench: true,
        callgrind: true,
        quick: false,
        render: None,
        help: false,
    };
    let mut measuring = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--rounds" => {
                o.rounds = Some(
                    it.next()
                        .and_then(|v| v.parse().ok())
                        .filter(|&n| n > 0)
                        .ok_or("--rounds needs a positive number")?,
                );
                measuring = true;
            }
            "--backends" => {
                let list = it.next().ok_or("--backends needs a list, e.g. hq,magic")?;
                let mut chosen = Vec::new();
                for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    let known = ALL_BACKENDS.iter().find(|&&b| b == name).ok_or_else(|| {
                        format!(
                            "unknown backend `{name}` (known: {})",
                            ALL_BACKENDS.join(", ")
                        )
                    })?;
                    chosen.push(*known);
                }
                if chosen.is_empty() {
                    return Err("--backends needs at least one backend".into());
                }
                // The table's order, each once.
                o.backends = Some(
                    ALL_BACKENDS
                        .iter()
                        .copied()
                        .filter(|b| chosen.contains(b))
                        .collect(),
                );
                measuring = true;
            }
            "--no-bench" => {
                o.bench = false;
                measuring = true;
            }
            "--no-callgrind" => {
                o.callgrind = false;
                measuring = true;
            }
            "--quick" => {
                o.quick = true;
                measuring = true;
            }
            "--render" => {
                o.render = Some(PathBuf::from(
                    it.next().ok_or("--render needs a record file")?,
                ))
            }
            "-h" | "--help" => o.help = true,
            other => return Err(format!("unknown lab option {other}\n\n{USAGE}")),
        }
    }
    if o.render.is_some() && measuring {
        return Err("--render FILE only re-renders the page; it takes no measuring option".into());
    }
    Ok(o)
}

pub fn run(args: &[String]) -> Result<bool> {
    let opts = parse(args)?;
    if opts.help {
        println!("{USAGE}");
        return Ok(true);
    }
    if let Some(file) = &opts.render {
        let path = if file.exists() {
            file.clone()
        } else {
            root().join(file)
        };
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let record: Record =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if record.kind != "sliders" {
            return Err(format!(
                "{}: kind {:?}, not a sliders record",
                path.display(),
                record.kind
            ));
        }
        let page = render(&record, &path)?;
        println!("page written to {}", page.display());
        return Ok(true);
    }
    let record = measure(&opts)?;
    let dir = root().join("reports").join("data");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!(
        "sliders-{}-{}.json",
        &record.date_utc[..10],
        record.commit.short
    ));
    let json = serde_json::to_string_pretty(&record).map_err(|e| e.to_string())?;
    std::fs::write(&path, json + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    println!("record written to {}", path.display());
    let page = render(&record, &path)?;
    println!("page written to {}", page.display());
    Ok(true)
}

// ---------------------------------------------------------------------------
// Measuring

/// `table` with every depth `by` plies shallower (at least 1).
fn shallower(table: &[(&'static str, u32)], by: u32) -> Vec<(&'static str, u32)> {
    table
        .iter()
        .map(|&(p, d)| (p, d.saturating_sub(by).max(1)))
        .collect()
}

fn progress(step: &str, text: &str) {
    eprintln!("lab [{step}] {text}");
}

fn measure(opts: &Options) -> Result<Record> {
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
                name,
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

pub fn host() -> Host {
    let caches = util::caches();
    let cache = |level: u32, kind: &str| {
        caches
            .iter()
            .find(|(l, k, _)| *l == level && k == kind)
            .map(|&(_, _, bytes)| bytes)
    };
    let number = |field: &str| cpuinfo_field(field).and_then(|v| v.parse().ok());
    Host {
        cpu_model_name: util::cpu_model(),
        cpu_vendor: cpuinfo_field("vendor_id"),
        cpu_family: number("cpu family"),
        cpu_model: number("model"),
        cpu_stepping: number("stepping"),
        l1d_bytes: cache(1, "Data"),
        l1i_bytes: cache(1, "Instruction"),
        l2_bytes: cache(2, "Unified").or_else(|| cache(2, "Data")),
        l3_bytes: cache(3, "Unified"),
        logical_cores: std::thread::available_parallelism().map_or(0, |n| n.get()),
        bmi2: cpu_flag("bmi2"),
        avx2: cpu_flag("avx2"),
    }
}

/// The smallest cache level `bytes` of tables fit in.
fn fits(bytes: u64, host: &Host) -> &'static str {
    if host.l1d_bytes.is_some_and(|l1| bytes <= l1) {
        "L1d"
    } else if host.l2_bytes.is_some_and(|l2| bytes <= l2) {
        "L2"
    } else {
        "beyond L2"
    }
}

/// The geometric mean, or `None` when a value is missing or not positive.
fn geomean(values: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    let mut sum = 0.0;
    let mut count = 0;
    for v in values {
        let v = v.filter(|v| v.is_finite() && *v > 0.0)?;
        sum += v.ln();
        count += 1;
    }
    (count > 0).then(|| (sum / count as f64).exp())
}

// ---------------------------------------------------------------------------
// Rendering

/// Writes `reports/sliders.md` and its charts from `record` (read from or
/// written to `record_path`); returns the page's path.
pub fn render(record: &Record, record_path: &Path) -> Result<PathBuf> {
    let reports = root().join("reports");
    let chart_dir = reports.join("sliders");
    std::fs::create_dir_all(&chart_dir).map_err(|e| format!("{}: {e}", chart_dir.display()))?;
    let page_path = reports.join("sliders.md");
    let record_link = record_path
        .canonicalize()
        .ok()
        .and_then(|p| {
            let reports = reports.canonicalize().ok()?;
            p.strip_prefix(&reports)
                .ok()
                .map(|r| r.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| record_path.display().to_string());

    let charts = write_charts(record, &chart_dir)?;
    let mut s = page(record, &record_link, &charts);
    let analysis = std::fs::read_to_string(&page_path)
        .ok()
        .and_then(|old| kept_analysis(&old).map(str::to_string))
        .unwrap_or_else(|| {
            format!(
                "{ANALYSIS_MARKER}\n\n## Why each technique lands where it does\n\n\
                 (to be written after the first run)\n"
            )
        });
    s.push_str(&analysis);
    std::fs::write(&page_path, s).map_err(|e| format!("{}: {e}", page_path.display()))?;
    Ok(page_path)
}

/// The hand-written part of an existing page: from the marker line to the end.
fn kept_analysis(page: &str) -> Option<&str> {
    let mut from = 0;
    while let Some(i) = page[from..].find(ANALYSIS_MARKER) {
        let at = from + i;
        if at == 0 || page.as_bytes()[at - 1] == b'\n' {
            return Some(&page[at..]);
        }
        from = at + ANALYSIS_MARKER.len();
    }
    None
}

/// Backend indices, best first: by the geometric mean of the bulk ratios.
fn ranking(record: &Record) -> Vec<usize> {
    let mut order: Vec<usize> = (0..record.backends.len()).collect();
    order.sort_by(|&a, &b| {
        let key = |i: usize| record.backends[i].bulk_ratio_to_best_geomean.unwrap_or(0.0);
        key(b).total_cmp(&key(a))
    });
    order
}

/// Chart file names (relative to `reports/sliders/`) with their alt text.
fn write_charts(record: &Record, dir: &Path) -> Result<Vec<(String, String)>> {
    let mut written = Vec::new();
    let ranked = ranking(record);
    let b = &record.backends;
    let positions = record.backends.first().map_or(0, |b| {
        b.workloads.iter().filter(|w| w.kind == "bulk").count()
    });

    let mut charts: Vec<(&str, &str, Option<BarChart>)> = Vec::new();
    let bulk: Vec<Bar> = ranked
        .iter()
        .filter_map(|&i| {
            let ratio = b[i].bulk_ratio_to_best_geomean?;
            let mnps = b[i].bulk_mnps_geomean.unwrap_or(f64::NAN);
            Some(Bar {
                label: b[i].name.clone(),
                value: ratio,
                text: format!("{ratio:.2}x ({mnps:.0} Mnodes/s)"),
                highlight: false,
            })
        })
        .collect();
    charts.push((
        "bulk-perft.svg",
        "bulk perft speed per backend",
        Some(BarChart {
            title: format!("Bulk perft speed (geometric mean over {positions} positions)"),
            x_desc: "x of each position's fastest backend (1 = fastest everywhere); \
                     Mnodes/s in brackets"
                .into(),
            bars: mark_best(bulk, "best"),
        }),
    ));

    let mut lookups: Vec<(usize, f64)> = (0..b.len())
        .filter_map(|i| Some((i, b[i].lookups_per_second?)))
        .collect();
    lookups.sort_by(|x, y| y.1.total_cmp(&x.1));
    charts.push((
        "lookups.svg",
        "attack lookups per second per backend",
        (!lookups.is_empty()).then(|| BarChart {
            title: "Attack lookups per second (criterion, benches/sliders.rs)".into(),
            x_desc: "million lookups per second (one rook or bishop attack set each)".into(),
            bars: mark_best(
                lookups
                    .iter()
                    .map(|&(i, v)| Bar {
                        label: b[i].name.clone(),
                        value: v / 1e6,
                        text: sig3(v / 1e6),
                        highlight: false,
                    })
                    .collect(),
                "best",
            ),
        }),
    ));

    let mut ipn: Vec<(usize, f64)> = (0..b.len())
        .filter_map(|i| Some((i, b[i].bulk_instructions_per_node_geomean?)))
        .collect();
    ipn.sort_by(|x, y| x.1.total_cmp(&y.1));
    charts.push((
        "instructions.svg",
        "bulk perft instructions per node per backend",
        (!ipn.is_empty()).then(|| BarChart {
            title: format!(
                "Bulk perft instructions per node (callgrind, geometric mean over {positions} positions)"
            ),
            x_desc: "instructions per node (fewer is better)".into(),
            bars: mark_best(
                ipn.iter()
                    .map(|&(i, v)| Bar {
                        label: b[i].name.clone(),
                        value: v,
                        text: format!("{v:.1}"),
                        highlight: false,
                    })
                    .collect(),
                "fewest",
            ),
        }),
    ));

    for (file, alt, chart) in charts {
        let path = dir.join(file);
        match chart {
            Some(chart) if !chart.bars.is_empty() => {
                let svg = charts::horizontal_bars(&chart)?;
                std::fs::write(&path, svg).map_err(|e| format!("{}: {e}", path.display()))?;
                written.push((file.to_string(), alt.to_string()));
            }
            // No figures (a skipped step): no stale chart either.
            _ => {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
    Ok(written)
}

/// The first bar (the best, as the bars come sorted) in the accent colour,
/// its figure followed by `word`.
fn mark_best(mut bars: Vec<Bar>, word: &str) -> Vec<Bar> {
    if let Some(first) = bars.first_mut() {
        first.highlight = true;
        first.text.push_str(", ");
        first.text.push_str(word);
    }
    bars
}

/// Three significant digits (no exponent): 1234 -> 1234, 41.23 -> 41.2.
fn sig3(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    let places = if x.abs() >= 100.0 {
        0
    } else if x.abs() >= 10.0 {
        1
    } else {
        2
    };
    format!("{x:.places$}")
}

/// 0 -> "none", 2560 -> "2.5 KiB", 2359296 -> "2.25 MiB".
fn human_bytes(bytes: u64) -> String {
    if bytes == 0 {
        return "none".into();
    }
    let (value, unit) = if bytes < 1 << 10 {
        return format!("{bytes} B");
    } else if bytes < 1 << 20 {
        (bytes as f64 / 1024.0, "KiB")
    } else {
        (bytes as f64 / (1u64 << 20) as f64, "MiB")
    };
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text} {unit}")
}

fn opt(x: Option<f64>, places: usize) -> String {
    x.filter(|v| v.is_finite())
        .map_or("-".into(), |v| format!("{v:.places$}"))
}

/// `text` in bold when `bold`.
fn bold(text: String, bold: bool) -> String {
    if bold && text != "-" {
        format!("**{text}**")
    } else {
        text
    }
}

/// The best value of a column: the highest, or with `lowest` the lowest.
fn best_of(values: impl Iterator<Item = Option<f64>>, lowest: bool) -> Option<f64> {
    values
        .flatten()
        .filter(|v| v.is_finite())
        .reduce(|a, b| if (b < a) == lowest && b != a { b } else { a })
}

fn page(r: &Record, record_link: &str, charts: &[(String, String)]) -> String {
    let mut s = String::new();
    let h = &r.host;
    let ranked = ranking(r);
    let b = &r.backends;
    let _ = writeln!(s, "# Sliding-attack backends side by side\n");
    let _ = writeln!(
        s,
        "Every sliding-attack backend of Quince built, timed, counted and benchmarked in one run on one machine; \
         regenerate with `cargo run -p xtask -- lab` (this page alone, from its record: \
         `cargo run -p xtask -- lab --render reports/{record_link}`).\n"
    );
    if r.quick {
        let _ = writeln!(
            s,
            "> **Smoke test** (`--quick`): every perft two plies shallower, so start-up and \
             short runs weigh in. Not for comparison.\n"
        );
    }
    let _ = writeln!(s, "| | |\n| --- | --- |");
    let mut cpu = h.cpu_model_name.clone();
    let ids: Vec<String> = [
        h.cpu_vendor.clone(),
        h.cpu_family.map(|v| format!("family {v}")),
        h.cpu_model.map(|v| format!("model {v}")),
        h.cpu_stepping.map(|v| format!("stepping {v}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !ids.is_empty() {
        let _ = write!(cpu, " ({})", ids.join(", "));
    }
    let _ = writeln!(s, "| host | {cpu}, {} logical cores |", h.logical_cores);
    let cache = |x: Option<u64>| x.map_or("?".into(), human_bytes);
    let _ = writeln!(
        s,
        "| caches (per core) | L1d {}, L1i {}, L2 {}, L3 {} |",
        cache(h.l1d_bytes),
        cache(h.l1i_bytes),
        cache(h.l2_bytes),
        cache(h.l3_bytes)
    );
    let _ = writeln!(
        s,
        "| commit | `{}`{} |",
        r.commit.short,
        if r.commit.dirty {
            " with uncommitted changes"
        } else {
            ""
        }
    );
    let _ = writeln!(
        s,
        "| date | {} UTC |",
        r.date_utc.replace('T', " ").trim_end_matches('Z')
    );
    let _ = writeln!(s, "| rustc | {} |", r.rustc);
    let _ = writeln!(
        s,
        "| flags | {} for every build and the bench; release profile (fat LTO, 1 codegen unit) |",
        if r.rustflags.is_empty() {
            "no `RUSTFLAGS` (so `.cargo/config.toml`'s `-C target-cpu=x86-64-v2`)".to_string()
        } else {
            format!("`RUSTFLAGS='{}'`", r.rustflags)
        }
    );
    let _ = writeln!(
        s,
        "| rounds | {} alternating perft round{} per workload (median) |",
        r.rounds,
        if r.rounds == 1 { "" } else { "s" }
    );
    let _ = writeln!(s, "| record | [`reports/{record_link}`]({record_link}) |\n");
    for skip in &r.skipped {
        let _ = writeln!(s, "Not measured: `{}` ({}).\n", skip.name, skip.reason);
    }

    // The ranking.
    let _ = writeln!(s, "## Ranking\n");
    let _ = writeln!(
        s,
        "Ranked by bulk perft speed: per position, each backend's Mnodes/s over the best backend's, \
         then the geometric mean over the six positions (1.00 = the best everywhere). \
         Instructions per node: callgrind, geometric mean. Lookups: criterion, rook or bishop attack sets per second. \
         Tables: the bytes the backend reads, and the smallest cache they fit \
         (L1d {}, L2 {}). Build: wall seconds of the `quince` crate with that backend \
         (build script and table codegen, library, binary; dependencies already built). Best of each column in bold.\n",
        cache(h.l1d_bytes),
        cache(h.l2_bytes)
    );
    let _ = writeln!(
        s,
        "| rank | backend | bulk x of best (geomean) | full make x of best (geomean) | bulk instructions/node (geomean) | lookups M/s | tables | build s | binary KiB |\n\
         | ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |"
    );
    let best_bulk = best_of(b.iter().map(|x| x.bulk_ratio_to_best_geomean), false);
    let best_full = best_of(b.iter().map(|x| x.full_ratio_to_best_geomean), false);
    let best_ipn = best_of(b.iter().map(|x| x.bulk_instructions_per_node_geomean), true);
    let best_lookups = best_of(b.iter().map(|x| x.lookups_per_second), false);
    for (rank, &i) in ranked.iter().enumerate() {
        let x = &b[i];
        let is = |v: Option<f64>, best: Option<f64>| v.is_some() && v == best;
        let _ = writeln!(
            s,
            "| {} | `{}` | {} | {} | {} | {} | {} | {:.1} | {} |",
            rank + 1,
            x.name,
            bold(
                opt(x.bulk_ratio_to_best_geomean, 2),
                is(x.bulk_ratio_to_best_geomean, best_bulk)
            ),
            bold(
                opt(x.full_ratio_to_best_geomean, 2),
                is(x.full_ratio_to_best_geomean, best_full)
            ),
            bold(
                opt(x.bulk_instructions_per_node_geomean, 1),
                is(x.bulk_instructions_per_node_geomean, best_ipn)
            ),
            bold(
                x.lookups_per_second.map_or("-".into(), |v| sig3(v / 1e6)),
                is(x.lookups_per_second, best_lookups)
            ),
            if x.table_bytes == 0 {
                "none".to_string()
            } else {
                format!("{} ({})", human_bytes(x.table_bytes), x.fits)
            },
            x.build_seconds,
            (x.binary_bytes as f64 / 1024.0).round()
        );
    }
    s.push('\n');
    for (file, alt) in charts {
        let _ = writeln!(s, "![{alt}](sliders/{file})\n");
    }

    // Per position.
    let kinds = [
        ("bulk", "Bulk perft (last ply counted)"),
        ("full", "Full-make perft (every leaf move made)"),
    ];
    for (kind, title) in kinds {
        let cols: Vec<&WorkloadRecord> = b
            .first()
            .map(|x| x.workloads.iter().filter(|w| w.kind == kind).collect())
            .unwrap_or_default();
        if cols.is_empty() {
            continue;
        }
        let _ = writeln!(s, "## {title}, Mnodes/s per position\n");
        let _ = writeln!(
            s,
            "Median of {} round{}, the fastest backend of each column in bold; the last column is the geometric mean.\n",
            r.rounds,
            if r.rounds == 1 { "" } else { "s" }
        );
        table(
            &mut s,
            r,
            &ranked,
            kind,
            |w| format!("{} d{}", w.position, w.depth),
            |w| Some(w.mnps),
            |x| {
                if kind == "bulk" {
                    x.bulk_mnps_geomean
                } else {
                    x.full_mnps_geomean
                }
            },
            1,
            false,
        );
    }
    if b.iter().any(|x| {
        x.workloads
            .iter()
            .any(|w| w.instructions_per_node.is_some())
    }) {
        let _ = writeln!(s, "## Instructions per node per position (callgrind)\n");
        let _ = writeln!(
            s,
            "Instructions (`Ir`) of `quince perft` under callgrind minus those of the same command at depth 0 \
             (start-up, parsing, output), over the nodes; deterministic, so comparable across runs on any machine \
             with the same build. Fewest in bold; the last column is the geometric mean. {}\n",
            r.valgrind.as_deref().unwrap_or("")
        );
        for (kind, title) in kinds {
            let _ = writeln!(s, "{title}:\n");
            table(
                &mut s,
                r,
                &ranked,
                kind,
                |w| format!("{} d{}", w.position, w.callgrind_depth.unwrap_or(w.depth)),
                |w| w.instructions_per_node,
                |x| {
                    if kind == "bulk" {
                        x.bulk_instructions_per_node_geomean
                    } else {
                        x.full_instructions_per_node_geomean
                    }
                },
                1,
                true,
            );
        }
    }

    // Method.
    let _ = writeln!(s, "## How it was measured\n");
    let _ = writeln!(
        s,
        "* **Builds**: `cargo build --release --bin quince --no-default-features --features <backend>` into one target \
         directory per flag set (`target/lab/v3` or `target/lab/base`); one untimed build first compiles the dependencies, \
         then each backend's timed build follows `cargo clean --release -p quince`. Binaries are kept as `target/lab/bin/quince-<backend>`."
    );
    let _ = writeln!(
        s,
        "* **Perft**: `{}` (one thread, no hash table); in round r, workload p, every backend runs once, in an order rotated by r + p. \
         Node counts are checked against `tests/data/standard.epd`. The machine may be shared: read the ratios (side by side in one run) \
         and the instruction counts rather than the absolute Mnodes/s.",
        r.perft_command
    );
    if let Some(cmd) = &r.bench_command {
        let _ = writeln!(
            s,
            "* **Lookups**: `{cmd}`; criterion's median time per iteration over {} real lookups \
             (every rook, bishop and queen of the varied set and one move later, with its occupancy).",
            r.bench_lookups_per_iteration
                .map_or("the".into(), |n| n.to_string())
        );
    } else {
        let _ = writeln!(s, "* **Lookups**: not measured in this run (`--no-bench`).");
    }
    if r.valgrind.is_none() {
        let _ = writeln!(
            s,
            "* **Instructions**: not counted in this run (`--no-callgrind`)."
        );
    }
    let steps = &r.step_seconds;
    let _ = writeln!(
        s,
        "* The run took {:.1} minutes (builds {:.0} s, perft {:.0} s, callgrind {}, bench {}).\n",
        steps.total / 60.0,
        steps.build,
        steps.perft,
        steps
            .callgrind
            .map_or("skipped".into(), |v| format!("{v:.0} s")),
        steps
            .bench
            .map_or("skipped".into(), |v| format!("{v:.0} s"))
    );
    s
}

/// A per-position table: one row per backend (ranked), one column per
/// workload of `kind`, the best of each column in bold, a geomean column.
#[allow(clippy::too_many_arguments)]
fn table(
    s: &mut String,
    r: &Record,
    ranked: &[usize],
    kind: &str,
    header: impl Fn(&WorkloadRecord) -> String,
    value: impl Fn(&WorkloadRecord) -> Option<f64>,
    mean: impl Fn(&BackendRecord) -> Option<f64>,
    places: usize,
    lowest: bool,
) {
    let b = &r.backends;
    let of_kind = |x: &BackendRecord| -> Vec<WorkloadRecord> {
        x.workloads
            .iter()
            .filter(|w| w.kind == kind)
            .cloned()
            .collect()
    };
    let Some(first) = b.first() else {
        return;
    };
    let cols = of_kind(first);
    let _ = writeln!(
        s,
        "| backend | {} | geomean |\n| --- |{} ---: |",
        cols.iter().map(&header).collect::<Vec<_>>().join(" | "),
        " ---: |".repeat(cols.len())
    );
    // Column -> best value, by position id.
    let mut best: BTreeMap<String, Option<f64>> = BTreeMap::new();
    for w in &cols {
        best.insert(
            w.position.clone(),
            best_of(
                b.iter().map(|x| {
                    x.workloads
                        .iter()
                        .find(|v| v.kind == kind && v.position == w.position)
                        .and_then(&value)
                }),
                lowest,
            ),
        );
    }
    let best_mean = best_of(b.iter().map(&mean), lowest);
    for &i in ranked {
        let x = &b[i];
        let cells: Vec<String> = cols
            .iter()
            .map(|c| {
                let v = x
                    .workloads
                    .iter()
                    .find(|w| w.kind == kind && w.position == c.position)
                    .and_then(&value);
                bold(opt(v, places), v.is_some() && v == best[&c.position])
            })
            .collect();
        let m = mean(x);
        let _ = writeln!(
            s,
            "| `{}` | {} | {} |",
            x.name,
            cells.join(" | "),
            bold(opt(m, places), m.is_some() && m == best_mean)
        );
    }
    s.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_analysis_verbatim() {
        let page = format!("# t\n\nnot {ANALYSIS_MARKER}\n{ANALYSIS_MARKER}\n\n## Why\n\ntext\n");
        assert_eq!(
            kept_analysis(&page),
            Some(format!("{ANALYSIS_MARKER}\n\n## Why\n\ntext\n").as_str())
        );
        assert_eq!(kept_analysis("# no marker\n"), None);
    }

    #[test]
    fn formats() {
        assert_eq!(human_bytes(0), "none");
        assert_eq!(human_bytes(2560), "2.5 KiB");
        assert_eq!(human_bytes(861_184), "841 KiB");
        assert_eq!(human_bytes(2_359_296), "2.25 MiB");
        assert_eq!(sig3(1234.4), "1234");
        assert_eq!(sig3(41.234), "41.2");
        assert!((geomean([Some(1.0), Some(4.0)].into_iter()).unwrap() - 2.0).abs() < 1e-12);
        assert_eq!(geomean([Some(1.0), None].into_iter()), None);
        assert_eq!(best_of([Some(2.0), Some(1.0)].into_iter(), true), Some(1.0));
        assert_eq!(
            best_of([Some(2.0), Some(3.0)].into_iter(), false),
            Some(3.0)
        );
    }

    #[test]
    fn options() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let o = parse(&args("--backends kogge-stone,hq --quick")).unwrap();
        assert_eq!(o.backends, Some(vec!["hq", "kogge-stone"]));
        assert!(o.quick);
        assert!(parse(&args("--backends nope")).is_err());
        assert!(parse(&args("--render x.json --rounds 2")).is_err());
    }
}
