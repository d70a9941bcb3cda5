//! `cargo run -p xtask -- syzygy`: Quince's Syzygy prober's speed on this
//! host, WDL and DTZ probes per second, written as the record
//! `reports/data/syzygy-<date>-<commit>.json` and rendered on
//! `reports/README.md`.
//!
//! The positions are the Syzygy test fixture's (`tests/data/syzygy/
//! probes.jsonl`: forty per 3- and 4-piece table, python-chess's answers),
//! repeated; the tables are python-chess's (`tools/syzygy-test-tables.sh`).
//! Each round is one `quince syzygy --rate` process that times the probe
//! calls alone; a first round, not kept, maps the files and warms the page
//! cache, so the rounds measure probing, not the disk.

use std::process::{Command, Stdio};
use std::time::Instant;

use crate::measure::build::{build, rustflags};
use crate::measure::host::{Checkout, host, now_utc, version_line};
use crate::record::Toolchain;
use crate::record::syzygy::{FORMAT_VERSION, SyzygyRecord, SyzygyRound};
use crate::util::{Result, positive, root};

const HELP: &str = "\
usage: cargo run -p xtask -- syzygy [--rounds N] [--repeat R] [--allow-dirty]

Builds quince at HEAD, fetches the 3- and 4-piece test tables if needed
(tools/syzygy-test-tables.sh), and times WDL and DTZ probes of the Syzygy
fixture's positions (repeated R times per round) in N rounds, each a whole
`quince syzygy --rate` process after one untimed warm-up round. Writes
reports/data/syzygy-<date>-<commit>.json and renders the pages. Run it on
idle cores.

  --rounds N     timed rounds (default 7)
  --repeat R     fixture repetitions per round (default 50)
  --allow-dirty  measure the working tree as it is (the record is marked
                 dirty and never quoted)";

const FIXTURE: &str = "tests/data/syzygy/probes.jsonl";
const TABLES: &str = "tests/data/syzygy/regular";

pub fn run(args: &[String]) -> Result<bool> {
    let (mut rounds, mut repeat, mut allow_dirty) = (7, 50, false);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--rounds" => rounds = positive("--rounds", it.next())?,
            "--repeat" => repeat = positive("--repeat", it.next())?,
            "--allow-dirty" => allow_dirty = true,
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(true);
            }
            other => return Err(format!("syzygy: unknown option '{other}' (see --help)")),
        }
    }
    let started = Instant::now();
    let date_utc = now_utc();
    let checkout = Checkout::new(allow_dirty)?;
    let fetched = Command::new("bash")
        .arg(root().join("tools/syzygy-test-tables.sh"))
        .current_dir(root())
        .status()
        .map_err(|e| format!("tools/syzygy-test-tables.sh: {e}"))?;
    if !fetched.success() {
        return Err("tools/syzygy-test-tables.sh failed: no tables to probe".into());
    }
    let tables = root().join(TABLES);
    let table_files = std::fs::read_dir(&tables)
        .map_err(|e| format!("{}: {e}", tables.display()))?
        .flatten()
        .filter(|e| {
            e.path()
                .extension()
                .is_some_and(|x| x == "rtbw" || x == "rtbz")
        })
        .count();

    let fixture =
        std::fs::read_to_string(root().join(FIXTURE)).map_err(|e| format!("{FIXTURE}: {e}"))?;
    let mut fens = Vec::new();
    for line in fixture.lines() {
        let value: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{FIXTURE}: {e}"))?;
        fens.push(
            value["fen"]
                .as_str()
                .ok_or(format!("{FIXTURE}: a line without a FEN"))?
                .to_string(),
        );
    }
    let input: String = (0..repeat)
        .flat_map(|_| fens.iter())
        .map(|f| format!("{f}\n"))
        .collect();
    let input_path = root().join("target").join("syzygy-positions.txt");
    std::fs::create_dir_all(root().join("target")).map_err(|e| e.to_string())?;
    std::fs::write(&input_path, &input).map_err(|e| format!("{}: {e}", input_path.display()))?;

    eprintln!("[syzygy] building quince at {}", checkout.commit.short);
    let built = build(&checkout.dir, "syzygy", "cli")?;
    let positions_per_round = (fens.len() * repeat) as u64;
    let mut kept = Vec::new();
    for round in 0..=rounds {
        let result = probe_round(&built.quince, &tables, &input_path)?;
        if round > 0 {
            eprintln!(
                "[syzygy] round {round}/{rounds}: {:.0} WDL, {:.0} DTZ probes a second",
                result.wdl_per_second, result.dtz_per_second
            );
            kept.push(result);
        }
    }
    let record = SyzygyRecord {
        kind: "syzygy".into(),
        format_version: FORMAT_VERSION,
        commit: checkout.commit.clone(),
        date_utc,
        host: host(),
        toolchain: Toolchain {
            rustc: version_line("rustc", "-V"),
            rustflags: rustflags().into(),
            features: "cli".into(),
            gcc: None,
            valgrind: None,
        },
        tables: "python-chess 1.11.2's data/syzygy/regular (tools/syzygy-test-tables.sh)".into(),
        table_files,
        max_pieces: 4,
        positions: format!(
            "{FIXTURE}, {} positions, repeated {repeat} times",
            fens.len()
        ),
        positions_per_round,
        command: format!("quince syzygy --path {TABLES} --rate < positions"),
        rounds: kept,
        run_seconds: started.elapsed().as_secs_f64(),
    };
    let path = crate::record::write_json(&crate::record::data_dir(), &record.file_name(), &record)?;
    crate::render::announce(&path)?;
    Ok(true)
}

/// One `quince syzygy --rate` process over the positions file.
fn probe_round(
    quince: &std::path::Path,
    tables: &std::path::Path,
    input: &std::path::Path,
) -> Result<SyzygyRound> {
    let stdin = std::fs::File::open(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let out = Command::new(quince)
        .args(["syzygy", "--rate", "--path"])
        .arg(tables)
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("{}: {e}", quince.display()))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!("quince syzygy failed ({}): {stderr}", out.status));
    }
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("rate: "))
        .ok_or_else(|| format!("quince syzygy printed no rate line: {stderr}"))?;
    let rate: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("rate line '{line}': {e}"))?;
    let field = |name: &str| {
        rate[name]
            .as_f64()
            .ok_or_else(|| format!("rate line without {name}: {line}"))
    };
    Ok(SyzygyRound {
        wdl_per_second: field("wdl_per_second")?,
        dtz_per_second: field("dtz_per_second")?,
    })
}
