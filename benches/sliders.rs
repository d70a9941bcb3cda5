//! Sliding attacks alone, every compiled technique side by side in one run.
//!
//! `cargo bench --features all-sliders --bench sliders` compiles every
//! technique this target can run; those that need BMI2, AVX2, AVX-512 or
//! GFNI also need `RUSTFLAGS='-C target-cpu=native'` (on a CPU that has
//! them). Without `all-sliders` only `hq` and the selected backend are
//! measured.
//!
//! Each technique runs its isolated view, [`lookups::queens`] through
//! [`COMPILED`]'s `queens` pointer: queen lookups (rook | bishop, or the
//! technique's own queen) over the fixed pseudo-random set of
//! [`lookups::inputs`], the same set `quince lookups` times. Throughput
//! counts queen lookups: the inputs times the passes.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use quince::sliders::{COMPILED, lookups};

mod flame;

/// Passes over the inputs per iteration: enough to dwarf the call, few
/// enough for criterion's sampling.
const PASSES: u64 = 4;

fn sliders(c: &mut Criterion) {
    let inputs = lookups::inputs();
    let hq = COMPILED
        .iter()
        .find(|t| t.name == "hq")
        .expect("hq is always compiled");
    let expected = (hq.queens)(&inputs, PASSES);
    for technique in COMPILED {
        assert_eq!(
            (technique.queens)(&inputs, PASSES),
            expected,
            "{} disagrees with hq",
            technique.name
        );
    }
    let mut group = c.benchmark_group("sliders");
    group.throughput(Throughput::Elements(inputs.len() as u64 * PASSES));
    for technique in COMPILED {
        group.bench_function(technique.name, |b| {
            b.iter(|| (technique.queens)(black_box(&inputs), black_box(PASSES)))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = flame::config();
    targets = sliders
}
criterion_main!(benches);
