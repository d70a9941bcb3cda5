//! AVX2 branchless shifts: the slider's bit walks each ray one square per
//! step, four rays side by side in the lanes of one 256-bit register.
//!
//! Per lane the bit is cleared when it stands on a square it may not leave
//! in that lane's direction (a blocker, or the board edge it would cross),
//! then shifted one square on (`vpsllvq`/`vpsrlvq` with per-lane counts),
//! and every position it reaches is ORed into the attacks. Seven steps
//! cover the longest ray, always all seven: the published loop without its
//! stop condition, since testing for an early exit costs more than it saves.
//!
//! How it differs from `simd-fill`: that one is Kogge-Stone, three
//! doubling steps (1, 2, 4 squares) that grow a filled set while shrinking
//! the set of squares a fill may cross, with the wrap masks applied where
//! a step lands. This one moves a single bit one square at a time (seven
//! dependent steps, no propagator set), with stop masks tested on the
//! square the bit leaves: fewer instructions per step, more steps. A rook
//! or bishop has two rays up the board and two down, so each step is a
//! left and a right shift by per-lane counts (64 where the lane goes the
//! other way, which gives zero); a queen ([`Slider::queen`] is overridden)
//! takes the published layout: one register for the four rays up the
//! board, one for the four down, a single shift per register and step.
//!
//! Published by Daniel Infuehr (dangi12012) as "AVX Branchless Shift" in
//! Chess_Movegen (<https://github.com/Gigantua/Chess_Movegen>,
//! `AVXShift.hpp`; <http://www.talkchess.com/forum3/viewtopic.php?f=7&t=79005&start=60>),
//! a vectorised "no headaches" ray walk.
//!
//! Tables: none (the counts and masks are vector constants). Needs AVX2
//! (listed in `build.rs`): a target without it leaves this backend out of
//! `all-sliders`, and choosing it alone is a compile error.

use super::Slider;
use crate::types::{Bitboard, Square};
use core::arch::x86_64::{
    __m256i, _mm_cvtsi128_si64, _mm_extract_epi64, _mm_or_si128, _mm256_andnot_si256,
    _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_or_si256, _mm256_set_epi64x,
    _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_sllv_epi64, _mm256_srlv_epi64,
};

/// One square per step along four rays in one AVX2 register.
pub struct Avx2Shift;

const RANK_1: u64 = 0xFF;
const RANK_8: u64 = 0xFF << 56;
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// One ray: left and right shift counts (64 for "not this way") and the
/// edge squares the bit stops on.
type Ray = (i64, i64, u64);

/// North, east, south, west.
const ROOK: [Ray; 4] = [(8, 64, RANK_8), (1, 64, FILE_H), (64, 8, RANK_1), (64, 1, FILE_A)];
/// North-east, north-west, south-west, south-east.
const BISHOP: [Ray; 4] = [
    (9, 64, RANK_8 | FILE_H),
    (7, 64, RANK_8 | FILE_A),
    (64, 9, RANK_1 | FILE_A),
    (64, 7, RANK_1 | FILE_H),
];

/// ORs the four lanes together.
#[inline]
#[target_feature(enable = "avx2")]
fn or_lanes(v: __m256i) -> u64 {
    let pairs = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    (_mm_cvtsi128_si64(pairs) | _mm_extract_epi64::<1>(pairs)) as u64
}

/// Attacks of a slider on `square` along four rays, one per lane.
#[inline]
#[target_feature(enable = "avx2")]
fn four(square: usize, occupied: u64, rays: &[Ray; 4]) -> u64 {
    let [a, b, c, d] = rays.map(|r| r.0);
    let left = _mm256_set_epi64x(d, c, b, a);
    let [a, b, c, d] = rays.map(|r| r.1);
    let right = _mm256_set_epi64x(d, c, b, a);
    let [a, b, c, d] = rays.map(|r| r.2 as i64);
    let from = 1u64 << square;
    // The slider's own square never stops it.
    let blockers = _mm256_set1_epi64x((occupied & !from) as i64);
    let stop = _mm256_or_si256(blockers, _mm256_set_epi64x(d, c, b, a));
    let mut bit = _mm256_set1_epi64x(from as i64);
    let mut attacks = _mm256_setzero_si256();
    for _ in 0..7 {
        bit = _mm256_andnot_si256(stop, bit);
        bit = _mm256_or_si256(_mm256_sllv_epi64(bit, left), _mm256_srlv_epi64(bit, right));
        attacks = _mm256_or_si256(attacks, bit);
    }
    or_lanes(attacks)
}

/// Queen attacks: north, east, north-east, north-west by left shifts in
/// one register, their opposites by right shifts in another.
#[inline]
#[target_feature(enable = "avx2")]
fn eight(square: usize, occupied: u64) -> u64 {
    let shift = _mm256_set_epi64x(7, 9, 1, 8);
    let from = 1u64 << square;
    let blockers = _mm256_set1_epi64x((occupied & !from) as i64);
    let up_edges = [RANK_8 | FILE_A, RANK_8 | FILE_H, FILE_H, RANK_8].map(|m| m as i64);
    let down_edges = [RANK_1 | FILE_H, RANK_1 | FILE_A, FILE_A, RANK_1].map(|m| m as i64);
    let [a, b, c, d] = up_edges;
    let stop_up = _mm256_or_si256(blockers, _mm256_set_epi64x(a, b, c, d));
    let [a, b, c, d] = down_edges;
    let stop_down = _mm256_or_si256(blockers, _mm256_set_epi64x(a, b, c, d));
    let mut up = _mm256_set1_epi64x(from as i64);
    let mut down = up;
    let mut attacks = _mm256_setzero_si256();
    for _ in 0..7 {
        up = _mm256_sllv_epi64(_mm256_andnot_si256(stop_up, up), shift);
        down = _mm256_srlv_epi64(_mm256_andnot_si256(stop_down, down), shift);
        attacks = _mm256_or_si256(attacks, _mm256_or_si256(up, down));
    }
    or_lanes(attacks)
}

impl Slider for Avx2Shift {
    const NAME: &'static str = "avx2-shift";
    const TABLE_BYTES: usize = 0;

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        // SAFETY: this module is compiled only for targets with AVX2
        // (`build.rs` BACKENDS), so every CPU it runs on has it.
        Bitboard(unsafe { four(square.index(), occupied.0, &ROOK) })
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        // SAFETY: as for `rook`: compiled only for AVX2 targets.
        Bitboard(unsafe { four(square.index(), occupied.0, &BISHOP) })
    }

    #[inline]
    fn queen(square: Square, occupied: Bitboard) -> Bitboard {
        // SAFETY: as for `rook`: compiled only for AVX2 targets.
        Bitboard(unsafe { eight(square.index(), occupied.0) })
    }
}
