//! Fancy magic bitboards: `((occupied & mask) * magic) >> shift` is a
//! collision-free index into the square's block of a shared attack table.
//! Magics, masks, shifts and the table are generated at build time
//! (`codegen/src/magics.rs`); the magic numbers are verified there.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};

/// Fancy magic bitboards (841 KiB table shared by rooks and bishops).
pub struct Magic;

impl Slider for Magic {
    const NAME: &'static str = "magic";

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let i = square.index();
        let relevant = occupied.0 & g::MAGIC_ROOK_MASKS[i];
        let index = relevant.wrapping_mul(g::MAGIC_ROOK_NUMBERS[i]) >> g::MAGIC_ROOK_SHIFTS[i];
        Bitboard(g::MAGIC_ATTACKS[g::MAGIC_ROOK_OFFSETS[i] as usize + index as usize])
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let i = square.index();
        let relevant = occupied.0 & g::MAGIC_BISHOP_MASKS[i];
        let index = relevant.wrapping_mul(g::MAGIC_BISHOP_NUMBERS[i]) >> g::MAGIC_BISHOP_SHIFTS[i];
        Bitboard(g::MAGIC_ATTACKS[g::MAGIC_BISHOP_OFFSETS[i] as usize + index as usize])
    }
}
