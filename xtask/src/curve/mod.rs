//! `cargo run -p xtask -- curve`: how perft and the search scale with
//! threads, from one thread to every core of the machine, written as the
//! record `reports/data/curve-<date>-<commit>.json`.
//!
//! * `perft-threads`: bulk perft without a table, each thread count a
//!   whole process, in paired rounds ([`crate::measure::paired_rounds`]).
//! * `perft-threads-hash`: the same with a shared 1024 MB table.
//! * the search: `quince bench --depth D --threads N`, every round, its
//!   nodes per second and its time to depth.
//!
//! The many-core machines the lab gets to use are lent for minutes and
//! have no Rust toolchain, so the command splits in two: `--build-only
//! DIR` builds Quince here and writes what the record needs to know about
//! the build beside it; `--prebuilt DIR` measures with that binary there,
//! needing neither cargo nor git, and writes the record to `--out`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::measure::build::{build, rustflags};
use crate::measure::host::{Checkout, CommitInfo, host, now_utc, sha256, version_line};
use crate::measure::{Contender, Workload};
use crate::record::{Comparison, LabRecord, SearchRun, Toolchain};
use crate::util::{Result, has_bmi2, positive, root};

const HELP: &str = "\
usage: cargo run -p xtask -- curve [OPTIONS]

Measures perft (with and without a table) and the search at 1, 2, 4, ...
threads up to every core, writes reports/data/curve-<date>-<commit>.json
(or into --out) and, when written there, renders every page.

  --build-only DIR   build quince at HEAD into DIR (with DIR/build.json
                     naming commit and toolchain) and stop: for a machine
                     without cargo, copy DIR and a prebuilt xtask there
  --prebuilt DIR     measure DIR/quince from --build-only instead of
                     building (set QUINCE_ROOT to the checkout there)
  --out DIR          write the record into DIR (default reports/data)
  --threads LIST     thread counts, e.g. 1,2,4,8,16 (default: powers of
                     two below the core count, and the core count)
  --rounds N         paired rounds (default 3)
  --search-depth D   bench depth (default 15)
  --allow-dirty      build the working tree as it is (record marked dirty)";

/// The table of the hashed curve, in MB: enough that 16 threads do not
/// spend the run overwriting each other's entries at depth 8.
const HASH_MB: &str = "1024";

/// What `--build-only` writes beside the binary.
#[derive(Serialize, Deserialize)]
struct BuildFacts {
    commit: CommitInfo,
    toolchain: Toolchain,
    slider: String,
}

struct Options {
    rounds: usize,
    threads: Option<Vec<usize>>,
    build_only: Option<PathBuf>,
    prebuilt: Option<PathBuf>,
    out: Option<PathBuf>,
    search_depth: u32,
    allow_dirty: bool,
}

fn parse(args: &[String]) -> Result<Option<Options>> {
    let mut o = Options {
        rounds: 3,
        threads: None,
        build_only: None,
        prebuilt: None,
        out: None,
        search_depth: 15,
        allow_dirty: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--rounds" => o.rounds = positive("--rounds", it.next())?,
            "--search-depth" => o.search_depth = positive("--search-depth", it.next())? as u32,
            "--threads" => {
                let list = it.next().ok_or("--threads needs a list like 1,2,4")?;
                let counts = list
                    .split(',')
                    .map(|t| positive("--threads", Some(&t.to_string())))
                    .collect::<Result<Vec<_>>>()?;
                o.threads = Some(counts);
            }
            "--build-only" => {
                o.build_only = Some(it.next().ok_or("--build-only needs a directory")?.into())
            }
            "--prebuilt" => {
                o.prebuilt = Some(it.next().ok_or("--prebuilt needs a directory")?.into())
            }
            "--out" => o.out = Some(it.next().ok_or("--out needs a directory")?.into()),
            "--allow-dirty" => o.allow_dirty = true,
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("curve: unknown option '{other}' (see --help)")),
        }
    }
    Ok(Some(o))
}

pub fn run(args: &[String]) -> Result<bool> {
    let Some(o) = parse(args)? else {
        println!("{HELP}");
        return Ok(true);
    };
    if let Some(dir) = &o.build_only {
        build_into(dir, o.allow_dirty)?;
        println!("built {}", dir.join("quince").display());
        return Ok(true);
    }
    let dir = match &o.prebuilt {
        Some(dir) => dir.clone(),
        None => {
            let dir = root().join("target/lab/curve");
            build_into(&dir, o.allow_dirty)?;
            dir
        }
    };
    let record = measure(&o, &dir)?;
    let out = o.out.clone().unwrap_or_else(crate::record::data_dir);
    let path = record.write_to(&out)?;
    println!("record written to {}", path.display());
    if o.out.is_none() {
        for p in crate::render::render()? {
            println!(
                "rendered {}",
                p.strip_prefix(root()).unwrap_or(&p).display()
            );
        }
    }
    Ok(true)
}

/// Builds `quince` from a clean checkout of HEAD (pext where the CPU has
/// BMI2, else hq) and writes `DIR/quince` and `DIR/build.json`.
fn build_into(dir: &Path, allow_dirty: bool) -> Result<()> {
    let checkout = Checkout::new(allow_dirty)?;
    let slider = if has_bmi2() { "pext" } else { "hq" };
    eprintln!(
        "[curve] building quince ({slider}) at {}",
        checkout.commit.short
    );
    let built = build(&checkout.dir, "curve-build", slider)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let to = dir.join("quince");
    std::fs::copy(&built.quince, &to).map_err(|e| format!("{}: {e}", to.display()))?;
    let facts = BuildFacts {
        commit: checkout.commit.clone(),
        toolchain: Toolchain {
            rustc: version_line("rustc", "-V"),
            rustflags: rustflags().into(),
            features: slider.into(),
            gcc: None,
            valgrind: None,
        },
        slider: slider.into(),
    };
    let text = serde_json::to_string_pretty(&facts).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("build.json"), text).map_err(|e| format!("{}: {e}", dir.display()))
}

/// 1, 2, 4, ... below the core count, then the core count.
fn default_threads() -> Vec<usize> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut t: Vec<usize> = (0..)
        .map(|k| 1usize << k)
        .take_while(|&n| n < cores)
        .collect();
    t.push(cores);
    t
}

fn label(threads: usize) -> String {
    if threads == 1 {
        "1 thread".into()
    } else {
        format!("{threads} threads")
    }
}

fn measure(o: &Options, dir: &Path) -> Result<LabRecord> {
    let started = Instant::now();
    let date_utc = now_utc();
    let text = std::fs::read_to_string(dir.join("build.json"))
        .map_err(|e| format!("{}/build.json: {e} (made by --build-only)", dir.display()))?;
    let facts: BuildFacts = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let quince = dir
        .join("quince")
        .canonicalize()
        .map_err(|e| format!("{}/quince: {e}", dir.display()))?;
    let sha = sha256(&quince)?;
    let threads = o.threads.clone().unwrap_or_else(default_threads);
    let version = format!("{} with the {} backend", facts.commit.short, facts.slider);
    let contenders = |extra: &[&str]| -> Vec<Contender> {
        threads
            .iter()
            .map(|&t| Contender {
                name: label(t),
                argv: [
                    quince.display().to_string().as_str(),
                    "perft",
                    "--fen",
                    "{fen}",
                ]
                .into_iter()
                .chain(["--depth", "{depth}", "--threads", &t.to_string()])
                .chain(extra.iter().copied())
                .map(String::from)
                .collect(),
                cwd: None,
                sha256: sha.clone(),
                version: version.clone(),
            })
            .collect()
    };
    let bulk = [
        Workload::standard("kiwipete", "bulk", 6)?,
        Workload::standard("pos6", "bulk", 6)?,
    ];
    let hashed = [
        Workload::standard("start", "hash", 8)?,
        Workload::standard("kiwipete", "hash", 6)?,
    ];
    eprintln!(
        "[curve] perft without a table, threads {threads:?}, {} rounds",
        o.rounds
    );
    let perft = Comparison::measure(
        "perft-threads",
        "bulk perft without a table at each thread count, each a whole process",
        "1 thread",
        contenders(&[]),
        &bulk,
        o.rounds,
    )?;
    eprintln!("[curve] perft with a {HASH_MB} MB table");
    let perft_hash = Comparison::measure(
        "perft-threads-hash",
        "bulk perft with a shared 1024 MB table at each thread count, each a whole process",
        "1 thread",
        contenders(&["--hash", HASH_MB]),
        &hashed,
        o.rounds,
    )?;
    eprintln!("[curve] search: bench --depth {}", o.search_depth);
    let search = search_curve(&quince, &threads, o.search_depth, o.rounds)?;
    Ok(LabRecord {
        kind: "curve".into(),
        format_version: crate::record::FORMAT_VERSION,
        commit: facts.commit,
        date_utc,
        host: host(),
        toolchain: facts.toolchain,
        comparisons: vec![perft, perft_hash],
        instructions: Vec::new(),
        backends: Vec::new(),
        deep: Vec::new(),
        search,
        run_seconds: started.elapsed().as_secs_f64(),
    })
}

/// `quince bench` at every thread count, in rotating order per round.
fn search_curve(
    quince: &Path,
    threads: &[usize],
    depth: u32,
    rounds: usize,
) -> Result<Vec<SearchRun>> {
    let mut runs: Vec<SearchRun> = threads
        .iter()
        .map(|&t| SearchRun {
            threads: t as u64,
            depth,
            command: format!("quince bench --depth {depth} --threads {t}"),
            seconds: Vec::new(),
            nodes: Vec::new(),
        })
        .collect();
    let n = runs.len();
    for r in 0..rounds {
        for k in 0..n {
            let run = &mut runs[(r + k) % n];
            let (seconds, nodes) = bench(quince, run.threads, depth)?;
            eprintln!(
                "[curve] round {}: {} threads, {nodes} nodes in {seconds:.2} s",
                r + 1,
                run.threads
            );
            run.seconds.push(seconds);
            run.nodes.push(nodes);
        }
    }
    Ok(runs)
}

/// One bench run: its search time (seconds) and nodes, as it prints them.
fn bench(quince: &Path, threads: u64, depth: u32) -> Result<(f64, u64)> {
    let out = Command::new(quince)
        .args([
            "bench",
            "--depth",
            &depth.to_string(),
            "--threads",
            &threads.to_string(),
        ])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", quince.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "bench --threads {threads} failed ({}): {text}",
            out.status
        ));
    }
    let field = |name: &str| -> Result<u64> {
        text.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split(':').nth(1)?.trim().parse().ok())
            .ok_or_else(|| format!("bench printed no '{name}' line:\n{text}"))
    };
    Ok((
        field("Total time (ms)")? as f64 / 1000.0,
        field("Nodes searched")?,
    ))
}
