//! Spectral magic bitboards (Daniel Inführ, talkchess topic 79005,
//! <https://www.talkchess.com/forum3/viewtopic.php?f=7&t=79005&start=160>;
//! "Spectral Magic Switched" in Gigantua's Chess_Movegen): a black-magic
//! style index whose magic has only three set bits, so the hash is three
//! left shifts and two additions instead of a multiplication.
//!
//! As with black magics the occupancy is OR-ed with the *complement* of
//! the relevant mask: the irrelevant bits are all set, so a square's
//! products vary only through its relevant squares and its indices crowd
//! into part of the range. Eighteen index bits (`>> 46`) leave room for
//! three-bit magics to separate every occupancy that matters; the squares'
//! sparse blocks then share one table at small offsets. The shifts and
//! offsets are the published set, checked at build time: `codegen` places
//! every occupancy of every square and fails the build on a conflict
//! (`codegen/src/spectral_magics.rs`).
//!
//! Tables: 274,645 entries (2.1 MiB) plus 1.6 KiB of masks, shifts and
//! offsets: L3 (beyond a 1-2 MiB L2). Instructions: none special (shifts
//! and adds; no multiply at all).

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Spectral magic bitboards: a three-shift hash into one overlapping table.
pub struct SpectralMagic;

#[inline(always)]
fn lookup(occupied: u64, not_mask: u64, shifts: [u8; 3], offset: u32) -> Bitboard {
    let m = occupied | not_mask;
    // Shift amounts are below 64 (checked by codegen's use of them), and
    // `& 63` lets the compiler emit plain shifts.
    let hash = (m << (shifts[0] & 63))
        .wrapping_add(m << (shifts[1] & 63))
        .wrapping_add(m << (shifts[2] & 63));
    // A bounds-checked read: codegen placed every occupancy inside the
    // table, so the check never fails.
    Bitboard(g::SPECTRAL_ATTACKS[offset as usize + (hash >> 46) as usize])
}

impl Slider for SpectralMagic {
    const NAME: &'static str = "spectral-magic";
    const TABLE_BYTES: usize = size_of_val(&g::SPECTRAL_ATTACKS)
        + 2 * (size_of_val(&g::SPECTRAL_ROOK_NOT_MASKS)
            + size_of_val(&g::SPECTRAL_ROOK_SHIFTS)
            + size_of_val(&g::SPECTRAL_ROOK_OFFSETS));

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        lookup(
            occupied.0,
            g::SPECTRAL_ROOK_NOT_MASKS[s],
            g::SPECTRAL_ROOK_SHIFTS[s],
            g::SPECTRAL_ROOK_OFFSETS[s],
        )
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        lookup(
            occupied.0,
            g::SPECTRAL_BISHOP_NOT_MASKS[s],
            g::SPECTRAL_BISHOP_SHIFTS[s],
            g::SPECTRAL_BISHOP_OFFSETS[s],
        )
    }
}
