//! Folding hash (Daniel Inführ, 2022; published in Gigantua's
//! Chess_Movegen comparison, <https://github.com/Gigantua/Chess_Movegen>,
//! as "FoldingHash - 4x fancy magic"): one small hash per line instead of
//! one magic per square. A rook reads its rank and its file, a bishop its
//! two diagonals, each with its own relevant mask (at most six squares),
//! 32-bit multiplier and offset.
//!
//! The line's occupancy is folded into 32 bits, the low half XOR the high
//! half rotated by one, which keeps every line's squares apart (a file's
//! halves land on opposite parities; a diagonal would need `9k` or `7k` to
//! equal 31). A 32-bit multiply then moves six index bits to the top, like
//! a magic on half the width: 32-bit multiplies are cheaper on narrow
//! machines, and six index bits per line keep each block at 64 slots.
//! The blocks, holding only attacks along their line, overlap in one
//! packed table. `codegen` searches the multipliers from a fixed seed and
//! packs the blocks at build time, placing (so checking) every occupancy
//! of every line (`codegen/src/folding.rs`).
//!
//! Tables: 8,182 line-attack entries (64 KiB) and 4 KiB of masks,
//! multipliers and offsets: L2 (the 64 KiB overflow a 32-48 KiB L1d; the
//! original's CUDA-searched set packs into 46.5 KiB). Instructions: none
//! special.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Folding hash: a folded 32-bit hash per line, four lines per square.
pub struct FoldingHash;

/// Attacks along line `line` (0 rank, 1 file, 2 diagonal, 3 anti-diagonal)
/// of a slider on `square`.
#[inline(always)]
fn line_attacks(square: usize, line: usize, occupied: u64) -> u64 {
    let [mask, word] = g::FOLDING_LINES[square][line];
    let on_line = occupied & mask;
    let folded = (on_line as u32) ^ ((on_line >> 32) as u32).rotate_left(1);
    let index = (folded.wrapping_mul(word as u32) >> 26) as usize;
    g::FOLDING_ATTACKS[(word >> 32) as usize + index]
}

impl Slider for FoldingHash {
    const NAME: &'static str = "folding-hash";
    const TABLE_BYTES: usize = size_of_val(&g::FOLDING_ATTACKS) + size_of_val(&g::FOLDING_LINES);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        Bitboard(line_attacks(s, 0, o) | line_attacks(s, 1, o))
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        Bitboard(line_attacks(s, 2, o) | line_attacks(s, 3, o))
    }
}
