//! The output layer: `sum(screlu(ours) * w_ours) + sum(screlu(theirs) *
//! w_theirs)` in integers, the one dense loop of the evaluation.
//!
//! SCReLU in integers: `c = clamp(x, 0, QA)`, then `c * c * w` in units of
//! `QA * QA * QB`. `c * w` fits in i16 because the trainer clips weights
//! to ±1.98 (`|c * w| <= 255 * 127`), so the product can be formed in 16
//! bits and widened only for the second multiplication, which is how the
//! vector units like it (`vpmullw`, then `vpmaddwd` pairs into i32).
//!
//! Each half (our side's, their side's) is summed in i32, exact up to
//! H = 256: `256 * 255 * 127 * 255` is just under 2^31. The two halves
//! are added in i64.
//!
//! The loop is written once, plainly, and compiled twice: for the build's
//! baseline target and, on x86-64, again with AVX2 enabled, chosen at run
//! time. The compiler vectorises both (16 lanes per AVX2 instruction).

use super::{HIDDEN, QA, Vector};

/// The output layer's weighted sum, before scaling.
#[inline]
pub fn weighted_screlu(
    ours: &Vector<HIDDEN>,
    theirs: &Vector<HIDDEN>,
    weights: &[Vector<HIDDEN>; 2],
) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2 (checked just above), the only
        // requirement of calling a function compiled with it enabled.
        return unsafe { weighted_screlu_avx2(ours, theirs, weights) };
    }
    weighted_screlu_portable(ours, theirs, weights)
}

/// The AVX2 build of the same loop.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn weighted_screlu_avx2(
    ours: &Vector<HIDDEN>,
    theirs: &Vector<HIDDEN>,
    weights: &[Vector<HIDDEN>; 2],
) -> i64 {
    weighted_screlu_portable(ours, theirs, weights)
}

#[inline(always)]
fn weighted_screlu_portable(
    ours: &Vector<HIDDEN>,
    theirs: &Vector<HIDDEN>,
    weights: &[Vector<HIDDEN>; 2],
) -> i64 {
    i64::from(half(&ours.0, &weights[0].0)) + i64::from(half(&theirs.0, &weights[1].0))
}

#[inline(always)]
fn half(values: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (&x, &w) in values.iter().zip(weights) {
        let c = x.clamp(0, QA as i16);
        sum += i32::from(c.wrapping_mul(w)) * i32::from(c);
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vector_path_matches_a_plain_sum() {
        let ours = Vector(std::array::from_fn(|i| (i as i16 * 37) % 600 - 200));
        let theirs = Vector(std::array::from_fn(|i| (i as i16 * 53) % 500 - 100));
        let w = [
            Vector(std::array::from_fn(|i| (i as i16 * 11) % 250 - 125)),
            Vector(std::array::from_fn(|i| (i as i16 * 7) % 250 - 125)),
        ];
        let mut expected = 0i64;
        for (side, values) in [&ours, &theirs].into_iter().enumerate() {
            for i in 0..HIDDEN {
                let c = i64::from(values.0[i].clamp(0, 255));
                expected += c * c * i64::from(w[side].0[i]);
            }
        }
        assert_eq!(weighted_screlu(&ours, &theirs, &w), expected);
    }
}
