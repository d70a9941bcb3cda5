//! Split PEXT: one `PEXT` per line rather than one per piece. A line's
//! inner squares (at most six) index a small table of that line's attacks,
//! and the rook or bishop is the OR of its two lines.
//!
//! Splitting shrinks the tables from `pext`'s 841 KiB to about 19 KiB, all
//! in L1d, for one more `PEXT` per piece:
//! * files: a file slider's attacks do not depend on the file, so one
//!   `[rank][index]` table on the a-file (4 KiB) serves all eight, shifted;
//! * diagonals and anti-diagonals: per square a dense block of
//!   `2^(inner squares)` entries, packed end to end (13 KiB for both);
//! * ranks need no `PEXT` at all: the inner six squares are already
//!   contiguous, so a shift indexes the shared `RANK_ATTACKS` (512 bytes).
//!
//! Published as a group idea on talkchess ("Split Pext",
//! <https://www.talkchess.com/forum3/viewtopic.php?f=7&t=79049&start=340>):
//! PEXT per ray (Daniel Infuehr 2020, Thomas Jahn 2022) with Michael
//! Sherwin's split-index horizontal lookup; Chess_Movegen's `SplitPext.hpp`
//! uses one 64-entry table per square and line (128 KiB), this version
//! packs the diagonals and shares the file table.
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

/// Attacks along a diagonal: the entry for the line's inner occupancy in
/// the square's block of [`g::SPLIT_PEXT_LINES`].
#[inline(always)]
fn diagonal(occupied: u64, mask: u64, offset: u16) -> u64 {
    g::SPLIT_PEXT_LINES[offset as usize + pext(occupied, mask) as usize]
}

impl Slider for SplitPext {
    const NAME: &'static str = "split-pext";
    const TABLE_BYTES: usize = size_of_val(&g::RANK_ATTACKS)
        + size_of_val(&g::SPLIT_PEXT_FILE_MASKS)
        + size_of_val(&g::SPLIT_PEXT_A_FILE)
        + size_of_val(&g::SPLIT_PEXT_DIAGONAL_MASKS)
        + size_of_val(&g::SPLIT_PEXT_ANTI_DIAGONAL_MASKS)
        + size_of_val(&g::SPLIT_PEXT_DIAGONAL_OFFSETS)
        + size_of_val(&g::SPLIT_PEXT_ANTI_DIAGONAL_OFFSETS)
        + size_of_val(&g::SPLIT_PEXT_LINES);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        let (file, rank) = (s & 7, s >> 3);
        // The rank's inner six squares are contiguous: a shift is its PEXT.
        let inner = ((o >> (rank * 8 + 1)) & 63) as usize;
        let on_rank = u64::from(g::RANK_ATTACKS[file][inner]) << (rank * 8);
        // At most six mask bits: the index is below 64.
        let index = (pext(o, g::SPLIT_PEXT_FILE_MASKS[s]) & 63) as usize;
        let on_file = g::SPLIT_PEXT_A_FILE[rank][index] << file;
        Bitboard(on_rank | on_file)
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        Bitboard(
            diagonal(
                o,
                g::SPLIT_PEXT_DIAGONAL_MASKS[s],
                g::SPLIT_PEXT_DIAGONAL_OFFSETS[s],
            ) | diagonal(
                o,
                g::SPLIT_PEXT_ANTI_DIAGONAL_MASKS[s],
                g::SPLIT_PEXT_ANTI_DIAGONAL_OFFSETS[s],
            ),
        )
    }
}
