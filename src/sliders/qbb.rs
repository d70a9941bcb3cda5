//! QBBEngine's sliding attacks, by Fabio Gobbato (QBBEngine, the
//! quad-bitboard engine; chessprogramming wiki "QBBEngine",
//! <https://www.chessprogramming.org/QBBEngine>). No tables at all: every
//! mask is a constant shifted by the square.
//!
//! A line's squares in index order form an arithmetic progression (step
//! 8 for a file, 1 for a rank, 9 for a diagonal, 7 for an anti-diagonal).
//! A constant holding that progression from bit 0 (or up to bit 63),
//! shifted left by the square (right by `63 - square`), holds the squares
//! from the slider upwards (downwards) in steps of the line, running off
//! the board's edge and wrapping onto other files. ORing the board's edge
//! squares that end this line into the occupancy makes the first hit each
//! way either the first blocker or the line's last square, before any
//! wrap: a trailing-zero count finds it above, a leading-zero count below.
//! The same progression constant, shifted to run down from the upper hit
//! and up from the lower hit, intersects in exactly the squares between
//! the two, both included, the slider among them. The two lines of a
//! piece are ORed and the slider removed with one XOR.
//!
//! Tables: none. Instructions: none required (`trailing_zeros` and
//! `leading_zeros` become TZCNT/LZCNT where available, BSF/BSR otherwise).

use super::Slider;
use crate::types::{Bitboard, Square};

/// QBBEngine: sentinel-bounded bit scans on shifted constants (no tables).
pub struct Qbb;

const A_FILE: u64 = 0x0101_0101_0101_0101;
const H_FILE: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0x0000_0000_0000_00FF;
const RANK_8: u64 = 0xFF00_0000_0000_0000;
/// Bits 0, 9, ..., 63: the a1-h8 diagonal, from bit 0 and up to bit 63.
const STEP_9: u64 = 0x8040_2010_0804_0201;
/// Bits 0, 7, ..., 63: the h1-a8 anti-diagonal plus both corners.
const STEP_7: u64 = 0x8102_0408_1020_4081;

/// The stretch of one line through `square` between its first blockers,
/// both included, and the slider too. `from_bottom` is the line's
/// progression starting at bit 0, `from_top` the same one ending at bit
/// 63; `top_edge` and `bottom_edge` the edge squares that end the line
/// going up and going down.
#[inline(always)]
fn stretch(square: u32, others: u64, from_bottom: u64, from_top: u64, edges: (u64, u64)) -> u64 {
    let (top_edge, bottom_edge) = edges;
    let upwards = (from_bottom << square) & (others | top_edge);
    let downwards = (from_top >> (63 - square)) & (others | bottom_edge);
    let first_above = upwards.trailing_zeros();
    let first_below = 63 - downwards.leading_zeros();
    (from_top >> (63 - first_above)) & (from_bottom << first_below)
}

impl Slider for Qbb {
    const NAME: &'static str = "qbb";
    const TABLE_BYTES: usize = 0;

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index() as u32;
        let piece = 1u64 << s;
        let others = occupied.0 & !piece;
        let file = stretch(s, others, A_FILE, H_FILE, (RANK_8, RANK_1));
        let rank = stretch(s, others, RANK_1, RANK_8, (H_FILE, A_FILE));
        Bitboard((file | rank) ^ piece)
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index() as u32;
        let piece = 1u64 << s;
        let others = occupied.0 & !piece;
        let diagonal = stretch(s, others, STEP_9, STEP_9, (RANK_8 | H_FILE, RANK_1 | A_FILE));
        let anti = stretch(s, others, STEP_7, STEP_7, (RANK_8 | A_FILE, RANK_1 | H_FILE));
        Bitboard((diagonal | anti) ^ piece)
    }
}
