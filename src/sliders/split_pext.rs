//! Split PEXT: one `PEXT` per line rather than one per piece. A line's
//! inner squares (at most six) index a small table of that line's attacks,
//! and the rook or bishop is the OR of its two lines.
//!
//! Splitting shrinks the tables from `pext`'s 841 KiB to 128 KiB (L2),
//! for one more `PEXT` per piece: per square, four 64-entry tables of
//! whole attack sets, one per line, `SPLIT_PEXT[square][line][index]`.
//! The rank needs no `PEXT`: its inner six squares are contiguous, so a
//! shift indexes it. A lookup is a load per line and nothing else to
//! undo: no shift back to the square's file, no offset table.
//!
//! An earlier version packed the lines into 19 KiB (L1d): one a-file table
//! shifted to the square's file, the diagonals' blocks end to end behind an
//! offset table, the shared 8-bit `RANK_ATTACKS` widened and shifted. Its
//! extra shifts, widening and offset loads (43 instructions per queen
//! lookup under callgrind) cost more than L2 hits: on AMD Zen 5 it ran at
//! 0.68x of Chess_Movegen's `SplitPext.hpp` (this layout) in the atlas.
//! Measured there against it, five alternating runs of each build:
//! grouped lookups 479 to 706 MQueens/s (0.93x of the reference's 759),
//! one at a time 465 to 693, Kiwipete's bulk perft(6) 3.26 to 2.74 s.
//!
//! Published as a group idea on talkchess ("Split Pext",
//! <https://www.talkchess.com/forum3/viewtopic.php?f=7&t=79049&start=340>):
//! PEXT per ray (Daniel Infuehr 2020, Thomas Jahn 2022) with Michael
//! Sherwin's split-index horizontal lookup; Chess_Movegen's `SplitPext.hpp`
//! uses one 64-entry table per square and line (128 KiB), as this does.
//!
//! Instructions: BMI2 `PEXT`. A target without BMI2 does not get this
//! backend: `all-sliders` leaves it out, and choosing it alone is a
//! compile error.

#[cfg(not(target_feature = "bmi2"))]
compile_error!(
    "feature `split-pext` needs a target with BMI2: build with RUSTFLAGS='-C target-cpu=x86-64-v3' \
     (or '-C target-cpu=native' on a BMI2 machine)"
);

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
#[cfg(target_feature = "bmi2")]
use core::arch::x86_64::_pext_u64;
use core::mem::size_of_val;

/// One PEXT per line into small per-line tables (BMI2 only).
pub struct SplitPext;

/// Gathers the bits of `value` selected by `mask` into the low bits.
#[cfg(target_feature = "bmi2")]
#[inline(always)]
fn pext(value: u64, mask: u64) -> u64 {
    // SAFETY: compiled only for targets with BMI2 (the `cfg` above), so
    // every CPU the binary may run on has PEXT.
    unsafe { _pext_u64(value, mask) }
}

impl Slider for SplitPext {
    const NAME: &'static str = "split-pext";
    const TABLE_BYTES: usize = size_of_val(&g::SPLIT_PEXT) + size_of_val(&g::SPLIT_PEXT_MASKS);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        let lines = &g::SPLIT_PEXT[s];
        let on_rank = lines[0][((o >> ((s & !7) + 1)) & 63) as usize];
        let on_file = lines[1][(pext(o, g::SPLIT_PEXT_MASKS[0][s]) & 63) as usize];
        Bitboard(on_rank | on_file)
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        let lines = &g::SPLIT_PEXT[s];
        let on_diagonal = lines[2][(pext(o, g::SPLIT_PEXT_MASKS[1][s]) & 63) as usize];
        let on_anti = lines[3][(pext(o, g::SPLIT_PEXT_MASKS[2][s]) & 63) as usize];
        Bitboard(on_diagonal | on_anti)
    }
}
