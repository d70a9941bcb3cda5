//! Sliding attacks alone, every compiled backend side by side: `Hq` always,
//! `Magic` with `--features magic`, `Pext` with `--features pext` (and
//! `RUSTFLAGS='-C target-feature=+bmi2'`). Inputs: every square on the
//! occupancy of every position of the varied set (throughput = lookups,
//! one rook and one bishop attack set each).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use quince::sliders::{Hq, Slider};
use quince::{Bitboard, Square};

mod common;
mod flame;

fn attacks<S: Slider>(inputs: &[(Square, Bitboard)]) -> u64 {
    inputs.iter().fold(0u64, |acc, &(square, occupied)| {
        acc.wrapping_add((S::rook(square, occupied) ^ S::bishop(square, occupied)).0)
    })
}

fn sliders(c: &mut Criterion) {
    let inputs: Vec<(Square, Bitboard)> = common::varied_fens()
        .iter()
        .flat_map(|fen| {
            let occupied = common::quince_board(fen).occupied();
            Square::all().map(move |sq| (sq, occupied))
        })
        .collect();
    let expected = attacks::<Hq>(&inputs);
    let mut group = c.benchmark_group("sliders");
    group.throughput(Throughput::Elements(inputs.len() as u64));
    group.bench_function(Hq::NAME, |b| b.iter(|| attacks::<Hq>(black_box(&inputs))));
    #[cfg(feature = "magic")]
    {
        use quince::sliders::Magic;
        assert_eq!(attacks::<Magic>(&inputs), expected);
        group.bench_function(Magic::NAME, |b| {
            b.iter(|| attacks::<Magic>(black_box(&inputs)))
        });
    }
    #[cfg(feature = "pext")]
    {
        use quince::sliders::Pext;
        assert_eq!(attacks::<Pext>(&inputs), expected);
        group.bench_function(Pext::NAME, |b| {
            b.iter(|| attacks::<Pext>(black_box(&inputs)))
        });
    }
    black_box(expected);
    group.finish();
}

criterion_group! {
    name = benches;
    config = flame::config();
    targets = sliders
}
criterion_main!(benches);
