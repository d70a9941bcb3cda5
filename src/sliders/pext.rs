//! PEXT bitboards: BMI2's `PEXT` gathers the relevant occupancy bits into a
//! dense index, so no magic multiply is needed. Only fast where PEXT is fast
//! (Intel since Haswell, AMD since Zen 3).

#[cfg(not(target_feature = "bmi2"))]
compile_error!(
    "feature `pext` needs a target with BMI2: build with RUSTFLAGS='-C target-cpu=x86-64-v3' \
     (or '-C target-cpu=native' on a BMI2 machine), and set RUSTDOCFLAGS the same for doctests"
);

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::arch::x86_64::_pext_u64;
use core::mem::size_of_val;

/// PEXT-indexed attack tables (BMI2 only).
pub struct Pext;

/// Gathers the bits of `value` selected by `mask` into the low bits.
#[inline]
fn pext(value: u64, mask: u64) -> u64 {
    // SAFETY: this module compiles only when the target has BMI2 (see the
    // `compile_error!` above), so every CPU the binary may run on has PEXT.
    // The PEXT backend exists to measure exactly this instruction against
    // magic multiplication (see the benches), and there is no safe spelling.
    unsafe { _pext_u64(value, mask) }
}

/// Every square's slice of [`g::PEXT_ATTACKS`] lies inside the table:
/// `offset + 2^(mask bits)` is at most its length. Checked when the crate
/// compiles, for [`lookup`]'s unchecked read.
const _: () = {
    let mut i = 0;
    while i < 64 {
        let rook_end = g::PEXT_ROOK_OFFSETS[i] as usize + (1 << g::PEXT_ROOK_MASKS[i].count_ones());
        let bishop_end =
            g::PEXT_BISHOP_OFFSETS[i] as usize + (1 << g::PEXT_BISHOP_MASKS[i].count_ones());
        assert!(rook_end <= g::PEXT_ATTACKS.len() && bishop_end <= g::PEXT_ATTACKS.len());
        i += 1;
    }
};

/// The attack set stored for `occupied` within `mask`, in the slice of
/// [`g::PEXT_ATTACKS`] that starts at `offset`.
#[inline(always)]
fn lookup(occupied: Bitboard, mask: u64, offset: u32) -> Bitboard {
    let index = offset as usize + pext(occupied.0, mask) as usize;
    // SAFETY: PEXT returns at most as many bits as `mask` has set, so
    // `index < offset + 2^(mask bits)`, which the constant check above
    // proves to be within the table for every square's mask and offset.
    // Skipping the bounds check saves a compare and a branch per lookup,
    // and a counted position does six to ten lookups: measurably fewer
    // instructions per node in bulk perft (callgrind;
    // `reports/archive/speed-2026-11-23-morning.md`).
    Bitboard(unsafe { *g::PEXT_ATTACKS.get_unchecked(index) })
}

impl Slider for Pext {
    const NAME: &'static str = "pext";
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
