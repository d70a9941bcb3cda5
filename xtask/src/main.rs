//! Quince's lab tasks, thin commands on three modules that import nothing
//! from the commands: `measure` (the one protocol: paired rounds, intervals,
//! host, commit), `record` (the data formats under `reports/data/`) and
//! `render` (every page, README's results block, the charts, `--check`).
//!
//! ```text
//! cargo run -p xtask -- report [--gigantua BIN --mperft BIN --templechess BIN]  # Quince against its peers
//! cargo run -p xtask -- lab [--full]             # every sliding-attack backend against the others
//! cargo run -p xtask -- atlas [--reference BIN]  # every technique on this CPU, isolated and in the generator
//! cargo run -p xtask -- lead-profile --gigantua BIN  # what the lead over Gigantua is made of (valgrind)
//! cargo run -p xtask -- scale [--mperft BIN] [--deep]  # hashed and threaded perft, perft(10)
//! cargo run -p xtask -- curve [--prebuilt DIR]   # perft and search from 1 thread to every core
//! cargo run -p xtask -- report --render         # every page and chart from the records
//! cargo run -p xtask -- report --check          # CI: pages match records, no typed figures
//! cargo run -p xtask -- perft-track [--update]  # CI: instructions per perft node against the baseline
//! cargo run -p xtask -- history [--commits N]   # the tracked workload at past commits (cached), charted
//! cargo run -p xtask -- units --quince BIN      # the record of a finished work-unit run (perft(11))
//! cargo run -p xtask -- dataset data/s8.qdg ...  # the record of a self-play data set
//! cargo run -p xtask -- sprt --elo0 0 --elo1 5 --ptnml 1,5,20,10,4  # the exact SPRT of one count
//! cargo run -p xtask -- syzygy                   # Syzygy probes per second on this host
//! ```

mod atlas;
mod curve;
mod dataset;
mod history;
mod lab;
mod lead_profile;
mod measure;
mod record;
mod render;
mod report;
mod scale;
mod sprt;
mod syzygy;
mod track;
mod units;
mod util;

use std::process::ExitCode;

const USAGE: &str = "usage:
  cargo run -p xtask -- lab [--rounds N] [--backends a,b,c] [--full] [--no-callgrind] [--allow-dirty]
  cargo run -p xtask -- atlas [--rounds N] [--techniques a,b] [--reference BIN] [--reference-scalar BIN] [--reference-source GIT_DIR] [--no-generator] [--no-callgrind] [--allow-dirty]
  cargo run -p xtask -- report [--rounds N] [--gigantua BIN] [--mperft BIN] [--templechess BIN] [--no-crates]
  cargo run -p xtask -- lead-profile --gigantua BIN [--allow-dirty]   (instructions and mispredictions per leaf, Quince and Gigantua)
  cargo run -p xtask -- scale [--rounds N] [--mperft BIN] [--deep] [--allow-dirty]
  cargo run -p xtask -- curve [--threads 1,2,4] [--rounds N] [--build-only DIR | --prebuilt DIR --out DIR]
  cargo run -p xtask -- report --render     (every page and chart from reports/data/)
  cargo run -p xtask -- report --check      (CI: fail on any page that differs from its records)
  cargo run -p xtask -- perft-track [--update]
  cargo run -p xtask -- history [--commits N] [--render]   (perft-track's workload over the last N src/ commits)
  cargo run -p xtask -- units [DIR] --quince BIN [--assume THREADS,MB] [--elsewhere THREADS,MB=LSCPU]   (the record of a finished work-unit run: tools/perft11.sh)
  cargo run -p xtask -- dataset data/SET.qdg --commit REV --evaluation TEXT --command TEXT   (the record of a self-play data set)
  cargo run -p xtask -- sprt --elo0 E0 --elo1 E1 (--ptnml A,B,C,D,E | --wdl W,D,L)   (the exact SPRT of one count, as JSON)
  cargo run -p xtask -- syzygy [--rounds N] [--repeat R]   (Syzygy WDL and DTZ probes per second on this host)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("lab") => lab::run(&args[1..]),
        Some("atlas") => atlas::run(&args[1..]),
        Some("report") => report::run(&args[1..]),
        Some("lead-profile") => lead_profile::run(&args[1..]),
        Some("scale") => scale::run(&args[1..]),
        Some("curve") => curve::run(&args[1..]),
        Some("perft-track") => track::run(&args[1..]),
        Some("history") => history::run(&args[1..]),
        Some("units") => units::run(&args[1..]),
        Some("dataset") => dataset::run(&args[1..]),
        Some("sprt") => sprt::run(&args[1..]),
        Some("syzygy") => syzygy::run(&args[1..]),
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
