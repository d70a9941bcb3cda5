//! Hyperbola quintessence: for a slider on square `s` and a line mask `m`
//! (the line through `s`, without `s`), the blockers are `o = occupied & m`.
//! `o - 2s` borrows through the empty squares above `s` up to and including
//! the first blocker, so `(o - 2s) ^ o`, masked, gives the attacks towards
//! higher squares. Byte-swapping reverses square order on files and
//! diagonals (each has one square per rank), so the same subtraction on the
//! swapped board gives the other direction. A rank has all its squares in
//! one byte, which a byte swap cannot reverse: ranks use a 8x64 lookup.
//!
//! A bishop runs the same steps on its two diagonals. On x86-64 with SSSE3
//! (every `x86-64-v2` CPU, the crate's default target) the two diagonals go
//! through them side by side in the two 64-bit lanes of one SSE register,
//! `pshufb` doing both byte swaps at once: eleven vector instructions and
//! the table offset per bishop, so bulk perft runs fewer instructions per
//! node wherever bishops or queens are on the board
//! (`reports/archive/speed-2026-11-23-day.md`).
//! Elsewhere the scalar version runs twice.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Hyperbola quintessence (no large tables: four masks and a 512-byte rank lookup).
pub struct Hq;

/// Attacks of a slider on `square` along the line `mask` (files and diagonals).
#[inline]
fn line_attacks(square: Square, occupied: u64, mask: u64) -> u64 {
    let bit = 1u64 << square.index();
    // The byte-swapped square: same file, mirrored rank (index ^ 56), one
    // shift rather than a swap of `bit`.
    let swapped_bit = 1u64 << (square.index() ^ 56);
    let o = occupied & mask;
    let forward = o.wrapping_sub(bit.wrapping_mul(2));
    let reverse = o
        .swap_bytes()
        .wrapping_sub(swapped_bit.wrapping_mul(2))
        .swap_bytes();
    (forward ^ reverse) & mask
}

/// Attacks along the rank of `square`, by lookup on the six inner squares.
#[inline]
fn rank_attacks(square: Square, occupied: u64) -> u64 {
    let shift = square.rank().index() * 8;
    let inner = (occupied >> (shift + 1)) & 63;
    (g::RANK_ATTACKS[square.file().index()][inner as usize] as u64) << shift
}

/// Both diagonals, one after the other: the portable bishop, and the
/// reference the SIMD one is tested against.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "ssse3"))))]
#[inline]
fn bishop_scalar(square: Square, occupied: u64) -> u64 {
    let i = square.index();
    line_attacks(square, occupied, g::DIAGONAL_MASKS[i])
        | line_attacks(square, occupied, g::ANTI_DIAGONAL_MASKS[i])
}

#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
mod simd {
    //! The two diagonals in the two lanes of an SSE register.

    use crate::tables::generated as g;
    use crate::types::Square;
    use core::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cvtsi128_si64, _mm_or_si128, _mm_set_epi8, _mm_set_epi64x,
        _mm_set1_epi64x, _mm_shuffle_epi8, _mm_sub_epi64, _mm_unpackhi_epi64, _mm_xor_si128,
    };

    /// What one square needs, lane 0 the diagonal, lane 1 the
    /// anti-diagonal: the line masks, `2s` and `2s` byte-swapped. Aligned
    /// to a cache line: each pair loads in one instruction (or folds into
    /// the instruction that uses it), and the square's offset is one shift.
    #[repr(C, align(64))]
    pub(super) struct Lanes {
        masks: [u64; 2],
        twice_bit: [u64; 2],
        twice_swapped_bit: [u64; 2],
    }

    /// Derived at compile time from the generated masks.
    pub(super) static LANES: [Lanes; 64] = {
        let mut table = [const {
            Lanes {
                masks: [0; 2],
                twice_bit: [0; 2],
                twice_swapped_bit: [0; 2],
            }
        }; 64];
        let mut i = 0;
        while i < 64 {
            let twice = (1u64 << i).wrapping_mul(2);
            let twice_swapped = (1u64 << (i ^ 56)).wrapping_mul(2);
            table[i] = Lanes {
                masks: [g::DIAGONAL_MASKS[i], g::ANTI_DIAGONAL_MASKS[i]],
                twice_bit: [twice; 2],
                twice_swapped_bit: [twice_swapped; 2],
            };
            i += 1;
        }
        table
    };

    #[inline]
    #[target_feature(enable = "ssse3")]
    fn load(pair: &[u64; 2]) -> __m128i {
        // Two adjacent aligned words: the compiler emits one 16-byte load.
        _mm_set_epi64x(pair[1] as i64, pair[0] as i64)
    }

    /// Bishop attacks: hyperbola quintessence on both diagonals at once.
    #[inline]
    #[target_feature(enable = "ssse3")]
    pub(super) fn bishop(square: Square, occupied: u64) -> u64 {
        let lanes = &LANES[square.index()];
        // Reverses the bytes within each 64-bit lane.
        let swap = _mm_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
        let masks = load(&lanes.masks);
        let o = _mm_and_si128(_mm_set1_epi64x(occupied as i64), masks);
        let forward = _mm_sub_epi64(o, load(&lanes.twice_bit));
        let reverse = _mm_shuffle_epi8(
            _mm_sub_epi64(_mm_shuffle_epi8(o, swap), load(&lanes.twice_swapped_bit)),
            swap,
        );
        let both = _mm_and_si128(_mm_xor_si128(forward, reverse), masks);
        _mm_cvtsi128_si64(_mm_or_si128(both, _mm_unpackhi_epi64(both, both))) as u64
    }
}

/// The bishop's data: the SIMD lane table, or the two diagonal masks.
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
const HQ_BISHOP_BYTES: usize = size_of_val(&simd::LANES);
#[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
const HQ_BISHOP_BYTES: usize =
    size_of_val(&g::DIAGONAL_MASKS) + size_of_val(&g::ANTI_DIAGONAL_MASKS);

impl Slider for Hq {
    const NAME: &'static str = "hq";
    const TABLE_BYTES: usize =
        size_of_val(&g::FILE_MASKS) + size_of_val(&g::RANK_ATTACKS) + HQ_BISHOP_BYTES;

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let file = line_attacks(square, occupied.0, g::FILE_MASKS[square.index()]);
        Bitboard(file | rank_attacks(square, occupied.0))
    }

    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        // SAFETY: `simd::bishop` needs SSSE3, and this version is compiled
        // only when the build's target has it (the `cfg` above), so every CPU
        // the binary runs on executes it.
        Bitboard(unsafe { simd::bishop(square, occupied.0) })
    }

    #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        Bitboard(bishop_scalar(square, occupied.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whichever bishop is compiled agrees with the portable one (the
    /// ray-walker test in `sliders` checks the compiled one against an
    /// independent reference; this one keeps the other path tested too).
    #[test]
    fn bishop_matches_scalar() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..4000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            for square in Square::all() {
                for occ in [state, state & state.rotate_left(17), 0, !0] {
                    assert_eq!(
                        Hq::bishop(square, Bitboard(occ)).0,
                        bishop_scalar(square, occ),
                        "{square} {occ:#x}"
                    );
                }
            }
        }
    }
}
