//! Quince's lab tasks.
//!
//! ```text
//! cargo run -p xtask -- report [--name NAME] [--rounds N] [--no-benches] [--no-gungraun] [--no-flamegraphs] [--pext-benches]
//! cargo run -p xtask -- perft-track            # CI: compare with reports/perft-baseline.json
//! cargo run -p xtask -- perft-track --update   # refresh the baseline
//! ```
//!
//! `report` builds the `quince` binary once per sliding backend, runs perft
//! with the backends alternating, counts instructions with callgrind, runs
//! the criterion and gungraun benches, and writes `reports/<name>.md` with
//! SVG charts in `reports/<name>/`. `perft-track` is the CI gate on
//! instructions per perft node.

mod report;
mod svg;
mod track;
mod util;

use std::process::ExitCode;

const USAGE: &str = "usage:
  cargo run -p xtask -- report [--name NAME] [--rounds N] [--no-benches] [--no-gungraun] [--no-flamegraphs] [--pext-benches]
  cargo run -p xtask -- perft-track [--update]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("report") => report::run(&args[1..]),
        Some("perft-track") => track::run(&args[1..]),
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
