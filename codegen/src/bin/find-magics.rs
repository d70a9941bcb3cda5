//! Regenerates `codegen/src/magic_numbers.rs` from the fixed seed, so the
//! magic numbers Quince ships are reproducible rather than copied.
//!
//! Usage: `cargo run --release -p quince-codegen --bin find-magics [SEED]`

use codegen::magics::{MAGIC_SEED, Slider, find, render_numbers};

fn main() {
    let seed = match std::env::args().nth(1) {
        None => MAGIC_SEED,
        Some(text) => match u64::from_str_radix(text.trim_start_matches("0x"), 16) {
            Ok(seed) => seed,
            Err(e) => {
                eprintln!("error: seed must be hexadecimal: {e}");
                std::process::exit(2);
            }
        },
    };
    let start = std::time::Instant::now();
    let rook = find(Slider::Rook, seed);
    let bishop = find(Slider::Bishop, seed ^ 0x00B1_5B0B);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/magic_numbers.rs");
    if let Err(e) = std::fs::write(path, render_numbers(&rook, &bishop)) {
        eprintln!("error: cannot write {path}: {e}");
        std::process::exit(1);
    }
    eprintln!("wrote {path} in {:.2?}", start.elapsed());
}
