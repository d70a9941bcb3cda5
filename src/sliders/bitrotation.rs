//! Bit rotation: `o - r` on a line for the attacks above the slider, and
//! the same subtraction on the bit-reversed board for those below, with no
//! table at all: every line mask is computed from the square.
//!
//! Sources: "Subtracting a Rook from a Blocking Piece" (Gerd Isenberg and
//! Aleks Peshkov, 2007, chessprogramming wiki,
//! <https://www.chessprogramming.org/Subtracting_a_Rook_from_a_Blocking_Piece>),
//! the reversed-board form with a bit-reverse instruction and computed
//! masks by Daniel Infuehr (talkchess 2022,
//! <http://www.talkchess.com/forum3/viewtopic.php?f=7&t=79078>;
//! `Bitrotation.hpp` in Gigantua's Chess_Movegen), who found it the
//! fastest approach on CUDA, which has a bit-reverse instruction.
//!
//! With `o` the line's occupancy (the slider not in it) and `r` the
//! slider's bit, `o - r` borrows from the slider up to the first blocker
//! above: it sets the squares from the slider up to below that blocker and
//! clears the blocker. Reversing the board makes "below" into "above", so
//! `rev(rev(o) - rev(r))` does the same downwards. Outside both stretches
//! the two results equal `o`; the slider is set in both; so their XOR is
//! exactly the attack set plus squares off the line, which the mask trims.
//! No `^ o` is needed, and unlike `hq` ranks work like any other line.
//!
//! Apart from `hq-bitrev` (the same subtraction with `2r`), the masks are
//! not looked up: a rank and a file are shifts of a constant, a diagonal
//! the main diagonal shifted by whole ranks (one of the two shifts is
//! zero).
//!
//! Tables: none. Instructions: none required. `u64::reverse_bits` is a
//! GFNI `vgf2p8affineqb` plus a byte swap where the target has GFNI (LLVM
//! picks it; e.g. Ice Lake, Zen 4), and a byte swap plus three masked
//! swaps elsewhere (ARM has `rbit`).

use super::Slider;
use crate::types::{Bitboard, Square};

/// `(o - r) ^ rev(rev(o) - rev(r))` on computed lines (no tables).
pub struct Bitrotation;

const RANK_1: u64 = 0xFF;
const A_FILE: u64 = 0x0101_0101_0101_0101;
/// a1-h8.
const DIAGONAL: u64 = 0x8040_2010_0804_0201;
/// h1-a8.
const ANTI_DIAGONAL: u64 = 0x0102_0408_1020_4080;

/// `line` moved by `ranks` whole ranks up (down when negative).
#[inline(always)]
fn shift_ranks(line: u64, ranks: i32) -> u64 {
    let up = 8 * ranks.max(0) as u32;
    let down = 8 * (-ranks).max(0) as u32;
    (line << up) >> down
}

/// Attacks along `line` (through the slider `bit`, without it).
#[inline(always)]
fn line(occupied: u64, line: u64, bit: u64, reversed_bit: u64) -> u64 {
    let o = occupied & line;
    let above = o.wrapping_sub(bit);
    let below = o.reverse_bits().wrapping_sub(reversed_bit).reverse_bits();
    (above ^ below) & line
}

impl Slider for Bitrotation {
    const NAME: &'static str = "bitrotation";
    const TABLE_BYTES: usize = 0;

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        let (bit, reversed_bit) = (1u64 << s, 1u64 << (63 - s));
        let rank = (RANK_1 << (s & 56)) ^ bit;
        let file = (A_FILE << (s & 7)) ^ bit;
        let o = occupied.0;
        Bitboard(line(o, rank, bit, reversed_bit) | line(o, file, bit, reversed_bit))
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        let (bit, reversed_bit) = (1u64 << s, 1u64 << (63 - s));
        let (file, rank) = ((s & 7) as i32, (s >> 3) as i32);
        let diagonal = shift_ranks(DIAGONAL, rank - file) ^ bit;
        let anti_diagonal = shift_ranks(ANTI_DIAGONAL, rank + file - 7) ^ bit;
        let o = occupied.0;
        Bitboard(line(o, diagonal, bit, reversed_bit) | line(o, anti_diagonal, bit, reversed_bit))
    }
}
