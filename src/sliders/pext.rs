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

impl Slider for Pext {
    const NAME: &'static str = "pext";

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let i = square.index();
        let index = pext(occupied.0, g::PEXT_ROOK_MASKS[i]);
        Bitboard(g::PEXT_ATTACKS[g::PEXT_ROOK_OFFSETS[i] as usize + index as usize])
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let i = square.index();
        let index = pext(occupied.0, g::PEXT_BISHOP_MASKS[i]);
        Bitboard(g::PEXT_ATTACKS[g::PEXT_BISHOP_OFFSETS[i] as usize + index as usize])
    }
}
