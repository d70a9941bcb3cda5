//! Hyperbola quintessence: for a slider on square `s` and a line mask `m`
//! (the line through `s`, without `s`), the blockers are `o = occupied & m`.
//! `o - 2s` borrows through the empty squares above `s` up to and including
//! the first blocker, so `(o - 2s) ^ o`, masked, gives the attacks towards
//! higher squares. Byte-swapping reverses square order on files and
//! diagonals (each has one square per rank), so the same subtraction on the
//! swapped board gives the other direction. A rank has all its squares in
//! one byte, which a byte swap cannot reverse: ranks use a 8x64 lookup.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};

/// Hyperbola quintessence (no large tables: four masks and a 512-byte rank lookup).
pub struct Hq;

/// Attacks of a slider on `square` along the line `mask` (files and diagonals).
#[inline]
fn line_attacks(square: Square, occupied: u64, mask: u64) -> u64 {
    let bit = 1u64 << square.index();
    // The byte-swapped square: same file, mirrored rank (index ^ 56), one
    // shift rather than a swap of `bit`.
    let swapped_bit = 1u64 << (square.index() ^ 56);
    let o = occupied & mask;
    let forward = o.wrapping_sub(bit.wrapping_mul(2));
    let reverse = o
        .swap_bytes()
        .wrapping_sub(swapped_bit.wrapping_mul(2))
        .swap_bytes();
    (forward ^ reverse) & mask
}

/// Attacks along the rank of `square`, by lookup on the six inner squares.
#[inline]
fn rank_attacks(square: Square, occupied: u64) -> u64 {
    let shift = square.rank().index() * 8;
    let inner = (occupied >> (shift + 1)) & 63;
    (g::RANK_ATTACKS[square.file().index()][inner as usize] as u64) << shift
}

impl Slider for Hq {
    const NAME: &'static str = "hq";

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let file = line_attacks(square, occupied.0, g::FILE_MASKS[square.index()]);
        Bitboard(file | rank_attacks(square, occupied.0))
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let i = square.index();
        let diagonal = line_attacks(square, occupied.0, g::DIAGONAL_MASKS[i]);
        let anti = line_attacks(square, occupied.0, g::ANTI_DIAGONAL_MASKS[i]);
        Bitboard(diagonal | anti)
    }
}
