//! The output layer: `sum(screlu(ours) * w_ours) + sum(screlu(theirs) *
//! w_theirs)` in integers, the one dense loop of the evaluation.
//!
//! SCReLU in integers: `c = clamp(x, 0, QA)`, then `c * c * w` in units of
//! `QA * QA * QB`. `c * w` fits in i16 because the trainer clips weights
//! to ±1.98 (`|c * w| <= 255 * 127`), so the product can be formed in 16
//! bits and widened only for the second multiplication, which is how the
//! vector units like it (`vpmullw`, then `vpmaddwd` pairs into i32).
//!
//! Each run of 256 terms is summed in i32, exact: `256 * 255 * 127 * 255`
//! is just under 2^31. The runs (one per half up to H = 256, two per half
//! at 512) and the two halves are added in i64, so any width the codegen
//! accepts sums exactly; at H = 256 the code is the single i32 loop it was.
//!
//! The loop is written once, plainly, and compiled three times: for the
//! build's baseline target and, on x86-64, again with AVX2 and with
//! AVX-512 (F and BW) enabled, chosen at run time. The compiler vectorises
//! each (8, 16 or 32 lanes of i16 per instruction); the arithmetic is
//! integer, so all three give the same sum (a test holds them equal).
//! AVX-512 over AVX2, with the accumulator updates compiled the same way:
//! `quince bench --depth 15` 2.14 against 2.10 M nodes/s (three
//! alternating runs each, AMD EPYC Zen 4, 128 hidden units; the same node
//! count), a small gain that grows with the hidden layer.

use super::{HIDDEN, QA, Vector};

/// The output layer's weighted sum, before scaling.
#[inline]
pub fn weighted_screlu(
    ours: &Vector<HIDDEN>,
    theirs: &Vector<HIDDEN>,
    weights: &[Vector<HIDDEN>; 2],
) -> i64 {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx512() {
            // SAFETY: the CPU supports AVX-512F and BW (checked just above),
            // the only requirement of calling a function compiled with them.
            return unsafe { weighted_screlu_avx512(ours, theirs, weights) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above), the only
            // requirement of calling a function compiled with it enabled.
            return unsafe { weighted_screlu_avx2(ours, theirs, weights) };
        }
    }
    weighted_screlu_portable(ours, theirs, weights)
}

/// Whether the CPU has the AVX-512 subsets the loops use (F for the
/// 512-bit registers, BW for 16-bit lanes in them).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(super) fn has_avx512() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
}

/// The AVX-512 build of the same loop.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn weighted_screlu_avx512(
    ours: &Vector<HIDDEN>,
    theirs: &Vector<HIDDEN>,
    weights: &[Vector<HIDDEN>; 2],
) -> i64 {
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
    half(&ours.0, &weights[0].0) + half(&theirs.0, &weights[1].0)
}

/// The most terms an i32 sums exactly: each is at most `255 * 127 * 255`
/// (weights clipped to ±1.98 by the trainer, quantised by 64).
const EXACT_RUN: usize = 256;

/// One half's weighted SCReLU sum, in runs of [`EXACT_RUN`] terms.
#[inline(always)]
fn half<const N: usize>(values: &[i16; N], weights: &[i16; N]) -> i64 {
    let (value_runs, value_rest) = values.as_chunks::<EXACT_RUN>();
    let (weight_runs, weight_rest) = weights.as_chunks::<EXACT_RUN>();
    let mut total = i64::from(run(value_rest, weight_rest));
    for (values, weights) in value_runs.iter().zip(weight_runs) {
        total += i64::from(run(values, weights));
    }
    total
}

/// The weighted SCReLU sum of at most [`EXACT_RUN`] terms.
#[inline(always)]
fn run(values: &[i16], weights: &[i16]) -> i32 {
    debug_assert!(values.len() <= EXACT_RUN && values.len() == weights.len());
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

    /// The largest terms, at every width up to the codegen's widest: the
    /// sum needs more than 32 bits from 512 on, and must still be exact.
    #[test]
    fn wide_halves_sum_exactly_at_the_extremes() {
        fn extreme<const N: usize>() {
            let values = [i16::MAX; N];
            let weights = [127i16; N];
            let expected = N as i64 * 255 * 127 * 255;
            assert_eq!(half(&values, &weights), expected, "H = {N}");
            assert_eq!(half(&values, &[-127i16; N]), -expected, "H = {N}");
        }
        extreme::<16>();
        extreme::<256>();
        extreme::<384>();
        extreme::<512>();
        extreme::<1024>();
        assert!(512 * 255 * 127 * 255_i64 > i64::from(i32::MAX));
    }

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
        assert_eq!(weighted_screlu_portable(&ours, &theirs, &w), expected);
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 is present (checked).
                assert_eq!(
                    unsafe { weighted_screlu_avx2(&ours, &theirs, &w) },
                    expected
                );
            }
            if has_avx512() {
                // SAFETY: AVX-512F and BW are present (checked).
                assert_eq!(
                    unsafe { weighted_screlu_avx512(&ours, &theirs, &w) },
                    expected
                );
            }
        }
    }
}
