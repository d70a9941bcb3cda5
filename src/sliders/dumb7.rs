//! Dumb7fill: the naive fill, one square per step. The slider's bit is
//! shifted six times over the empty squares, collecting every square it
//! reaches, and once more onto the blocker. No tables, fewer instructions
//! per step than Kogge-Stone but twice the steps, each depending on the
//! last: the lab's measure of how much a serial dependency chain costs.
//!
//! Why its batch rate trails the reference's (the atlas's gap list, AMD
//! Zen 5: 0.47x in batch, 2.56x grouped): built as its Makefile builds
//! it, the reference's clang runs one lookup's eight directions as the
//! eight lanes of one 512-bit register (`objdump -d` of the driver
//! `tools/cmg-instructions.cpp` built with `-march=native`: `vpternlogq`,
//! `vpsllvq`, no scalar shifts): the idea of Quince's `avx512_fill.rs`
//! (with Kogge-Stone's steps in the same eight lanes), measured on its own
//! row. This file stays the scalar fill it is named for.

use super::Slider;
use super::shifts::{BISHOP_STEPS, ROOK_STEPS, shift};
use crate::types::{Bitboard, Square};

/// Dumb7fill in eight directions (no tables).
pub struct Dumb7;

/// Attacks of the slider `from` in the direction of `step`; `wrap` as in
/// Kogge-Stone.
#[inline(always)]
fn attacks(from: u64, empty: u64, step: i32, wrap: u64) -> u64 {
    let open = empty & wrap;
    let mut front = from;
    let mut fill = from;
    // Six steps reach the far edge (seven squares away) through empty
    // squares; the final shift below covers the seventh.
    for _ in 0..6 {
        front = shift(front, step) & open;
        fill |= front;
    }
    shift(fill, step) & wrap
}

impl Slider for Dumb7 {
    const NAME: &'static str = "dumb7";
    const TABLE_BYTES: usize = 0;

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let (from, empty) = (1u64 << square.index(), !occupied.0);
        Bitboard(ROOK_STEPS.iter().fold(0, |acc, &(step, wrap)| {
            acc | attacks(from, empty, step, wrap)
        }))
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let (from, empty) = (1u64 << square.index(), !occupied.0);
        Bitboard(BISHOP_STEPS.iter().fold(0, |acc, &(step, wrap)| {
            acc | attacks(from, empty, step, wrap)
        }))
    }
}
