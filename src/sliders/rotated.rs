//! Rotated-bitboard lookups without rotated bitboards in `Position`.
//!
//! Classic rotated bitboards (Crafty, early 1990s) keep three extra copies
//! of the occupancy, turned by 90 and 45 degrees, so that every file and
//! diagonal is a contiguous run of bits that a shift turns into a table
//! index. Keeping those copies means changing `Position` and every make and
//! unmake; this backend computes them *when asked* instead, which is the
//! lookup half of the technique at its honest cost:
//!
//! * ranks: the occupancy's own byte indexes the shared rank table;
//! * files: the board transposed (three delta swaps) turns the file into a
//!   rank; its byte indexes an a-file table, shifted back to the file;
//! * diagonals: a pseudo-rotation by 45 degrees (file `f` rotated by `8f`
//!   bits, three masked rotations) puts each diagonal on one rank, sharing
//!   it with a wrapped piece of another diagonal. That piece lies beyond
//!   the diagonal's ends, so it cannot block anything on it: the rank
//!   lookup, copied onto every rank and masked with the diagonal, is right.
//!
//! What the lab measures, then, is what incremental rotated boards would
//! save: the transposes and rotations here are what make would pay for.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Rotated lookups on occupancies rotated per call (4 KiB of tables).
pub struct Rotated;

const A_FILE: u64 = 0x0101_0101_0101_0101;

/// Mirrors the board about the a1-h8 diagonal: square (file, rank) goes to
/// (rank, file). Three delta swaps exchange the off-diagonal 4x4, 2x2 and
/// 1x1 blocks.
#[inline(always)]
const fn transpose(mut x: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// Rotates file `f` down by `f` ranks (cyclically): (f, r) goes to
/// (f, (r - f) mod 8), so each a1-h8 diagonal lands on one rank.
#[inline(always)]
const fn rotate_files_down(mut x: u64) -> u64 {
    x ^= 0xAAAA_AAAA_AAAA_AAAA & (x ^ x.rotate_right(8));
    x ^= 0xCCCC_CCCC_CCCC_CCCC & (x ^ x.rotate_right(16));
    x ^= 0xF0F0_F0F0_F0F0_F0F0 & (x ^ x.rotate_right(32));
    x
}

/// Rotates file `f` up by `f` ranks: (f, r) goes to (f, (r + f) mod 8), so
/// each h1-a8 anti-diagonal lands on one rank.
#[inline(always)]
const fn rotate_files_up(mut x: u64) -> u64 {
    x ^= 0xAAAA_AAAA_AAAA_AAAA & (x ^ x.rotate_left(8));
    x ^= 0xCCCC_CCCC_CCCC_CCCC & (x ^ x.rotate_left(16));
    x ^= 0xF0F0_F0F0_F0F0_F0F0 & (x ^ x.rotate_left(32));
    x
}

/// The six inner squares of the rank `row` of `board`, as a table index.
#[inline(always)]
fn inner(board: u64, row: usize) -> usize {
    ((board >> (row * 8 + 1)) & 63) as usize
}

impl Slider for Rotated {
    const NAME: &'static str = "rotated";
    const TABLE_BYTES: usize = size_of_val(&g::RANK_ATTACKS)
        + size_of_val(&g::ROTATED_FILE_ATTACKS)
        + size_of_val(&g::DIAGONAL_MASKS)
        + size_of_val(&g::ANTI_DIAGONAL_MASKS);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        let (file, rank) = (s & 7, s >> 3);
        let on_rank = (g::RANK_ATTACKS[file][inner(occupied.0, rank)] as u64) << (rank * 8);
        let on_file = g::ROTATED_FILE_ATTACKS[rank][inner(transpose(occupied.0), file)] << file;
        Bitboard(on_rank | on_file)
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        let (file, rank) = (s & 7, s >> 3);
        let diagonal = rotate_files_down(occupied.0);
        let anti = rotate_files_up(occupied.0);
        let on_diagonal = g::RANK_ATTACKS[file][inner(diagonal, rank.wrapping_sub(file) & 7)];
        let on_anti = g::RANK_ATTACKS[file][inner(anti, (rank + file) & 7)];
        Bitboard(
            (on_diagonal as u64 * A_FILE) & g::DIAGONAL_MASKS[s]
                | (on_anti as u64 * A_FILE) & g::ANTI_DIAGONAL_MASKS[s],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_move_squares_where_their_docs_say() {
        for s in 0..64usize {
            let (f, r) = (s % 8, s / 8);
            let bit = 1u64 << s;
            assert_eq!(transpose(bit), 1 << (f * 8 + r), "transpose {s}");
            assert_eq!(
                rotate_files_down(bit),
                1 << (((r + 8 - f) % 8) * 8 + f),
                "down {s}"
            );
            assert_eq!(rotate_files_up(bit), 1 << (((r + f) % 8) * 8 + f), "up {s}");
        }
    }
}
