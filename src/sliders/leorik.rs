//! Leorik's line attacks, from Thomas Jahn's (lithander) engines Leorik
//! (<https://github.com/lithander/Leorik>) and MinimalChessEngine
//! (<https://github.com/lithander/MinimalChessEngine>), as ported to C++
//! in Gigantua's Chess_Movegen comparison (`Leorik.hpp`, 2022).
//!
//! What sets it apart from its neighbours here:
//! * `classical` works per *ray*: eight ray loads and eight bit scans per
//!   queen, each ray cut by XORing the ray beyond its first blocker.
//! * `obstruction` works per line but from two ray loads per line, and
//!   its one subtraction ties the two halves together
//!   (`upper - highest lower blocker`).
//! * Leorik works per *line through the slider, the slider included*, and
//!   loads almost nothing: a rank is `0xFF << (s & 56)` and a file
//!   `A_FILE << (s & 7)`, computed, not looked up; only the two diagonals
//!   come from a table (1 KiB, one 16-byte row per square). One mask,
//!   `below = slider - 1`, splits every line of the piece into its lower
//!   and upper part. The upper part gives `x ^ (x - 1)`, ones up to and
//!   including its lowest blocker; the lower part gives
//!   `i64::MAX >> lzcnt(x | 1)`, ones strictly below its highest blocker.
//!   The two halves are independent until their XOR, which is the stretch
//!   between the two first blockers, both included; the line mask trims
//!   the rest. Both lines of the piece are ORed and the slider's own bit
//!   (always inside the stretch) is removed once at the end.
//!
//! Tables: `LEORIK_DIAGONALS`, 1 KiB (L1d); rook attacks read no table.
//! Instructions: none required (`u64::leading_zeros`: LZCNT where the
//! target has it, BSR otherwise; `x ^ (x - 1)` becomes BLSMSK with BMI1).

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Leorik: full lines split by one below-mask (1 KiB of diagonals).
pub struct Leorik;

const RANK_1: u64 = 0xFF;
const A_FILE: u64 = 0x0101_0101_0101_0101;

/// The stretch of `line` (slider included) between the first blockers
/// on either side of the slider; `below` is every square under it.
#[inline(always)]
fn line(line: u64, blockers: u64, below: u64) -> u64 {
    let on_line = blockers & line;
    let upper = on_line & !below;
    let lower = on_line & below;
    let through_first_above = upper ^ upper.wrapping_sub(1);
    let under_first_below = (u64::MAX >> 1) >> (lower | 1).leading_zeros();
    (through_first_above ^ under_first_below) & line
}

/// Both lines' attacks for a slider `piece` (one bit) on `occupied`.
#[inline(always)]
fn two_lines(piece: u64, occupied: u64, first: u64, second: u64) -> u64 {
    let blockers = occupied & !piece;
    let below = piece - 1;
    (line(first, blockers, below) | line(second, blockers, below)) & !piece
}

impl Slider for Leorik {
    const NAME: &'static str = "leorik";
    const TABLE_BYTES: usize = size_of_val(&g::LEORIK_DIAGONALS);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        let (rank, file) = (RANK_1 << (s & 56), A_FILE << (s & 7));
        Bitboard(two_lines(1 << s, occupied.0, rank, file))
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        let [diagonal, anti_diagonal] = g::LEORIK_DIAGONALS[s];
        Bitboard(two_lines(1 << s, occupied.0, diagonal, anti_diagonal))
    }
}
