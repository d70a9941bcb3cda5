//! Kogge-Stone fills with a slider's four directions side by side in the
//! four 64-bit lanes of one AVX2 register. AVX2's per-lane variable shifts
//! (`vpsllvq`, `vpsrlvq`) let each lane step its own way; a shift count of
//! 64 gives zero, so every step is a left shift OR a right shift by
//! per-lane counts. Three fill steps, one final step, and an OR across the
//! lanes: about 25 vector instructions per rook or bishop, no tables.
//!
//! On targets without AVX2 (the crate's default `x86-64-v2`, or another
//! architecture) the same algorithm runs lane by lane in scalar code
//! ([`fill_lanes`]): build with `RUSTFLAGS='-C target-cpu=x86-64-v3'` for
//! the vector path. The two are checked against each other in the tests.

use super::Slider;
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "avx2"))))]
use super::shifts::shift;
use super::shifts::{BISHOP_STEPS, ROOK_STEPS};
use crate::types::{Bitboard, Square};

/// Kogge-Stone in one AVX2 register (scalar lanes without AVX2).
pub struct SimdFill;

/// The four directions' fills, lane by lane: the portable path, and the
/// reference the vector path is tested against.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "avx2"))))]
#[inline]
fn fill_lanes(from: u64, occupied: u64, steps: &[(i32, u64); 4]) -> u64 {
    steps.iter().fold(0, |acc, &(step, wrap)| {
        let mut fill = from;
        let mut open = !occupied & wrap;
        for k in [1, 2, 4] {
            fill |= open & shift(fill, k * step);
            open &= shift(open, k * step);
        }
        acc | (shift(fill, step) & wrap)
    })
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2 {
    //! The four directions in one `__m256i`.

    use core::arch::x86_64::{
        __m256i, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_and_si256,
        _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_or_si256, _mm256_set_epi64x,
        _mm256_set1_epi64x, _mm256_sllv_epi64, _mm256_srlv_epi64,
    };

    /// One direction set's constants: per lane, the wrap mask and the left
    /// and right shift counts of 1, 2 and 4 steps (64 where the lane shifts
    /// the other way: a count of 64 zeroes that half of the step).
    pub(super) struct Lanes {
        wrap: [u64; 4],
        left: [[u64; 4]; 3],
        right: [[u64; 4]; 3],
    }

    const fn lanes(steps: &[(i32, u64); 4]) -> Lanes {
        let mut l = Lanes {
            wrap: [0; 4],
            left: [[64; 4]; 3],
            right: [[64; 4]; 3],
        };
        let mut i = 0;
        while i < 4 {
            let (step, wrap) = steps[i];
            l.wrap[i] = wrap;
            let mut k = 0;
            while k < 3 {
                let count = (step.unsigned_abs() << k) as u64;
                if step > 0 {
                    l.left[k][i] = count;
                } else {
                    l.right[k][i] = count;
                }
                k += 1;
            }
            i += 1;
        }
        l
    }

    pub(super) const ROOK: Lanes = lanes(&super::ROOK_STEPS);
    pub(super) const BISHOP: Lanes = lanes(&super::BISHOP_STEPS);

    #[inline]
    #[target_feature(enable = "avx2")]
    fn load(x: &[u64; 4]) -> __m256i {
        _mm256_set_epi64x(x[3] as i64, x[2] as i64, x[1] as i64, x[0] as i64)
    }

    /// Every lane moved `2^k` steps in its direction.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn step(v: __m256i, lanes: &Lanes, k: usize) -> __m256i {
        let left = _mm256_sllv_epi64(v, load(&lanes.left[k]));
        _mm256_or_si256(left, _mm256_srlv_epi64(v, load(&lanes.right[k])))
    }

    /// The attacks of the slider `from` in the four directions of `lanes`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn attacks(from: u64, occupied: u64, lanes: &Lanes) -> u64 {
        let wrap = load(&lanes.wrap);
        let mut fill = _mm256_set1_epi64x(from as i64);
        let mut open = _mm256_and_si256(_mm256_set1_epi64x(!occupied as i64), wrap);
        fill = _mm256_or_si256(fill, _mm256_and_si256(open, step(fill, lanes, 0)));
        open = _mm256_and_si256(open, step(open, lanes, 0));
        fill = _mm256_or_si256(fill, _mm256_and_si256(open, step(fill, lanes, 1)));
        open = _mm256_and_si256(open, step(open, lanes, 1));
        fill = _mm256_or_si256(fill, _mm256_and_si256(open, step(fill, lanes, 2)));
        let out = _mm256_and_si256(step(fill, lanes, 0), wrap);
        let half = _mm_or_si128(
            _mm256_castsi256_si128(out),
            _mm256_extracti128_si256::<1>(out),
        );
        _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
    }
}

impl Slider for SimdFill {
    const NAME: &'static str = "simd-fill";
    const TABLE_BYTES: usize = 0;

    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        // SAFETY: `avx2::attacks` needs AVX2, and this version is compiled
        // only when the build's target has it (the `cfg` above), so every
        // CPU the binary runs on executes it.
        Bitboard(unsafe { avx2::attacks(1 << square.index(), occupied.0, &avx2::ROOK) })
    }

    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        // SAFETY: as for `rook`: compiled only for AVX2 targets.
        Bitboard(unsafe { avx2::attacks(1 << square.index(), occupied.0, &avx2::BISHOP) })
    }

    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        Bitboard(fill_lanes(1 << square.index(), occupied.0, &ROOK_STEPS))
    }

    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        Bitboard(fill_lanes(1 << square.index(), occupied.0, &BISHOP_STEPS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whichever path is compiled agrees with the scalar lanes (the
    /// ray-walker test in `sliders` checks the compiled one independently).
    #[test]
    fn compiled_path_matches_scalar_lanes() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            for square in Square::all() {
                for occ in [state, state & state.rotate_left(23), 0, !0] {
                    let from = 1 << square.index();
                    assert_eq!(
                        SimdFill::rook(square, Bitboard(occ)).0,
                        fill_lanes(from, occ, &ROOK_STEPS)
                    );
                    assert_eq!(
                        SimdFill::bishop(square, Bitboard(occ)).0,
                        fill_lanes(from, occ, &BISHOP_STEPS)
                    );
                }
            }
        }
    }
}
