//! PEXT bitboards without BMI2: the `pext` backend's tables, indexed by a
//! software PEXT.
//!
//! PEXT packs the bits of the occupancy that lie under the relevant mask
//! into the low bits of the index, in mask order. Walking the mask from its
//! lowest set bit upwards and giving the n-th one index bit n does the same
//! with shifts and ANDs, so the index, and the 841 KiB table it reads
//! (`PEXT_*`, shared with `pext`; L2 at best, often L3), are identical.
//! The loop runs once per mask bit (at most 12 for a rook, 9 for a
//! bishop) and its body is branchless.
//!
//! Published by Zach Wegner (the bit-permutation emulation discussed at
//! <https://randombit.net/bitbashing/posts/haswell_bit_permutations.html>;
//! Chess_Movegen's "Pext Emulated" row, `Pext.hpp`).
//!
//! Instructions: none beyond 64-bit integer arithmetic; this is the
//! portable way to use the PEXT tables, and every target runs it.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// The PEXT tables with PEXT done in software (no BMI2 needed).
pub struct PextEmulated;

/// Gathers the bits of `value` selected by `mask` into the low bits, like
/// BMI2's `PEXT`: the k-th lowest bit of `mask` becomes result bit k.
#[inline(always)]
fn pext_software(value: u64, mask: u64) -> u64 {
    let mut rest = mask;
    let mut out = 0;
    let mut bit = 1u64;
    while rest != 0 {
        let lowest = rest & rest.wrapping_neg();
        // All ones when the square is occupied: no branch on the data.
        let taken = 0u64.wrapping_sub(u64::from(value & lowest != 0));
        out |= bit & taken;
        rest &= rest - 1;
        bit <<= 1;
    }
    out
}

/// The attack set stored for `occupied` within `mask`, in the block of
/// [`g::PEXT_ATTACKS`] that starts at `offset`.
#[inline(always)]
fn lookup(occupied: Bitboard, mask: u64, offset: u32) -> Bitboard {
    Bitboard(g::PEXT_ATTACKS[offset as usize + pext_software(occupied.0, mask) as usize])
}

impl Slider for PextEmulated {
    const NAME: &'static str = "pext-emulated";
    const TABLE_BYTES: usize = size_of_val(&g::PEXT_ATTACKS)
        + 2 * (size_of_val(&g::PEXT_ROOK_MASKS) + size_of_val(&g::PEXT_ROOK_OFFSETS));

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let i = square.index();
        lookup(occupied, g::PEXT_ROOK_MASKS[i], g::PEXT_ROOK_OFFSETS[i])
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let i = square.index();
        lookup(occupied, g::PEXT_BISHOP_MASKS[i], g::PEXT_BISHOP_OFFSETS[i])
    }
}
