//! Exploding bitboards (Harald Lüßen's technique, WinBoard forum 2006,
//! <http://www.open-aurec.com/wbforum/viewtopic.php?f=4&t=4523&start=80>;
//! chessprogramming wiki "Exploding Bitboards"): the attack set grows ring
//! by ring from the slider, and one multiplication moves every square of
//! the current ring one step in all four directions at once.
//!
//! The ring at distance `k` holds at most one square per ray. Multiplying
//! it by a pattern of four bits copies each square to `+-1, +-8` (rook) or
//! `+-7, +-9` (bishop): the next ring, plus backward steps and wraps
//! across the board's edge. Masking with the lines through the slider and
//! dropping squares already attacked leaves exactly the next ring; its
//! empty squares explode again. Nothing carries between the copies once
//! `k >= 2` (two copies meet only when `2k`, `7k` or `9k` equals an offset
//! difference), so the only delicate step is the first, from ring 1 to
//! ring 2: there the backward copies all land on the slider's square, and
//! a file neighbour of an edge-file rook wraps onto the far end of the
//! rank. That step explodes each of the two lines on its own, masked with
//! that line. The product is taken in 128 bits (one `mul`), so copies
//! below square 0 or above square 63 are exact rather than lost or
//! wrapped. Six explosions always reach the board's edge: branchless, in
//! contrast to the original's per-square step counts.
//!
//! Tables: the first ring per square (1 KiB) and the four line masks
//! (2 KiB), 3 KiB in all: L1d. Instructions: a 64x64->128-bit multiply,
//! which every x86-64 and AArch64 has; no target feature.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Exploding bitboards (3 KiB of tables).
pub struct Exploding;

/// Copies of each square at `-8, -1, +1, +8`: bits 0, 7, 9, 16 of the
/// pattern, and the product is shifted back down by 8.
const ROOK_PATTERN: u64 = 1 | 1 << 7 | 1 << 9 | 1 << 16;
/// Copies at `-9, -7, +7, +9`: bits 0, 2, 16, 18, shifted back down by 9.
const BISHOP_PATTERN: u64 = 1 | 1 << 2 | 1 << 16 | 1 << 18;

/// Every square of `ring` moved by each of the pattern's four offsets.
#[inline(always)]
fn explode(ring: u64, pattern: u64, down: u32) -> u64 {
    ((u128::from(ring) * u128::from(pattern)) >> down) as u64
}

/// Attacks along two lines `a` and `b` through the slider, from its first
/// ring on them.
#[inline(always)]
fn attacks(first_ring: u64, a: u64, b: u64, occupied: u64, pattern: u64, down: u32) -> u64 {
    let empty = !occupied;
    let mut attacked = first_ring;
    let ring = first_ring & empty;
    // Ring 1 to ring 2, one line at a time (see the module docs).
    let mut next = (explode(ring & a, pattern, down) & a) | (explode(ring & b, pattern, down) & b);
    next &= !attacked;
    attacked |= next;
    let lines = a | b;
    let mut ring = next & empty;
    // Rings 3 to 7: all four rays in one multiplication.
    for _ in 0..5 {
        next = explode(ring, pattern, down) & lines & !attacked;
        attacked |= next;
        ring = next & empty;
    }
    attacked
}

impl Slider for Exploding {
    const NAME: &'static str = "exploding";
    const TABLE_BYTES: usize = size_of_val(&g::EXPLODING_ROOK_RING)
        + size_of_val(&g::EXPLODING_BISHOP_RING)
        + size_of_val(&g::RANK_MASKS)
        + size_of_val(&g::FILE_MASKS)
        + size_of_val(&g::DIAGONAL_MASKS)
        + size_of_val(&g::ANTI_DIAGONAL_MASKS);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        Bitboard(attacks(
            g::EXPLODING_ROOK_RING[s],
            g::RANK_MASKS[s],
            g::FILE_MASKS[s],
            occupied.0,
            ROOK_PATTERN,
            8,
        ))
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        Bitboard(attacks(
            g::EXPLODING_BISHOP_RING[s],
            g::DIAGONAL_MASKS[s],
            g::ANTI_DIAGONAL_MASKS[s],
            occupied.0,
            BISHOP_PATTERN,
            9,
        ))
    }
}
