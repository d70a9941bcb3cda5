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

mod charts;
mod measure;
mod page;
mod record;

pub use page::render;
pub use record::{CommitInfo, Host, Record, host};

use std::path::PathBuf;

use crate::util::{ALL_BACKENDS, Result, root};

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

pub(super) struct Options {
    pub(super) rounds: Option<usize>,
    pub(super) backends: Option<Vec<&'static str>>,
    pub(super) bench: bool,
    pub(super) callgrind: bool,
    pub(super) quick: bool,
    pub(super) render: Option<PathBuf>,
    pub(super) help: bool,
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
    let record = measure::measure(&opts)?;
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

#[cfg(test)]
mod tests {
    use super::*;

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
