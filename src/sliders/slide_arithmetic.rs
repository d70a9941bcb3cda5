//! Slide arithmetic (Jakob Progsch and Daniel Infuehr, talkchess 2021,
//! "SlideArithm", <http://www.talkchess.com/forum3/viewtopic.php?f=7&t=78693>):
//! each line is split at the slider with a BZHI-style mask, and each half
//! becomes a run of low ones with one instruction.
//!
//! * Above the slider, `x ^ (x - 1)` (BMI1 `BLSMSK`) of the blockers there
//!   sets every bit up to and including the lowest of them: the first
//!   blocker above (all ones when there is none).
//! * Below it, `i64::MAX >> lzcnt(blockers | 1)` sets every bit strictly
//!   below the highest of them: the first blocker below (none when there
//!   is no blocker, thanks to the `| 1`).
//!
//! The two runs agree below the first blocker below and above the first
//! blocker above, so their XOR is the stretch between them, both
//! included. Masked with the line (without the slider), that is the
//! attack set. Unlike obstruction difference, neither half needs a
//! subtraction that depends on the other: the two halves are independent
//! until the final XOR.
//!
//! Tables: the four lines through each square in one 32-byte row per
//! square (`SLIDE_LINES`, 2 KiB, L1d). Instructions: none required; written
//! in portable Rust, LLVM emits BZHI/BLSMSK/LZCNT where the target has
//! BMI1/BMI2/LZCNT and plain shifts, subtracts and BSR otherwise.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Slide arithmetic on four lines (2 KiB of masks).
pub struct SlideArithmetic;

/// Attacks along `line` (through `square`, without it).
#[inline(always)]
fn line(square: usize, occupied: u64, line: u64) -> u64 {
    let blockers = occupied & line;
    let below = blockers & ((1u64 << square) - 1);
    let above = blockers ^ below;
    let through_first_above = above ^ above.wrapping_sub(1);
    let under_first_below = (u64::MAX >> 1) >> (below | 1).leading_zeros();
    (through_first_above ^ under_first_below) & line
}

impl Slider for SlideArithmetic {
    const NAME: &'static str = "slide-arithmetic";
    const TABLE_BYTES: usize = size_of_val(&g::SLIDE_LINES);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        let [file, rank, _, _] = g::SLIDE_LINES[s];
        Bitboard(line(s, o, file) | line(s, o, rank))
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        let [_, _, diagonal, anti_diagonal] = g::SLIDE_LINES[s];
        Bitboard(line(s, o, diagonal) | line(s, o, anti_diagonal))
    }
}
