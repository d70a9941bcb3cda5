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
//!
//! Units counted on other machines (a share of the units on each, as
//! with GNU parallel or Slurm) are told apart by the threads and table
//! size their result lines name: `--elsewhere THREADS,MB=LSCPU` says that
//! the lines naming those settings came from the machine whose `lscpu`
//! output is in the file LSCPU, and the record gives each machine's share.
//! Every other line must name one setting: this machine's.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::measure::Workload;
use crate::measure::host::{Checkout, Host, host, host_from_lscpu, now_utc, sha256, version_line};
use crate::record::{DeepRun, DeepShare, LabRecord, Toolchain};
use crate::util::{Result, root};

const USAGE: &str = "usage: cargo run -p xtask -- units [DIR] --quince BIN [--assume THREADS,MB]
                                   [--elsewhere THREADS,MB=LSCPU]...
  DIR       the run's directory, with units.jsonl and results.jsonl (default reports/perft11)
  --quince  the quince binary that counted the units (merged with it, and its SHA-256 recorded)
  --assume  the threads and table size of result lines that do not name them (written before
            `perft work` added the two fields; the record says how many there were)
  --elsewhere  the result lines naming these threads and table size were counted on another
            machine, whose `lscpu` output is in the file LSCPU (repeatable)";

pub fn run(args: &[String]) -> Result<bool> {
    let mut dir = root().join("reports").join("perft11");
    let mut quince: Option<PathBuf> = None;
    let mut assume: Option<(u64, u64)> = None;
    let mut elsewhere: Vec<((u64, u64), Host)> = Vec::new();
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
            "--elsewhere" => {
                let value = it.next().ok_or("--elsewhere wants THREADS,MB=LSCPU")?;
                let parsed = value.split_once('=').and_then(|(settings, file)| {
                    let (t, m) = settings.split_once(',')?;
                    Some(((t.parse().ok()?, m.parse().ok()?), PathBuf::from(file)))
                });
                let (settings, file) = parsed
                    .ok_or_else(|| format!("--elsewhere wants THREADS,MB=LSCPU, got '{value}'"))?;
                elsewhere.push((settings, host_from_lscpu(&file)?));
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
    let (here, others, assumed) = shares(&results, assume, &elsewhere)?;
    let (threads, hash_mb) = (here.threads, here.hash_mb);
    let assumed_note = if assumed > 0 {
        format!(
            "; {assumed} of the result lines name no settings and are taken to be this machine's"
        )
    } else {
        String::new()
    };
    // A run on this machine alone has no shares; otherwise this one first.
    let shares = if others.is_empty() {
        Vec::new()
    } else {
        std::iter::once(here).chain(others).collect()
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
        shares,
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

/// Each machine's share of the results: this machine's (the lines whose
/// settings `elsewhere` does not name; they must all name one setting, or
/// take `assume` when they name none), then one per entry of `elsewhere`
/// that has lines, then how many lines took `assume`.
fn shares(
    results: &Path,
    assume: Option<(u64, u64)>,
    elsewhere: &[((u64, u64), Host)],
) -> Result<(DeepShare, Vec<DeepShare>, usize)> {
    let text =
        std::fs::read_to_string(results).map_err(|e| format!("{}: {e}", results.display()))?;
    let share = |host: Host, (threads, hash_mb): (u64, u64)| DeepShare {
        host,
        threads,
        hash_mb,
        units: 0,
        nodes: 0,
        seconds: 0.0,
    };
    let mut here: Option<DeepShare> = None;
    let mut others: Vec<DeepShare> = elsewhere
        .iter()
        .map(|(settings, host)| share(host.clone(), *settings))
        .collect();
    let mut assumed = 0;
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let at = || format!("{}:{}", results.display(), i + 1);
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{}: {e}", at()))?;
        let settings = match (v["threads"].as_u64(), v["hash_mb"].as_u64(), assume) {
            (Some(threads), Some(hash), _) => (threads, hash),
            (None, None, Some(settings)) => {
                assumed += 1;
                settings
            }
            _ => {
                return Err(format!(
                    "{}: the result names no threads or hash_mb (see --assume)",
                    at()
                ));
            }
        };
        let target = match others
            .iter_mut()
            .find(|s| (s.threads, s.hash_mb) == settings)
        {
            Some(other) => other,
            None => {
                let here = here.get_or_insert_with(|| share(host(), settings));
                if (here.threads, here.hash_mb) != settings {
                    return Err(format!(
                        "{}: {} threads and {} MB, where earlier units had {} and {} \
                         (units from another machine: --elsewhere)",
                        at(),
                        settings.0,
                        settings.1,
                        here.threads,
                        here.hash_mb
                    ));
                }
                here
            }
        };
        target.units += 1;
        target.nodes += v["total"]
            .as_u64()
            .ok_or_else(|| format!("{}: no 'total'", at()))?;
        target.seconds += v["seconds"]
            .as_f64()
            .ok_or_else(|| format!("{}: no 'seconds'", at()))?;
    }
    let here = here.ok_or_else(|| {
        format!(
            "{}: no results from this machine (every line matches --elsewhere)",
            results.display()
        )
    })?;
    others.retain(|s| s.units > 0);
    Ok((here, others, assumed))
}
