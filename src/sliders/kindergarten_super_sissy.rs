//! Kindergarten super SISSY bitboards: kindergarten indices into
//! per-square line tables. Each of the four lines through the slider
//! yields its six inner occupancy bits, and a table per square and line
//! (a "sub set" in SISSY terms) gives the attacks along that line; the
//! piece's attacks are the OR of its two lines (they share no square).
//!
//! * Ranks: the inner six squares are contiguous, `occupied >> (rank * 8 +
//!   1) & 63`.
//! * Diagonals: `(occupied & line) * b-file >> 58`, kindergarten's
//!   multiply, gathers files b-g of the line (one square per file, so
//!   nothing carries).
//! * Files: shifted onto the a-file and multiplied by the c2-h7 diagonal,
//!   which turns ranks 2-7 into the top six bits.
//!
//! Unlike `kindergarten`, whose tables are shared by all squares of a file
//! (and must be masked with the line, or shifted back to the file), these
//! tables are per square and hold only the line's squares: no mask or
//! shift after the load, at the price of 128 KiB of tables (L2).
//!
//! Published by Michael Sherwin (talkchess 2023,
//! <https://www.talkchess.com/forum3/viewtopic.php?f=7&t=81234&start=30>;
//! Chess_Movegen's `KindergartenSuperSissyBoard.hpp`).
//!
//! Instructions: a 64-bit multiply; every target runs it.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Kindergarten indices into per-square line tables (128 KiB).
pub struct KindergartenSuperSissy;

/// The a-file: a file's occupancy, once shifted onto it.
const A_FILE: u64 = 0x0101_0101_0101_0101;

/// Index of a rank or diagonal: files b-g of the line's occupancy.
#[inline(always)]
fn line_index(occupied: u64, line: u64) -> usize {
    ((occupied & line).wrapping_mul(g::KINDERGARTEN_B_FILE) >> 58) as usize
}

impl Slider for KindergartenSuperSissy {
    const NAME: &'static str = "kindergarten-super-sissy";
    const TABLE_BYTES: usize = size_of_val(&g::KGSSB_RANK)
        + size_of_val(&g::KGSSB_FILE)
        + size_of_val(&g::KGSSB_DIAGONAL)
        + size_of_val(&g::KGSSB_ANTI_DIAGONAL)
        + size_of_val(&g::DIAGONAL_MASKS)
        + size_of_val(&g::ANTI_DIAGONAL_MASKS);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        let rank_index = ((o >> ((s & 56) | 1)) & 63) as usize;
        let on_a_file = (o >> (s & 7)) & A_FILE;
        let file_index = (on_a_file.wrapping_mul(g::KINDERGARTEN_C2H7) >> 58) as usize;
        Bitboard(g::KGSSB_RANK[s][rank_index] | g::KGSSB_FILE[s][file_index])
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        Bitboard(
            g::KGSSB_DIAGONAL[s][line_index(o, g::DIAGONAL_MASKS[s])]
                | g::KGSSB_ANTI_DIAGONAL[s][line_index(o, g::ANTI_DIAGONAL_MASKS[s])],
        )
    }
}
