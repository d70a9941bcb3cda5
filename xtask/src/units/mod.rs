//! `cargo run -p xtask -- units [DIR] --quince BIN`: the record of a deep
//! perft counted as work units (`tools/perft11.sh`), once every unit is.
//!
//! Such a run spans work sessions (perft(11) takes hours on two cores and
//! is resumed from its finished units), so no single wall clock covers it:
//! the record's time is the sum of the units' own seconds, as `perft work`
//! timed each one (what a run without interruptions would take, less the
//! table's allocation at each start). `quince perft merge` checks that
//! every unit is there exactly once and gives the total, which is checked
//! against the published count. Until the last unit is in, the command
//! says how far the run is and writes nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::measure::Workload;
use crate::measure::host::{Checkout, host, now_utc, sha256, version_line};
use crate::record::{DeepRun, LabRecord, Toolchain};
use crate::util::{Result, root};

const USAGE: &str = "usage: cargo run -p xtask -- units [DIR] --quince BIN [--assume THREADS,MB]
  DIR       the run's directory, with units.jsonl and results.jsonl (default reports/perft11)
  --quince  the quince binary that counted the units (merged with it, and its SHA-256 recorded)
  --assume  the threads and table size of result lines that do not name them (written before
            `perft work` added the two fields; the record says how many there were)";

pub fn run(args: &[String]) -> Result<bool> {
    let mut dir = root().join("reports").join("perft11");
    let mut quince: Option<PathBuf> = None;
    let mut assume: Option<(u64, u64)> = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--quince" => quince = Some(it.next().ok_or("--quince wants a path")?.into()),
            "--assume" => {
                let value = it.next().ok_or("--assume wants THREADS,MB")?;
                let parsed = value
                    .split_once(',')
                    .and_then(|(t, m)| Some((t.parse().ok()?, m.parse().ok()?)));
                assume = Some(
                    parsed.ok_or_else(|| format!("--assume wants THREADS,MB, got '{value}'"))?,
                );
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(true);
            }
            other if !other.starts_with('-') => dir = other.into(),
            other => return Err(format!("unknown option '{other}'\n{USAGE}")),
        }
    }
    let quince = quince.ok_or_else(|| format!("--quince is required\n{USAGE}"))?;
    let units = dir.join("units.jsonl");
    let results = dir.join("results.jsonl");
    let of = count_lines(&units)?;
    let done = count_lines(&results)?;
    if done < of {
        eprintln!(
            "[units] {done} of {of} units counted in {}; the record waits for the last one",
            results.display()
        );
        return Ok(false);
    }
    let merged = merge(&quince, &units, &results)?;
    let field = |name: &str| {
        merged[name]
            .as_u64()
            .ok_or_else(|| format!("merge printed no '{name}'"))
    };
    let (nodes, depth) = (field("nodes")?, field("depth")? as u32);
    let seconds = merged["work_seconds"]
        .as_f64()
        .ok_or("merge printed no 'work_seconds'")?;
    let root_fen = merged["fen"].as_str().unwrap_or_default();
    let (position, expected) = standard_count(root_fen, depth)?;
    let (threads, hash_mb, assumed) = settings(&results, assume)?;
    let assumed_note = if assumed > 0 {
        format!("; {assumed} of the result lines name no settings and are taken to be the same")
    } else {
        String::new()
    };
    let deep = DeepRun {
        command: format!(
            "tools/perft11.sh: quince perft work units.jsonl --resume results.jsonl --threads 0 --hash {hash_mb} --make copy ({of} units{assumed_note})"
        ),
        position,
        depth,
        nodes,
        expected,
        exact: nodes == expected,
        seconds,
        threads,
        hash_mb,
        sha256: sha256(&quince)?,
    };
    let record = LabRecord {
        kind: "units".into(),
        format_version: crate::record::FORMAT_VERSION,
        commit: Checkout::new(true)?.commit.clone(),
        date_utc: now_utc(),
        host: host(),
        toolchain: Toolchain {
            rustc: version_line("rustc", "-V"),
            // tools/perft11.sh's own build; the backend is the one the
            // results name.
            rustflags: "-C target-cpu=native".into(),
            features: merged["slider"]
                .as_str()
                .ok_or("merge printed no 'slider'")?
                .into(),
            gcc: None,
            valgrind: None,
        },
        comparisons: Vec::new(),
        instructions: Vec::new(),
        backends: Vec::new(),
        deep: vec![deep],
        search: Vec::new(),
        run_seconds: seconds,
    };
    let path = record.write()?;
    eprintln!(
        "[units] perft({depth}) = {nodes} ({}), {seconds:.0} s of work: {}",
        if record.deep[0].exact {
            "exact"
        } else {
            "WRONG"
        },
        path.display()
    );
    Ok(record.deep[0].exact)
}

/// Non-empty lines of `path`.
fn count_lines(path: &Path) -> Result<usize> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text.lines().filter(|l| !l.trim().is_empty()).count())
}

/// `quince perft merge RESULTS --units UNITS --json`, parsed.
fn merge(quince: &Path, units: &Path, results: &Path) -> Result<serde_json::Value> {
    let out = Command::new(quince)
        .args(["perft", "merge"])
        .arg(results)
        .arg("--units")
        .arg(units)
        .arg("--json")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", quince.display()))?;
    if !out.status.success() {
        return Err(format!(
            "merge refused the results: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("merge printed no JSON object: {e}"))
}

/// The standard position whose FEN is `fen`, and its published count.
fn standard_count(fen: &str, depth: u32) -> Result<(String, u64)> {
    let placement = |f: &str| f.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
    for (name, known, _) in crate::util::standard_positions()? {
        if placement(&known) == placement(fen) {
            return Ok((name.into(), Workload::standard(name, "deep", depth)?.nodes));
        }
    }
    Err(format!("the root '{fen}' is no standard position"))
}

/// The threads and table size the results name: one value each, or an
/// error (a record states one setting; a run that changed them is not
/// one measurement). Lines without them take `assume`; how many did is
/// the third value.
fn settings(results: &Path, assume: Option<(u64, u64)>) -> Result<(u64, u64, usize)> {
    let text =
        std::fs::read_to_string(results).map_err(|e| format!("{}: {e}", results.display()))?;
    let mut seen: Option<(u64, u64)> = None;
    let mut assumed = 0;
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let v: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| format!("{}:{}: {e}", results.display(), i + 1))?;
        let (threads, hash) = match (v["threads"].as_u64(), v["hash_mb"].as_u64(), assume) {
            (Some(threads), Some(hash), _) => (threads, hash),
            (None, None, Some(settings)) => {
                assumed += 1;
                settings
            }
            _ => {
                return Err(format!(
                    "{}:{}: the result names no threads or hash_mb (see --assume)",
                    results.display(),
                    i + 1
                ));
            }
        };
        match seen {
            None => seen = Some((threads, hash)),
            Some(s) if s != (threads, hash) => {
                return Err(format!(
                    "{}:{}: {threads} threads and {hash} MB, where earlier units had {} and {}",
                    results.display(),
                    i + 1,
                    s.0,
                    s.1
                ));
            }
            Some(_) => {}
        }
    }
    let (threads, hash) = seen.ok_or_else(|| format!("{}: no results", results.display()))?;
    Ok((threads, hash, assumed))
}
