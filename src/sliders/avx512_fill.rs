//! Kogge-Stone occluded fills of a queen's eight directions at once, one
//! direction per 64-bit lane of a 512-bit register.
//!
//! Each direction's fill smears the slider's bit over empty squares in
//! steps of 1, 2 and 4 squares while the set of squares it may still cross
//! shrinks the same way; one more step lands on the first blocker. AVX-512
//! has a per-lane variable *rotate* (`vprolvq`): rotating left by `64 - k`
//! is a right shift by `k` whose spilled bits re-enter at the other end, so
//! every direction, up or down the board, is one left rotate by its own
//! count, and a per-lane mask of the squares a step may land on (e.g. not
//! rank 1 going north, not the a-file or rank 1 going north-east) discards
//! both the file wrap and the rotated-in bits. That is one instruction per
//! step where AVX2's `simd-fill` needs `vpsllvq`, `vpsrlvq` and an OR (it
//! has no variable rotate), and twice the lanes: a queen's eight
//! directions in one register ([`Slider::queen`] is overridden to do so),
//! a rook's or bishop's four in a 256-bit register (AVX-512VL).
//!
//! Kogge-Stone is Peter M. Kogge's and Harold S. Stone's parallel-prefix
//! scheme (1973); occluded fills with rotates and wrap masks in all eight
//! directions ("generalized rays") are on the chessprogramming wiki
//! (<https://www.chessprogramming.org/Kogge-Stone_Algorithm>), and
//! `vprolvq` for them on its AVX-512 page
//! (<https://www.chessprogramming.org/AVX-512>).
//!
//! Tables: none (the counts and masks are vector constants). Needs
//! AVX-512F and AVX-512VL (listed in `build.rs`): a target without them
//! leaves this backend out of `all-sliders`, and choosing it alone is a
//! compile error; `kogge-stone` is the portable scalar form.

use super::Slider;
use crate::types::{Bitboard, Square};
use core::arch::x86_64::{
    __m256i, __m512i, _mm_cvtsi128_si64, _mm_extract_epi64, _mm_or_si128, _mm256_and_si256,
    _mm256_andnot_si256, _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_or_si256,
    _mm256_rolv_epi64, _mm256_set_epi64x, _mm256_set1_epi64x, _mm512_and_si512,
    _mm512_andnot_si512, _mm512_or_si512, _mm512_reduce_or_epi64, _mm512_rolv_epi64,
    _mm512_set_epi64, _mm512_set1_epi64,
};

/// Kogge-Stone with AVX-512 rotates: four directions per rook or bishop,
/// eight per queen.
pub struct Avx512Fill;

const RANK_1: u64 = 0xFF;
const RANK_8: u64 = 0xFF << 56;
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// One direction: its left-rotate count (`64 - k` for a step of `-k`
/// squares) and the squares a step in it may land on.
type Direction = (i64, u64);

/// North, east, south, west.
const ROOK: [Direction; 4] = [(8, !RANK_1), (1, !FILE_A), (56, !RANK_8), (63, !FILE_H)];
/// North-east, north-west, south-west, south-east.
const BISHOP: [Direction; 4] = [
    (9, !(RANK_1 | FILE_A)),
    (7, !(RANK_1 | FILE_H)),
    (55, !(RANK_8 | FILE_H)),
    (57, !(RANK_8 | FILE_A)),
];

/// The slider `from`'s attacks in four directions, one per lane.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn four(from: u64, occupied: u64, dirs: &[Direction; 4]) -> u64 {
    let [a, b, c, d] = dirs.map(|(_, wrap)| wrap as i64);
    let land = _mm256_set_epi64x(d, c, b, a);
    let [a, b, c, d] = dirs.map(|(count, _)| count);
    // Counts are taken mod 64, so doubling needs no wrap-around fix.
    let (one, two, four) = (
        _mm256_set_epi64x(d, c, b, a),
        _mm256_set_epi64x(2 * d, 2 * c, 2 * b, 2 * a),
        _mm256_set_epi64x(4 * d, 4 * c, 4 * b, 4 * a),
    );
    let mut fill = _mm256_set1_epi64x(from as i64);
    let mut open = _mm256_andnot_si256(_mm256_set1_epi64x(occupied as i64), land);
    fill = _mm256_or_si256(fill, _mm256_and_si256(open, _mm256_rolv_epi64(fill, one)));
    open = _mm256_and_si256(open, _mm256_rolv_epi64(open, one));
    fill = _mm256_or_si256(fill, _mm256_and_si256(open, _mm256_rolv_epi64(fill, two)));
    open = _mm256_and_si256(open, _mm256_rolv_epi64(open, two));
    fill = _mm256_or_si256(fill, _mm256_and_si256(open, _mm256_rolv_epi64(fill, four)));
    let attacks: __m256i = _mm256_and_si256(_mm256_rolv_epi64(fill, one), land);
    let pairs = _mm_or_si128(
        _mm256_castsi256_si128(attacks),
        _mm256_extracti128_si256::<1>(attacks),
    );
    (_mm_cvtsi128_si64(pairs) | _mm_extract_epi64::<1>(pairs)) as u64
}

/// The slider `from`'s attacks in all eight directions, one per lane.
#[inline]
#[target_feature(enable = "avx512f")]
fn eight(from: u64, occupied: u64) -> u64 {
    let [(a, e), (b, f), (c, g), (d, h)] = ROOK;
    let [(i, m), (j, n), (k, o), (l, p)] = BISHOP;
    let land = [e, f, g, h, m, n, o, p].map(|w| w as i64);
    let land = _mm512_set_epi64(
        land[7], land[6], land[5], land[4], land[3], land[2], land[1], land[0],
    );
    let step = |n: i64| _mm512_set_epi64(n * l, n * k, n * j, n * i, n * d, n * c, n * b, n * a);
    let (one, two, four) = (step(1), step(2), step(4));
    let mut fill = _mm512_set1_epi64(from as i64);
    let mut open = _mm512_andnot_si512(_mm512_set1_epi64(occupied as i64), land);
    fill = _mm512_or_si512(fill, _mm512_and_si512(open, _mm512_rolv_epi64(fill, one)));
    open = _mm512_and_si512(open, _mm512_rolv_epi64(open, one));
    fill = _mm512_or_si512(fill, _mm512_and_si512(open, _mm512_rolv_epi64(fill, two)));
    open = _mm512_and_si512(open, _mm512_rolv_epi64(open, two));
    fill = _mm512_or_si512(fill, _mm512_and_si512(open, _mm512_rolv_epi64(fill, four)));
    let attacks: __m512i = _mm512_and_si512(_mm512_rolv_epi64(fill, one), land);
    _mm512_reduce_or_epi64(attacks) as u64
}

impl Slider for Avx512Fill {
    const NAME: &'static str = "avx512-fill";
    const TABLE_BYTES: usize = 0;

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        // SAFETY: this module is compiled only for targets with AVX-512F
        // and AVX-512VL (`build.rs` BACKENDS), so every CPU it runs on
        // has them.
        Bitboard(unsafe { four(1 << square.index(), occupied.0, &ROOK) })
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        // SAFETY: as for `rook`: compiled only for AVX-512F/VL targets.
        Bitboard(unsafe { four(1 << square.index(), occupied.0, &BISHOP) })
    }

    #[inline]
    fn queen(square: Square, occupied: Bitboard) -> Bitboard {
        // SAFETY: as for `rook`: compiled only for AVX-512F/VL targets.
        Bitboard(unsafe { eight(1 << square.index(), occupied.0) })
    }
}
