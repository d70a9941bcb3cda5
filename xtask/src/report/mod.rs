//! `cargo run -p xtask -- report`: Quince against the peers on this
//! machine, written as a record (`reports/data/peers-<date>-<commit>.json`),
//! then `reports/README.md`, the one current results page, rendered from
//! every record in `reports/data/` (the peers and the sliding-attack lab's).
//!
//! Wall time on shared machines is noisy, so the page leans on two things
//! that are not: ratios between engines measured side by side (in one
//! criterion process, or alternating whole processes) and instruction
//! counts (gungraun).

mod measure;
mod page;
pub mod record;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::{Result, root};

const HELP: &str =
    "cargo run -p xtask -- report [--render] [--no-gungraun] [--gigantua BIN] [--rounds N]

Measures Quince against the peer crates on this machine (criterion: bulk and
full-make perft on the six standard positions, move generation, make/unmake;
gungraun: instructions per node, if gungraun-runner is installed; with
--gigantua, whole-process perft against a Gigantua binary built with
../shared/gigantua/build.sh), writes the record
reports/data/peers-<date>-<commit>.json, and renders reports/README.md from
every record in reports/data/ (the latest of each CPU family). Where the CPU
has BMI2, Quince runs its pext backend and cozy-chess its own PEXT lookups
(-C target-cpu=x86-64-v3); elsewhere both use their defaults. About 6
minutes on 2 cores, plus a minute per round against Gigantua.

  --render        only render reports/README.md from the records (no measuring)
  --no-gungraun   skip the instruction counts
  --gigantua BIN  also time this Gigantua binary against Quince, whole process
  --rounds N      alternating rounds against Gigantua (default 5)";

/// Depths of the alternating wall-clock runs of the lab (2-16 million
/// leaves, well under a second each here).
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

pub struct Options {
    render_only: bool,
    gungraun: bool,
    gigantua: Option<PathBuf>,
    rounds: usize,
}

fn parse(args: &[String]) -> Result<Option<Options>> {
    let mut o = Options {
        render_only: false,
        gungraun: true,
        gigantua: None,
        rounds: 5,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--render" => o.render_only = true,
            "--no-gungraun" => o.gungraun = false,
            "--gigantua" => {
                let path = PathBuf::from(it.next().ok_or("--gigantua needs the binary's path")?);
                if !path.is_file() {
                    return Err(format!("--gigantua: {} is not a file", path.display()));
                }
                o.gigantua = Some(path);
            }
            "--rounds" => {
                let n = it.next().ok_or("--rounds needs a number")?;
                o.rounds = n
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--rounds: '{n}' is not a positive number"))?;
            }
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(None);
            }
            other => return Err(format!("report: unknown option '{other}' (see --help)")),
        }
    }
    Ok(Some(o))
}

pub fn run(args: &[String]) -> Result<bool> {
    let Some(opts) = parse(args)? else {
        return Ok(true);
    };
    if !opts.render_only {
        let r = measure::measure(&opts)?;
        let dir = record::data_dir();
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = dir.join(format!(
            "peers-{}-{}.json",
            r.date_utc.get(..10).unwrap_or("undated"),
            r.commit.short
        ));
        let text = serde_json::to_string_pretty(&r).map_err(|e| e.to_string())? + "\n";
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("record written to {}", path.display());
    }
    let records = record::load()?;
    let page = page::write(&records)?;
    println!(
        "page written to {} ({} peers and {} sliders records)",
        page.strip_prefix(root()).unwrap_or(&page).display(),
        records.peers.len(),
        records.sliders.len()
    );
    Ok(true)
}

/// Criterion results: full id -> (elements per iteration, median ns per iteration).
pub(crate) type CriterionResults = BTreeMap<String, (u64, f64)>;

/// Every benchmark's result under criterion's output directory.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_reject() {
        let args = |s: &[&str]| s.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        let o = parse(&args(&["--render", "--no-gungraun", "--rounds", "3"]))
            .unwrap()
            .unwrap();
        assert!(o.render_only && !o.gungraun && o.rounds == 3);
        assert!(parse(&args(&["--rounds", "0"])).is_err());
        assert!(parse(&args(&["--gigantua", "/nonexistent/giga"])).is_err());
        assert!(parse(&args(&["--bogus"])).is_err());
        assert!(parse(&args(&["-h"])).unwrap().is_none());
    }
}
