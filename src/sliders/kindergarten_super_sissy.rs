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
//! Why one table, `KGSSB[square][line][index]`: with four tables, one per
//! line, and the masks in two more, a grouped queen lookup ran 47.4
//! instructions where the reference's own code in the same inputs ran
//! 38.0 (callgrind;
//! `reports/data/atlas-intel-emerald-rapids-family-6-model-207-2026-11-30-8ecb2febb426.json`),
//! and the listing showed why: six table bases, more than the free
//! registers, so the loop shuffled them in and out around each lookup.
//! A square's four rows side by side are one base (the rows at fixed
//! offsets from it), and its two diagonal masks one 16-byte entry. What
//! it bought, counted with callgrind on builds before and after
//! (`-C target-cpu=x86-64-v3`, release): 33.4 instructions per grouped
//! lookup (33.0 one at a time, from 47.0), and bulk perft(5) of Kiwipete
//! with this technique 1.117 to 1.089 billion instructions (2.5 % fewer).
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

/// The rows of a square in [`g::KGSSB`], in the generator's order.
const RANK: usize = 0;
const FILE: usize = 1;
const DIAGONAL: usize = 2;
const ANTI_DIAGONAL: usize = 3;

/// Each square's diagonal and anti-diagonal masks side by side (one
/// 16-byte entry, one base for both).
static LINE_MASKS: [[u64; 2]; 64] = {
    let mut out = [[0; 2]; 64];
    let mut s = 0;
    while s < 64 {
        out[s] = [g::DIAGONAL_MASKS[s], g::ANTI_DIAGONAL_MASKS[s]];
        s += 1;
    }
    out
};

/// Index of a rank or diagonal: files b-g of the line's occupancy.
#[inline(always)]
fn line_index(occupied: u64, line: u64) -> usize {
    ((occupied & line).wrapping_mul(g::KINDERGARTEN_B_FILE) >> 58) as usize
}

impl Slider for KindergartenSuperSissy {
    const NAME: &'static str = "kindergarten-super-sissy";
    const TABLE_BYTES: usize = size_of_val(&g::KGSSB) + size_of_val(&LINE_MASKS);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        let rank_index = ((o >> ((s & 56) | 1)) & 63) as usize;
        let on_a_file = (o >> (s & 7)) & A_FILE;
        let file_index = (on_a_file.wrapping_mul(g::KINDERGARTEN_C2H7) >> 58) as usize;
        let lines = &g::KGSSB[s];
        Bitboard(lines[RANK][rank_index] | lines[FILE][file_index])
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        let ([diagonal, anti_diagonal], lines) = (LINE_MASKS[s], &g::KGSSB[s]);
        Bitboard(
            lines[DIAGONAL][line_index(o, diagonal)]
                | lines[ANTI_DIAGONAL][line_index(o, anti_diagonal)],
        )
    }
}
