//! PEXT bitboards: BMI2's `PEXT` gathers the relevant occupancy bits into a
//! dense index, so no magic multiply is needed. Only fast where PEXT is fast
//! (Intel since Haswell, AMD since Zen 3).

#[cfg(not(target_feature = "bmi2"))]
compile_error!(
    "feature `pext` needs a target with BMI2: build with RUSTFLAGS='-C target-feature=+bmi2' \
     (or '-C target-cpu=native' on a BMI2 machine), and set RUSTDOCFLAGS the same for doctests"
);

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::arch::x86_64::_pext_u64;

/// PEXT-indexed attack tables (BMI2 only).
pub struct Pext;

impl Slider for Pext {
    const NAME: &'static str = "pext";

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let i = square.index();
        let index = _pext_u64(occupied.0, g::PEXT_ROOK_MASKS[i]);
        Bitboard(g::PEXT_ATTACKS[g::PEXT_ROOK_OFFSETS[i] as usize + index as usize])
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let i = square.index();
        let index = _pext_u64(occupied.0, g::PEXT_BISHOP_MASKS[i]);
        Bitboard(g::PEXT_ATTACKS[g::PEXT_BISHOP_OFFSETS[i] as usize + index as usize])
    }
}
