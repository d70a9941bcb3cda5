//! Fancy magic bitboards: `((occupied & mask) * magic) >> shift` is a
//! collision-free index into the square's block of a shared attack table.
//! Magics, masks, shifts and the table are generated at build time
//! (`codegen/src/magics.rs`); the magic numbers are verified there.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Fancy magic bitboards (841 KiB table shared by rooks and bishops).
pub struct Magic;

/// Every square's block of [`g::MAGIC_ATTACKS`] lies inside the table:
/// an index shifted right by `shift` is below `2^(64 - shift)`, and
/// `offset + 2^(64 - shift)` is at most the table's length. Checked when
/// the crate compiles, for [`lookup`]'s unchecked read.
const _: () = {
    let mut i = 0;
    while i < 64 {
        let rook_end =
            g::MAGIC_ROOK_OFFSETS[i] as usize + (1 << (64 - g::MAGIC_ROOK_SHIFTS[i] as u32));
        let bishop_end =
            g::MAGIC_BISHOP_OFFSETS[i] as usize + (1 << (64 - g::MAGIC_BISHOP_SHIFTS[i] as u32));
        assert!(rook_end <= g::MAGIC_ATTACKS.len() && bishop_end <= g::MAGIC_ATTACKS.len());
        i += 1;
    }
};

/// The attack set for `occupied` in the block of [`g::MAGIC_ATTACKS`] that
/// starts at `offset`.
#[inline(always)]
fn lookup(occupied: Bitboard, mask: u64, magic: u64, shift: u32, offset: u32) -> Bitboard {
    let index = offset as usize + ((occupied.0 & mask).wrapping_mul(magic) >> shift) as usize;
    // SAFETY: the shifted product is below `2^(64 - shift)`, and the
    // constant check above proves every square's block of that size to be
    // within the table. Skipping the bounds check saves a compare and a
    // branch per lookup, measurably fewer instructions per node in bulk
    // perft (callgrind; `reports/archive/speed-2026-11-23-morning.md`).
    Bitboard(unsafe { *g::MAGIC_ATTACKS.get_unchecked(index) })
}

impl Slider for Magic {
    const NAME: &'static str = "magic";
    const TABLE_BYTES: usize = size_of_val(&g::MAGIC_ATTACKS)
        + 2 * (size_of_val(&g::MAGIC_ROOK_MASKS)
            + size_of_val(&g::MAGIC_ROOK_NUMBERS)
            + size_of_val(&g::MAGIC_ROOK_SHIFTS)
            + size_of_val(&g::MAGIC_ROOK_OFFSETS));

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let i = square.index();
        lookup(
            occupied,
            g::MAGIC_ROOK_MASKS[i],
            g::MAGIC_ROOK_NUMBERS[i],
            g::MAGIC_ROOK_SHIFTS[i] as u32,
            g::MAGIC_ROOK_OFFSETS[i],
        )
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let i = square.index();
        lookup(
            occupied,
            g::MAGIC_BISHOP_MASKS[i],
            g::MAGIC_BISHOP_NUMBERS[i],
            g::MAGIC_BISHOP_SHIFTS[i] as u32,
            g::MAGIC_BISHOP_OFFSETS[i],
        )
    }
}
