//! Genetic obstruction difference: a variant of Michael Hoffmann's
//! obstruction difference found by Daniel Infuehr with a genetic search
//! over C++ syntax trees ("abstract syntax tree sifting"), published as
//! `GeneticObstructionDiff.hpp` in his Chess_Movegen comparison
//! (<https://github.com/Gigantua/Chess_Movegen>, 2022; talkchess thread of
//! obstruction difference, <http://www.talkchess.com/forum3/viewtopic.php?t=29087>).
//!
//! Per line, as in `obstruction`: with `upper` the blockers above the
//! slider and `msb` the highest blocker below (bit 0 if none),
//! `upper ^ (upper - msb)` is the stretch from that blocker up to and
//! through the first blocker above. What the search found:
//! * the split into `below` and `above` is done once per piece, on the
//!   whole board, and each line only ANDs it in, instead of one ray pair
//!   per line;
//! * the lines keep the slider's own square. The stretch always covers the
//!   slider, so each line's result has it, and XORing the two lines of a
//!   piece (which meet only there) cancels it: no separate mask or
//!   `& !slider`.
//! * everything one lookup reads sits in one 48-byte row per square
//!   (below, above, rank, file, diagonal, anti-diagonal).
//!
//! Tables: `GENETIC_OBSTRUCTION`, 3 KiB (L1d). Instructions: none required
//! (`u64::leading_zeros`: LZCNT where available, BSR otherwise).

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Obstruction difference with a shared split and XOR-cancelled slider.
pub struct GeneticObstruction;

/// The stretch of `line` (slider included) between its first blockers,
/// given the board's blockers below and above the slider.
#[inline(always)]
fn line(below: u64, above: u64, line: u64) -> u64 {
    let upper = above & line;
    let highest_below = (1u64 << 63) >> ((below & line) | 1).leading_zeros();
    (upper ^ upper.wrapping_sub(highest_below)) & line
}

/// XOR of two lines' stretches: their attacks, the shared slider cancelled.
#[inline(always)]
fn two_lines(square: usize, occupied: u64, first: usize, second: usize) -> u64 {
    let row = &g::GENETIC_OBSTRUCTION[square];
    let (below, above) = (occupied & row[0], occupied & row[1]);
    line(below, above, row[first]) ^ line(below, above, row[second])
}

impl Slider for GeneticObstruction {
    const NAME: &'static str = "genetic-obstruction";
    const TABLE_BYTES: usize = size_of_val(&g::GENETIC_OBSTRUCTION);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        Bitboard(two_lines(square.index(), occupied.0, 2, 3))
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        Bitboard(two_lines(square.index(), occupied.0, 4, 5))
    }
}
