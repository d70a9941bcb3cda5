//! Regenerates `codegen/src/black_magic_numbers.rs`: searches black magics
//! from a fixed seed (reproducible), keeps per square the one whose used
//! indices span least, and packs the blocks into one overlapping table.
//!
//! Usage: `cargo run --release -p quince-codegen --bin find-black-magics [TRIES]`
//! (TRIES: collision-free candidates compared per square, default 400).

use codegen::black_magics::{BLACK_MAGIC_SEED, find, render};

fn main() {
    let tries = match std::env::args().nth(1).map(|t| t.parse::<usize>()) {
        None => 400,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("error: TRIES must be a positive number");
            std::process::exit(2);
        }
    };
    let start = std::time::Instant::now();
    let found = find(BLACK_MAGIC_SEED, tries);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/black_magic_numbers.rs");
    if let Err(e) = std::fs::write(
        path,
        render(&found, BLACK_MAGIC_SEED, tries),
    ) {
        eprintln!("error: cannot write {path}: {e}");
        std::process::exit(1);
    }
    eprintln!(
        "wrote {path}: {} entries ({} KiB; {} used, spans sum to {}) in {:.2?}",
        found.len,
        found.len * 8 / 1024,
        found.used,
        found.spans,
        start.elapsed()
    );
}
