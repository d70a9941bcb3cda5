//! Hyperbola quintessence on all four lines, ranks included, by reversing
//! the bits of the whole board instead of its bytes (the "reverse
//! bitboard" formulation of `o ^ (o - 2s)`).
//!
//! The `hq` backend reverses square order with a byte swap, which mirrors
//! ranks and so works for files and diagonals (one square per rank) but
//! not for a rank, whose squares share a byte: it looks ranks up in a
//! table. `u64::reverse_bits` reverses every square's order, so the same
//! subtraction serves ranks too and no table is needed. x86-64 has no
//! bit-reverse instruction (ARM has `rbit`): LLVM emits a byte swap plus
//! three masked swaps, so each line costs more than a byte swap. The lab
//! shows whether dropping the rank table pays for that.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Hyperbola quintessence with bit reversal on every line (masks only).
pub struct HqBitrev;

/// Attacks along `mask` (a line through `square`, without it).
#[inline(always)]
fn line(square: usize, occupied: u64, mask: u64) -> u64 {
    let o = occupied & mask;
    let forward = o.wrapping_sub(2u64 << square);
    // The reversed board has the slider on square 63 - s.
    let reverse = o
        .reverse_bits()
        .wrapping_sub(2u64 << (63 - square))
        .reverse_bits();
    (forward ^ reverse) & mask
}

impl Slider for HqBitrev {
    const NAME: &'static str = "hq-bitrev";
    const TABLE_BYTES: usize = size_of_val(&g::FILE_MASKS)
        + size_of_val(&g::RANK_MASKS)
        + size_of_val(&g::DIAGONAL_MASKS)
        + size_of_val(&g::ANTI_DIAGONAL_MASKS);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        Bitboard(line(s, o, g::FILE_MASKS[s]) | line(s, o, g::RANK_MASKS[s]))
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        Bitboard(line(s, o, g::DIAGONAL_MASKS[s]) | line(s, o, g::ANTI_DIAGONAL_MASKS[s]))
    }
}
