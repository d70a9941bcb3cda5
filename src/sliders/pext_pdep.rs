//! PEXT bitboards with compressed entries: `PEXT` gathers the relevant
//! occupancy into an index as in `pext`, but the table stores each attack
//! set as a `u16`, `pext(attacks, rays)` where `rays` are the square's
//! empty-board attacks (14 squares for a rook, at most 13 for a bishop).
//! `PDEP` with the same rays puts the bits back on their squares.
//!
//! Attacks always lie on the rays, so compressing and expanding with the
//! same mask loses nothing. The price is one `PDEP` and one more mask load
//! per lookup; the gain is a table a quarter the size of the `u64` one:
//! 210 KiB plus 2 KiB of masks and offsets (about 212 KiB, in L2 where
//! `pext`'s 841 KiB spills).
//!
//! Published on the chessprogramming wiki, BMI2 page, "PEXT Bitboards"
//! (the PDEP-compressed variant,
//! <https://www.chessprogramming.org/BMI2#PEXTBitboards>).
//!
//! Instructions: BMI2 `PEXT` and `PDEP` (only fast where they are: Intel
//! since Haswell, AMD since Zen 3). A target without BMI2 does not get this
//! backend: `all-sliders` leaves it out, and choosing it alone is a
//! compile error.

#[cfg(not(target_feature = "bmi2"))]
compile_error!(
    "feature `pext-pdep` needs a target with BMI2: build with RUSTFLAGS='-C target-cpu=x86-64-v3' \
     (or '-C target-cpu=native' on a BMI2 machine)"
);

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
#[cfg(target_feature = "bmi2")]
use core::arch::x86_64::{_pdep_u64, _pext_u64};
use core::mem::size_of_val;

/// PEXT-indexed `u16` attack sets expanded by PDEP (BMI2 only).
pub struct PextPdep;

/// Gathers the bits of `value` selected by `mask` into the low bits.
#[cfg(target_feature = "bmi2")]
#[inline(always)]
fn pext(value: u64, mask: u64) -> u64 {
    // SAFETY: compiled only for targets with BMI2 (the `cfg` above), so
    // every CPU the binary may run on has PEXT.
    unsafe { _pext_u64(value, mask) }
}

/// Scatters the low bits of `value` onto the set bits of `mask`, in order.
#[cfg(target_feature = "bmi2")]
#[inline(always)]
fn pdep(value: u64, mask: u64) -> u64 {
    // SAFETY: compiled only for targets with BMI2, which has PDEP.
    unsafe { _pdep_u64(value, mask) }
}

/// The attacks for `occupied`: the compressed entry of the block at
/// `offset`, expanded onto `rays`.
#[inline(always)]
fn lookup(occupied: Bitboard, mask: u64, offset: u32, rays: u64) -> Bitboard {
    let compressed = g::PEXT_PDEP_ATTACKS[offset as usize + pext(occupied.0, mask) as usize];
    Bitboard(pdep(u64::from(compressed), rays))
}

impl Slider for PextPdep {
    const NAME: &'static str = "pext-pdep";
    const TABLE_BYTES: usize = size_of_val(&g::PEXT_PDEP_ATTACKS)
        + 2 * (size_of_val(&g::PEXT_PDEP_ROOK_MASKS) + size_of_val(&g::PEXT_PDEP_ROOK_OFFSETS))
        + size_of_val(&g::ROOK_RAYS)
        + size_of_val(&g::BISHOP_RAYS);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let i = square.index();
        lookup(
            occupied,
            g::PEXT_PDEP_ROOK_MASKS[i],
            g::PEXT_PDEP_ROOK_OFFSETS[i],
            g::ROOK_RAYS[i],
        )
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let i = square.index();
        lookup(
            occupied,
            g::PEXT_PDEP_BISHOP_MASKS[i],
            g::PEXT_PDEP_BISHOP_OFFSETS[i],
            g::BISHOP_RAYS[i],
        )
    }
}
