//! Quince's lab tasks.
//!
//! ```text
//! cargo run -p xtask -- lab [--rounds N] [--backends a,b,c] [--no-bench] [--no-callgrind] [--quick]
//! cargo run -p xtask -- lab --render reports/data/sliders-<date>-<commit>.json
//! cargo run -p xtask -- report [--name NAME] [--rounds N] [--no-benches] [--no-gungraun] [--no-flamegraphs] [--pext-benches]
//! cargo run -p xtask -- perft-track            # CI: compare with reports/perft-baseline.json
//! cargo run -p xtask -- perft-track --update   # refresh the baseline
//! cargo run -p xtask -- history [--commits N]   # the tracked workload at each of the last N src/ commits
//! ```
//!
//! `lab` compares every sliding-attack backend in one run on one machine:
//! each backend's `quince` built with the same flags (build seconds, binary
//! and table bytes), bulk and full-make perft with the backends alternating,
//! callgrind instructions per node, and criterion attack lookups per second.
//! It writes the record `reports/data/sliders-<date>-<commit>.json` and
//! renders `reports/sliders.md` (SVG charts in `reports/sliders/`, drawn with
//! plotters) from that record; `--render FILE` redraws the page from a record
//! without measuring, keeping its hand-written analysis.
//!
//! `report` builds the `quince` binary once per backend of hq, magic and pext,
//! runs perft with them alternating, counts instructions with callgrind, runs
//! the criterion and gungraun benches against the peer crates, and writes
//! `reports/<name>.md` with SVG charts in `reports/<name>/`. `perft-track` is
//! the CI gate on instructions per perft node; `history` measures the same
//! workload at past commits (cached) and charts it.

mod charts;
mod history;
mod lab;
mod report;
mod track;
mod util;

use std::process::ExitCode;

const USAGE: &str = "usage:
  cargo run -p xtask -- lab [--rounds N] [--backends a,b,c] [--no-bench] [--no-callgrind] [--quick]
  cargo run -p xtask -- lab --render FILE     (re-render reports/sliders.md from a record)
  cargo run -p xtask -- lab --help            (what each option does)
  cargo run -p xtask -- report [--name NAME] [--rounds N] [--no-benches] [--no-gungraun] [--no-flamegraphs] [--pext-benches]
  cargo run -p xtask -- perft-track [--update]
  cargo run -p xtask -- history [--commits N] [--render]   (perft-track's workload over the last N src/ commits)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("lab") => lab::run(&args[1..]),
        Some("report") => report::run(&args[1..]),
        Some("perft-track") => track::run(&args[1..]),
        Some("history") => history::run(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(true)
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
