//! Kindergarten bitboards: one multiplication gathers a line's occupancy
//! into six index bits, and a small table gives the attacks.
//!
//! A rank or diagonal has one square per file, so `(occupied & line) *
//! b-file >> 58` lines its squares on files b-g up in bits 0-5 (the
//! partial products never overlap, nothing carries). The attacks of a rank
//! slider for that occupancy, copied onto all eight ranks
//! (`KINDERGARTEN_FILL_UP`), masked with the line, are the attacks along
//! it. A file is shifted onto the a-file and multiplied by the c2-h7
//! diagonal instead, which turns it into a rank in the top byte; its table
//! (`KINDERGARTEN_A_FILE`) is shifted back to the file. Both constants are
//! checked by `codegen` against the ray walker for every square and line
//! occupancy, so a wrong one fails the build.
//!
//! Tables: 8 KiB in all, versus 841 KiB for fancy magics: one multiply per
//! line, no per-square magic, shift or offset.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Kindergarten bitboards (8 KiB of tables).
pub struct Kindergarten;

/// Attacks along a rank or diagonal `line` (without the slider's square)
/// of a slider on `file`.
#[inline(always)]
fn line_attacks(file: usize, occupied: u64, line: u64) -> u64 {
    let index = ((occupied & line).wrapping_mul(g::KINDERGARTEN_B_FILE) >> 58) as usize;
    g::KINDERGARTEN_FILL_UP[file][index] & line
}

/// Attacks along the file of a slider on `file`, `rank`.
#[inline(always)]
fn file_attacks(file: usize, rank: usize, occupied: u64) -> u64 {
    const A_FILE: u64 = 0x0101_0101_0101_0101;
    let on_a_file = (occupied >> file) & A_FILE;
    let index = (on_a_file.wrapping_mul(g::KINDERGARTEN_C2H7) >> 58) as usize;
    g::KINDERGARTEN_A_FILE[rank][index] << file
}

impl Slider for Kindergarten {
    const NAME: &'static str = "kindergarten";
    const TABLE_BYTES: usize = size_of_val(&g::KINDERGARTEN_FILL_UP)
        + size_of_val(&g::KINDERGARTEN_A_FILE)
        + size_of_val(&g::RANK_MASKS)
        + size_of_val(&g::DIAGONAL_MASKS)
        + size_of_val(&g::ANTI_DIAGONAL_MASKS);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        let (file, rank) = (s & 7, s >> 3);
        Bitboard(file_attacks(file, rank, o) | line_attacks(file, o, g::RANK_MASKS[s]))
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        let file = s & 7;
        Bitboard(
            line_attacks(file, o, g::DIAGONAL_MASKS[s])
                | line_attacks(file, o, g::ANTI_DIAGONAL_MASKS[s]),
        )
    }
}
