//! `quince lookups`: one sliding-attack technique's queen lookups in
//! isolation (`quince::sliders::lookups`), the atlas's first view.

use clap::Args;
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
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// List the compiled techniques with their table bytes, and those left out.
    #[arg(long)]
    pub list: bool,
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
    let inputs = lookups::inputs();
    let start = Instant::now();
    let fold = (technique.queens)(&inputs, args.passes);
    let seconds = start.elapsed().as_secs_f64();
    let count = args.passes * inputs.len() as u64;
    let rate = count as f64 / seconds.max(1e-9) / 1e6;
    if args.json {
        println!(
            "{}",
            json!({
                "technique": technique.name,
                "table_bytes": technique.table_bytes,
                "lookups": count,
                "seconds": seconds,
                "mqueens_per_s": (rate * 100.0).round() / 100.0,
                "fold": format!("{fold:016x}"),
            })
        );
    } else {
        println!(
            "{}: {count} queen lookups in {seconds:.3} s, {rate:.1} MQueens/s ({} table bytes; fold {fold:016x})",
            technique.name, technique.table_bytes
        );
    }
    Ok(ExitCode::SUCCESS)
}
