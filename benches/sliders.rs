//! Sliding attacks alone, every compiled backend side by side in one run.
//!
//! `cargo bench --features all-sliders --bench sliders` compiles every
//! backend this target can run (PEXT and the AVX2 path of `simd-fill` need
//! `RUSTFLAGS='-C target-cpu=x86-64-v3'`); without `all-sliders` only `hq`
//! and the selected backend are measured.
//!
//! Inputs are *real* lookups: every rook, bishop and queen of every
//! position of the varied set and of the positions one legal move after
//! them, with that position's occupancy (a queen asks for both). So the
//! squares and occupancies are the ones move generation asks about, not a
//! uniform sweep. Throughput counts lookups (one rook or bishop attack set
//! each).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use quince::sliders::{Hq, Slider};
use quince::{Bitboard, Color, Piece, Position, Square};

mod common;
mod flame;

/// One lookup: rook (`true`) or bishop, from a square on an occupancy.
type Lookup = (bool, Square, Bitboard);

fn lookups_of(position: &Position, out: &mut Vec<Lookup>) {
    let occupied = position.occupied();
    for color in [Color::White, Color::Black] {
        for (piece, rook, bishop) in [
            (Piece::Rook, true, false),
            (Piece::Bishop, false, true),
            (Piece::Queen, true, true),
        ] {
            for square in position.colored(color, piece) {
                if rook {
                    out.push((true, square, occupied));
                }
                if bishop {
                    out.push((false, square, occupied));
                }
            }
        }
    }
}

/// The varied set's lookups and those one move later.
fn real_lookups() -> Vec<Lookup> {
    let mut out = Vec::new();
    for fen in common::varied_fens() {
        let position = common::quince_board(&fen);
        lookups_of(&position, &mut out);
        for &mv in quince::movegen::legal_moves(&position).as_slice() {
            lookups_of(&position.play_unchecked(mv), &mut out);
        }
    }
    out
}

fn attacks<S: Slider>(inputs: &[Lookup]) -> u64 {
    inputs.iter().fold(0u64, |acc, &(rook, square, occupied)| {
        let attacks = if rook {
            S::rook(square, occupied)
        } else {
            S::bishop(square, occupied)
        };
        acc.wrapping_add(attacks.0)
    })
}

/// Benches every backend named whose module is compiled.
macro_rules! bench_compiled {
    ($group:ident, $inputs:ident, $expected:ident; $($name:literal => $ty:ident,)*) => {
        $(
            #[cfg(quince_compiled = $name)]
            {
                use quince::sliders::$ty;
                assert_eq!(attacks::<$ty>(&$inputs), $expected, "{}", $name);
                $group.bench_function(<$ty as Slider>::NAME, |b| {
                    b.iter(|| attacks::<$ty>(black_box(&$inputs)))
                });
            }
        )*
    };
}

fn sliders(c: &mut Criterion) {
    let inputs = real_lookups();
    let expected = attacks::<Hq>(&inputs);
    let mut group = c.benchmark_group("sliders");
    group.throughput(Throughput::Elements(inputs.len() as u64));
    bench_compiled!(group, inputs, expected;
        "hq" => Hq,
        "magic" => Magic,
        "pext" => Pext,
        "classical" => Classical,
        "obstruction" => Obstruction,
        "kindergarten" => Kindergarten,
        "plain-magic" => PlainMagic,
        "black-magic" => BlackMagic,
        "kogge-stone" => KoggeStone,
        "dumb7" => Dumb7,
        "simd-fill" => SimdFill,
        "rotated" => Rotated,
        "hq-bitrev" => HqBitrev,
    );
    group.finish();
}

criterion_group! {
    name = benches;
    config = flame::config();
    targets = sliders
}
criterion_main!(benches);
