//! `quince lookups`: one sliding-attack technique's queen lookups in
//! isolation (`quince::sliders::lookups`), the atlas's first view.

use clap::{Args, ValueEnum};
use quince::sliders::{ALL_NAMES, COMPILED, LEFT_OUT, lookups};
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

use crate::UserError;

pub const LONG_ABOUT: &str = "\
Lab: time one sliding-attack technique's queen lookups (rook | bishop) in
isolation, over a fixed pseudo-random set of 4096 squares and occupancies
(quince::sliders::lookups), the same set for every technique and run.
Prints million queen lookups per second (MQueens/s, the unit of the
reference comparison Gigantua/Chess_Movegen).

--mode says how the lookups are asked for (reports/atlas.md has each
technique's rates in all three; they can differ several-fold):
  batch          a new occupancy per lookup, and the compiler may vectorise
                 across lookups (table reads become gathers, fills run
                 several to a register);
  one-at-a-time  a new occupancy per lookup, each lookup whole, as a move
                 generator asks for them;
  grouped        each lookup whole, but twelve squares per occupancy (341
                 occupancies), the structure of Chess_Movegen's harness: a
                 compiler may share an occupancy's work across its twelve.

Every technique the build compiled can be named: build with
`--features all-sliders` (and RUSTFLAGS='-C target-cpu=native' for those
that need BMI2, AVX2, AVX-512 or GFNI). `--list` prints them.";

#[derive(Args)]
pub struct LookupsArgs {
    /// The technique (a feature name, e.g. hq, magic, pext).
    #[arg(long, value_name = "NAME", required_unless_present = "list")]
    pub technique: Option<String>,
    /// Passes over the 4096 inputs (default 20000: about 82 million lookups).
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    pub passes: u64,
    /// How the lookups are asked for (see above).
    #[arg(long, value_enum, default_value_t = Mode::Batch)]
    pub mode: Mode,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// List the compiled techniques with their table bytes, and those left out.
    #[arg(long)]
    pub list: bool,
}

/// `--mode`: the three ways of asking for lookups.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    Batch,
    OneAtATime,
    Grouped,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Batch => "batch",
            Mode::OneAtATime => "one-at-a-time",
            Mode::Grouped => "grouped",
        }
    }
}

pub fn run(args: &LookupsArgs) -> Result<ExitCode, UserError> {
    if args.list {
        for c in COMPILED {
            println!("{:<28} {:>9} table bytes", c.name, c.table_bytes);
        }
        for (name, missing) in LEFT_OUT {
            println!("{name:<28} not compiled: needs {missing}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let name = args.technique.as_deref().unwrap_or_default();
    let technique = COMPILED.iter().find(|c| c.name == name).ok_or_else(|| {
        let known = if ALL_NAMES.contains(&name) {
            "it is not compiled into this build (see --list)".to_string()
        } else {
            format!("known: {}", ALL_NAMES.join(", "))
        };
        UserError(format!("--technique {name}: {known}"))
    })?;
    let (fold, count, start) = match args.mode {
        Mode::Grouped => {
            let groups = lookups::grouped_inputs();
            let start = Instant::now();
            let fold = (technique.queens_grouped)(&groups, args.passes);
            let count = args.passes * (groups.len() * lookups::PER_OCCUPANCY) as u64;
            (fold, count, start)
        }
        mode => {
            let inputs = lookups::inputs();
            let queens = if mode == Mode::OneAtATime {
                technique.queens_one_at_a_time
            } else {
                technique.queens
            };
            let start = Instant::now();
            let fold = queens(&inputs, args.passes);
            (fold, args.passes * inputs.len() as u64, start)
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let rate = count as f64 / seconds.max(1e-9) / 1e6;
    if args.json {
        println!(
            "{}",
            json!({
                "technique": technique.name,
                "table_bytes": technique.table_bytes,
                "lookups": count,
                "mode": args.mode.name(),
                "seconds": seconds,
                "mqueens_per_s": (rate * 100.0).round() / 100.0,
                "fold": format!("{fold:016x}"),
            })
        );
    } else {
        println!(
            "{}: {count} queen lookups ({}) in {seconds:.3} s, {rate:.1} MQueens/s ({} table bytes; fold {fold:016x})",
            technique.name,
            args.mode.name(),
            technique.table_bytes
        );
    }
    Ok(ExitCode::SUCCESS)
}
