//! Regenerates `codegen/src/black_magic_numbers.rs`: searches black magics
//! from a fixed seed (reproducible), hill-climbing each square's magic
//! towards the shortest span of used indices, and packs the blocks into one
//! overlapping table.
//!
//! Usage: `cargo run --release -p quince-codegen --bin find-black-magics [STEPS]`
//! (STEPS: hill-climbing steps per square, default 500000, about 3 minutes).

use codegen::black_magics::{BLACK_MAGIC_SEED, find, render};

fn main() {
    let steps = match std::env::args().nth(1).map(|t| t.parse::<usize>()) {
        None => 500_000,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("error: STEPS must be a positive number");
            std::process::exit(2);
        }
    };
    let start = std::time::Instant::now();
    let found = find(BLACK_MAGIC_SEED, steps);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/black_magic_numbers.rs");
    if let Err(e) = std::fs::write(path, render(&found, BLACK_MAGIC_SEED, steps)) {
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
