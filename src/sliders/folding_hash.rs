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
//! Tables: 8,229 line-attack entries (64 KiB) and 4 KiB of masks,
//! multipliers and offsets: L2 (the 64 KiB overflow a 32-48 KiB L1d; the
//! original's CUDA-searched set packs into 46.5 KiB). Instructions: none
//! special.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Folding hash: a folded 32-bit hash per line, four lines per square.
pub struct FoldingHash;

/// One line's hash: its relevant mask, 32-bit multiplier and block
/// offset, 16 bytes; a square's four lines fill one cache line.
///
/// Why a struct over the generated `[mask, offset << 32 | multiplier]`
/// pairs, and an unchecked read (callgrind, instructions per grouped
/// queen lookup, x86-64-v3; the reference comparison's folding hash takes
/// 49.5): with the packed word a line spent a register move and a shift
/// to split it, and a compare and a branch on the index: 68.5 in all,
/// 51.4 after.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Line {
    mask: u64,
    multiplier: u32,
    offset: u32,
}

/// Every square's four lines, from the generated pairs at compile time.
static LINES: [[Line; 4]; 64] = {
    let mut out = [[Line {
        mask: 0,
        multiplier: 0,
        offset: 0,
    }; 4]; 64];
    let mut square = 0;
    while square < 64 {
        let mut line = 0;
        while line < 4 {
            let [mask, word] = g::FOLDING_LINES[square][line];
            let offset = (word >> 32) as u32;
            // Every index is below 64 (a 32-bit product shifted right by
            // 26), so a block that ends inside the table keeps [`line_attacks`]'
            // unchecked read inside it.
            assert!(offset as usize + 64 <= g::FOLDING_ATTACKS.len());
            out[square][line] = Line {
                mask,
                multiplier: word as u32,
                offset,
            };
            line += 1;
        }
        square += 1;
    }
    out
};

/// Attacks along line `line` (0 rank, 1 file, 2 diagonal, 3 anti-diagonal)
/// of a slider on `square`.
#[inline(always)]
fn line_attacks(square: usize, line: usize, occupied: u64) -> u64 {
    let l = &LINES[square][line];
    let on_line = occupied & l.mask;
    let folded = (on_line as u32) ^ ((on_line >> 32) as u32).rotate_left(1);
    let index = (folded.wrapping_mul(l.multiplier) >> 26) as usize;
    // SAFETY: `index < 64`, and the build checked (in [`LINES`]) that
    // every block's 64 slots lie inside the table. Skipping the bounds
    // check saves a compare and a branch per line, four per queen.
    unsafe { *g::FOLDING_ATTACKS.get_unchecked(l.offset as usize + index) }
}

impl Slider for FoldingHash {
    const NAME: &'static str = "folding-hash";
    const TABLE_BYTES: usize = size_of_val(&g::FOLDING_ATTACKS) + size_of_val(&LINES);

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
