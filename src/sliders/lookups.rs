//! The isolated view of a technique: queen lookups ([`Slider::queen`]:
//! rook | bishop, or the technique's own queen where it has one, as the
//! reference comparison Gigantua/Chess_Movegen counts them) over a fixed
//! pseudo-random set of squares and occupancies, outside any move
//! generator.
//!
//! Why a fixed set: every technique, every CPU and every run sees the same
//! inputs, so rates compare and `callgrind` counts repeat exactly. The set
//! is [`INPUTS`] pairs from a xorshift generator with a fixed seed; each
//! occupancy is the AND of two random words (about 16 of 64 squares set,
//! a middlegame's density) with the slider's own square set. 4096 pairs
//! are 64 KiB, so the inputs stay in L2 and the technique's tables, not
//! the inputs, decide what the caches see.

use super::Slider;
use crate::types::{Bitboard, Square};

/// How many (square, occupancy) pairs one pass visits.
pub const INPUTS: usize = 4096;

/// The fixed input set: `INPUTS` squares and occupancies.
pub fn inputs() -> Vec<(Square, Bitboard)> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..INPUTS)
        .map(|_| {
            let square = Square::new((next() % 64) as u8);
            let occupied = (next() & next()) | (1u64 << square.index());
            (square, Bitboard(occupied))
        })
        .collect()
}

/// Queen attacks of every pair in `inputs`, `passes` times over, summed
/// into one word so that no lookup can be optimised away (an add: one
/// cycle of latency, far below any lookup's throughput). The lookups are
/// independent of each other, so this measures throughput, as the
/// reference comparison does; the in-generator view (perft) is where a
/// lookup waits on earlier work.
#[inline(never)]
pub fn queens<A: Slider>(inputs: &[(Square, Bitboard)], passes: u64) -> u64 {
    let mut fold = 0u64;
    for _ in 0..passes {
        for &(square, occupied) in inputs {
            let attacks = A::queen(square, occupied);
            fold = fold.wrapping_add(attacks.0);
        }
    }
    fold
}
