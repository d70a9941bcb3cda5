//! `cargo run -p xtask -- scale`: perft at scale on this machine, measured
//! with the lab's protocol ([`crate::measure`]) and written as the record
//! `reports/data/scale-<date>-<commit>.json`; then every page rendered.
//!
//! Three comparisons, each paired rounds of whole processes:
//!
//! * `hash`: hashed perft on one thread with a 256 MB table, Quince
//!   against MPerft's `-b -h 256`, and Quince with each step of its table
//!   turned off in turn (`--no-prefetch`, `--normal-pages`), so that the
//!   report shows what each step buys.
//! * `threads`: bulk perft without a table, two threads against one.
//! * `threads-hash`: the same with the 256 MB table.
//!
//! With `--deep`, one run of `quince perft --depth 10 --threads 0 --hash
//! 8192` (the start position, about ten minutes on two cores) is added to
//! the record with its count checked against the published one.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use crate::measure::build::{build, rustflags};
use crate::measure::host::{Checkout, host, now_utc, peer_version, sha256, version_line};
use crate::measure::{Contender, DEFAULT_ROUNDS, Workload};
use crate::record::{Comparison, DeepRun, LabRecord, Toolchain};
use crate::util::{Result, existing_file, has_bmi2, positive};

const HELP: &str = "\
usage: cargo run -p xtask -- scale [OPTIONS]

Measures hashed and threaded perft with the lab's protocol (paired rounds
of whole processes in rotating order; every round kept, median and
interval per ratio), writes reports/data/scale-<date>-<commit>.json and
renders every page from the records.

  --mperft BIN     an MPerft binary (../shared/peers/build.sh): hashed
                   perft against its `-b -h 256`
  --rounds N       paired rounds (default 7)
  --deep           also run perft(10) of the start position with
                   --threads 0 --hash 8192 once (about ten minutes on two
                   cores; needs 8 GB of free memory)
  --allow-dirty    measure the working tree as it is (the record is marked
                   dirty, and report --check refuses it)";

/// The hash size of the compared runs, in MB (the yardstick:
/// MPerft's `-h 256`).
const HASH_MB: &str = "256";

struct Options {
    rounds: usize,
    mperft: Option<PathBuf>,
    deep: bool,
    allow_dirty: bool,
}

fn parse(args: &[String]) -> Result<Option<Options>> {
    let mut o = Options {
        rounds: DEFAULT_ROUNDS,
        mperft: None,
        deep: false,
        allow_dirty: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--rounds" => o.rounds = positive("--rounds", it.next())?,
            "--mperft" => o.mperft = Some(existing_file(arg, it.next())?),
            "--deep" => o.deep = true,
            "--allow-dirty" => o.allow_dirty = true,
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("scale: unknown option '{other}' (see --help)")),
        }
    }
    Ok(Some(o))
}

pub fn run(args: &[String]) -> Result<bool> {
    let Some(o) = parse(args)? else {
        println!("{HELP}");
        return Ok(true);
    };
    let path = measure_scale(&o)?.write()?;
    crate::render::announce(&path)?;
    Ok(true)
}

fn comparison(
    name: &str,
    about: &str,
    reference: &str,
    contenders: Vec<Contender>,
    workloads: &[Workload],
    rounds: usize,
) -> Result<Comparison> {
    eprintln!("[scale] {name}: {rounds} rounds");
    Comparison::measure(name, about, reference, contenders, workloads, rounds)
}

fn measure_scale(o: &Options) -> Result<LabRecord> {
    let started = Instant::now();
    let date_utc = now_utc();
    let checkout = Checkout::new(o.allow_dirty)?;
    let (slider, features) = if has_bmi2() {
        ("pext", "pext")
    } else {
        ("hq", "hq")
    };
    eprintln!(
        "[scale] building quince ({features}) at {}",
        checkout.commit.short
    );
    let built = build(&checkout.dir, "scale", features)?;
    let quince_sha = sha256(&built.quince)?;
    let version = format!("{} with the {slider} backend", checkout.commit.short);
    let quince = |name: &str, extra: &[&str]| Contender {
        name: name.into(),
        argv: [
            built.quince.display().to_string().as_str(),
            "perft",
            "--fen",
            "{fen}",
            "--depth",
            "{depth}",
        ]
        .iter()
        .chain(extra)
        .map(|s| s.to_string())
        .collect(),
        cwd: None,
        sha256: quince_sha.clone(),
        version: version.clone(),
    };
    let hash = ["--hash", HASH_MB];
    let mut comparisons = Vec::new();

    let hashed = [
        Workload::standard("start", "hash", 8)?,
        Workload::standard("kiwipete", "hash", 6)?,
    ];
    let mut contenders = vec![
        quince("quince", &hash),
        quince("quince, no prefetch", &["--hash", HASH_MB, "--no-prefetch"]),
        quince(
            "quince, normal pages",
            &["--hash", HASH_MB, "--normal-pages"],
        ),
    ];
    if let Some(bin) = &o.mperft {
        let bin = bin
            .canonicalize()
            .map_err(|e| format!("{}: {e}", bin.display()))?;
        contenders.push(Contender {
            name: "mperft".into(),
            argv: vec![
                bin.display().to_string(),
                "-f".into(),
                "{fen}".into(),
                "-d".into(),
                "{depth}".into(),
                "-b".into(),
                "-h".into(),
                HASH_MB.into(),
            ],
            cwd: None,
            sha256: sha256(&bin)?,
            version: peer_version("mperft", &bin),
        });
    }
    comparisons.push(comparison(
        "hash",
        "hashed bulk perft on one thread with a 256 MB table, each a whole process: Quince, Quince with one step of its table turned off, and MPerft's -b -h 256",
        "quince",
        contenders,
        &hashed,
        o.rounds,
    )?);

    let bulk = [
        Workload::standard("start", "bulk", 7)?,
        Workload::standard("kiwipete", "bulk", 6)?,
    ];
    comparisons.push(comparison(
        "threads",
        "bulk perft without a table, two threads against one, each a whole process on a two-core machine",
        "2 threads",
        vec![
            quince("2 threads", &["--threads", "2"]),
            quince("1 thread", &["--threads", "1"]),
        ],
        &bulk,
        o.rounds,
    )?);
    comparisons.push(comparison(
        "threads-hash",
        "hashed bulk perft with a 256 MB table, two threads against one, each a whole process on a two-core machine",
        "2 threads",
        vec![
            quince("2 threads", &["--threads", "2", "--hash", HASH_MB]),
            quince("1 thread", &["--threads", "1", "--hash", HASH_MB]),
        ],
        &hashed,
        o.rounds,
    )?);

    let mut deep = Vec::new();
    if o.deep {
        deep.push(deep_run(&built.quince, &quince_sha)?);
    }

    let gcc = o.mperft.as_ref().map(|_| version_line("gcc", "--version"));
    Ok(LabRecord {
        kind: "scale".into(),
        format_version: crate::record::FORMAT_VERSION,
        commit: checkout.commit.clone(),
        date_utc,
        host: host(),
        toolchain: Toolchain {
            rustc: version_line("rustc", "-V"),
            rustflags: rustflags().into(),
            features: features.into(),
            gcc,
            valgrind: None,
        },
        comparisons,
        instructions: Vec::new(),
        backends: Vec::new(),
        deep,
        search: Vec::new(),
        run_seconds: started.elapsed().as_secs_f64(),
    })
}

/// perft(10) of the start position on every core with an 8 GB table, once.
fn deep_run(quince: &std::path::Path, sha: &str) -> Result<DeepRun> {
    let depth = 10;
    let expected = Workload::standard("start", "deep", depth)?.nodes;
    let args = [
        "perft",
        "--depth",
        "10",
        "--threads",
        "0",
        "--hash",
        "8192",
        "--json",
    ];
    eprintln!("[scale] perft(10): quince {}", args.join(" "));
    let start = Instant::now();
    let out = Command::new(quince)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", quince.display()))?;
    let seconds = start.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(format!(
            "perft(10) failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("perft(10) printed no JSON object: {e}"))?;
    let nodes = v["nodes"].as_u64().ok_or("perft(10): no nodes field")?;
    Ok(DeepRun {
        command: format!("quince {}", args.join(" ")),
        position: "start".into(),
        depth,
        nodes,
        expected,
        exact: nodes == expected,
        seconds,
        threads: v["threads"].as_u64().unwrap_or(0),
        hash_mb: v["hash_mb"].as_u64().unwrap_or(0),
        sha256: sha.to_string(),
        shares: Vec::new(),
    })
}
