//! Galois-field affine bit reversal: hyperbola quintessence on several
//! lines at once in vector registers.
//!
//! Hyperbola quintessence finds a line's attacks above the slider with
//! `o - s` (`o` the line's occupancy, `s` the slider's bit: the borrow runs
//! up to the first blocker) and below it with the same subtraction on the
//! bit-reversed board. x86 has no 64-bit bit reversal, but GFNI's
//! `gf2p8affineqb` multiplies every byte by an 8x8 bit matrix, and the
//! anti-diagonal matrix `0x8040201008040201` reverses the bits of each
//! byte; a byte shuffle (`pshufb`) then reverses the bytes of each 64-bit
//! lane. Both take a per-lane operand, so one register holds the lines
//! twice: forward in the low half (identity matrix and shuffle), reversed
//! in the high half. One reversal, one subtraction and one reversal back
//! serve both directions of every line; XORing the halves cancels what the
//! two subtractions left unchanged (the occupancy, and the slider's bit),
//! leaving the attacks. The line masks trim what ran past an edge.
//!
//! A rook or bishop is two lines, so four lanes (a 256-bit register); a
//! queen's four lines fill all eight lanes of a 512-bit register
//! ([`Slider::queen`] is overridden to do so). Published by Daniel Infuehr
//! (dangi12012) as "GaloisField - AVX512" in Chess_Movegen
//! (<https://github.com/Gigantua/Chess_Movegen>, `GaloisField.hpp`;
//! <http://www.talkchess.com/forum3/viewtopic.php?f=7&t=81335>).
//!
//! Tables: `GALOIS_LINES`, the four line masks per square (2 KiB, L1d).
//! Needs AVX2, AVX-512F, AVX-512BW and GFNI (listed in `build.rs`): a
//! target without them leaves this backend out of `all-sliders`, and
//! choosing it alone is a compile error.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::arch::x86_64::{
    __m256i, __m512i, _mm_cvtsi128_si64, _mm_extract_epi64, _mm_or_si128, _mm_xor_si128,
    _mm256_and_si256, _mm256_castsi256_si128, _mm256_extracti128_si256,
    _mm256_gf2p8affine_epi64_epi8, _mm256_set_epi8, _mm256_set_epi64x, _mm256_set1_epi64x,
    _mm256_shuffle_epi8, _mm256_sub_epi64, _mm256_xor_si256, _mm512_and_si512, _mm512_castsi512_si256,
    _mm512_extracti64x4_epi64, _mm512_gf2p8affine_epi64_epi8, _mm512_set_epi64,
    _mm512_set1_epi64, _mm512_shuffle_epi8, _mm512_sub_epi64,
};
use core::mem::size_of_val;

/// Hyperbola quintessence with GFNI bit reversal, lines side by side.
pub struct GaloisField;

/// The bit matrix that reverses the bits of a byte.
const REVERSE_BITS: i64 = 0x8040_2010_0804_0201_u64 as i64;
/// The identity bit matrix (leaves a byte as it is).
const KEEP_BITS: i64 = 0x0102_0408_1020_4080;
/// `pshufb` indices (per 128-bit lane) that reverse the bytes of each
/// 64-bit half, and that keep them.
const REVERSE_BYTES: (i64, i64) = (0x0001_0203_0405_0607, 0x0809_0A0B_0C0D_0E0F);
const KEEP_BYTES: (i64, i64) = (0x0F0E_0D0C_0B0A_0908, 0x0706_0504_0302_0100);

/// Reverses the bit order of the high two lanes, keeps the low two.
#[inline]
#[target_feature(enable = "avx2,gfni")]
fn reverse_high_half(v: __m256i) -> __m256i {
    let matrix = _mm256_set_epi64x(REVERSE_BITS, REVERSE_BITS, KEEP_BITS, KEEP_BITS);
    #[rustfmt::skip]
    let order = _mm256_set_epi8(
        8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
        15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
    );
    _mm256_shuffle_epi8(_mm256_gf2p8affine_epi64_epi8::<0>(v, matrix), order)
}

/// Attacks along the two lines `lines` through `square`.
#[inline]
#[target_feature(enable = "avx2,gfni")]
fn two_lines(square: usize, occupied: u64, lines: [u64; 2]) -> u64 {
    let [a, b] = lines.map(|m| m as i64);
    let mask = _mm256_set_epi64x(b, a, b, a);
    let o = _mm256_and_si256(_mm256_set1_epi64x(occupied as i64), mask);
    let slider = reverse_high_half(_mm256_set1_epi64x(1 << square));
    let both = reverse_high_half(_mm256_sub_epi64(reverse_high_half(o), slider));
    let both = _mm256_and_si256(both, mask);
    let lines = _mm_xor_si128(
        _mm256_castsi256_si128(both),
        _mm256_extracti128_si256::<1>(both),
    );
    (_mm_cvtsi128_si64(lines) | _mm_extract_epi64::<1>(lines)) as u64
}

/// Reverses the bit order of the high four lanes, keeps the low four.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,gfni")]
fn reverse_high_half_512(v: __m512i) -> __m512i {
    let (r, k) = (REVERSE_BITS, KEEP_BITS);
    let matrix = _mm512_set_epi64(r, r, r, r, k, k, k, k);
    let (r, k) = (REVERSE_BYTES, KEEP_BYTES);
    let order = _mm512_set_epi64(r.0, r.1, r.0, r.1, k.0, k.1, k.0, k.1);
    _mm512_shuffle_epi8(_mm512_gf2p8affine_epi64_epi8::<0>(v, matrix), order)
}

/// Queen attacks: all four lines through `square` in one register.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw,gfni")]
fn four_lines(square: usize, occupied: u64) -> u64 {
    let [a, b, c, d] = g::GALOIS_LINES.0[square].map(|m| m as i64);
    let mask = _mm512_set_epi64(d, c, b, a, d, c, b, a);
    let o = _mm512_and_si512(_mm512_set1_epi64(occupied as i64), mask);
    let slider = reverse_high_half_512(_mm512_set1_epi64(1 << square));
    let all = reverse_high_half_512(_mm512_sub_epi64(reverse_high_half_512(o), slider));
    let all = _mm512_and_si512(all, mask);
    let lines = xor_halves(all);
    let pairs = _mm_or_si128(
        _mm256_castsi256_si128(lines),
        _mm256_extracti128_si256::<1>(lines),
    );
    (_mm_cvtsi128_si64(pairs) | _mm_extract_epi64::<1>(pairs)) as u64
}

/// The low 256 bits XOR the high 256 bits.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn xor_halves(v: __m512i) -> __m256i {
    _mm256_xor_si256(
        _mm512_castsi512_si256(v),
        _mm512_extracti64x4_epi64::<1>(v),
    )
}

impl Slider for GaloisField {
    const NAME: &'static str = "galois-field";
    const TABLE_BYTES: usize = size_of_val(&g::GALOIS_LINES);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let [file, rank, _, _] = g::GALOIS_LINES.0[square.index()];
        // SAFETY: this module is compiled only for targets with AVX2 and
        // GFNI (`build.rs` BACKENDS), so every CPU it runs on has them.
        Bitboard(unsafe { two_lines(square.index(), occupied.0, [file, rank]) })
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let [_, _, diagonal, anti] = g::GALOIS_LINES.0[square.index()];
        // SAFETY: as for `rook`: compiled only for AVX2 + GFNI targets.
        Bitboard(unsafe { two_lines(square.index(), occupied.0, [diagonal, anti]) })
    }

    #[inline]
    fn queen(square: Square, occupied: Bitboard) -> Bitboard {
        // SAFETY: compiled only for targets with AVX2, AVX-512F, AVX-512BW
        // and GFNI (`build.rs` BACKENDS).
        Bitboard(unsafe { four_lines(square.index(), occupied.0) })
    }
}
