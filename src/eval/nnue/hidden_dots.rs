//! The hidden layer's dot products: for each of its `L1` units, the sum
//! of the `HIDDEN` pairwise products times the unit's weights, skipping
//! the products that are zero.
//!
//! Why skip: a product is zero unless both accumulator values behind it
//! are positive. Over `quince bench --depth 15` with v13, 62 % of the
//! inputs are zero and 37 % of the pairs of adjacent inputs are both
//! zero, and the dense loop paid for every one of them in every unit
//! (`16 * 256` multiply-adds), then for 16 horizontal sums.
//!
//! What it bought, against the dense loop over the trainer's unit-major
//! layout (commit c8b0ec5), on the Intel Rocket Lake host: `quince bench
//! --depth 15` 1.78 M against 1.66 M nodes/s (AVX-512 build; five
//! alternating runs each, the same 4,970,889 nodes), and by callgrind
//! (the AVX2 build, as valgrind has no AVX-512) 1,159 against 1,671
//! instructions per evaluation, 5,250 against 5,639 per node of `quince
//! bench --depth 9`. Pairs rather than single inputs: a loop step costs
//! the same either way, and there are fewer nonzero pairs (80 of 128 on
//! average) than nonzero inputs (97 of 256).
//!
//! How: the codegen stores the weights pair-major ([`PairWeights`]): the
//! `2 * L1` weights that a pair of adjacent inputs meets lie side by
//! side, one 64-byte line at 16 units. A pair of `i16` inputs is one
//! 32-bit lane; broadcast to every lane and multiplied-and-added with
//! that line (`vpmaddwd`), it adds its share to all 16 units' sums in
//! one instruction, and no horizontal sum is left at the end. The pairs
//! that are not both zero come from a bit mask (one vector compare per
//! 16 or 8 pairs), walked with `trailing_zeros`, so the only branch that
//! the data decides is the end of each 64-pair word.
//!
//! Three builds: AVX-512 (F, BW) and AVX2 with the intrinsics, for
//! widths they divide (`L1` a multiple of 16 or 8), and the portable
//! loop, dense, for any target and width. Integer sums are exact in any
//! order (the bound in `hidden_layer.rs`), so all three give the same
//! numbers; the tests hold them equal.

use super::hidden_layer::pairwise_inputs;
use super::{HIDDEN, L1, PairWeights, Vector};

/// Pairs of adjacent inputs: the layer reads `HIDDEN` inputs.
const PAIRS: usize = HIDDEN / 2;

/// One output bucket's weights, pair-major.
type Weights = [PairWeights<L1>; PAIRS];

/// Every unit's dot product with the pairwise products of `ours` and
/// `theirs`, exact.
#[inline]
pub(super) fn dot_products(
    ours: &Vector<HIDDEN>,
    theirs: &Vector<HIDDEN>,
    weights: &Weights,
) -> [i32; L1] {
    #[cfg(target_arch = "x86_64")]
    {
        if L1.is_multiple_of(16) && PAIRS.is_multiple_of(16) && super::output::has_avx512() {
            // SAFETY: the CPU supports AVX-512F and BW (checked just above),
            // the only requirement of calling a function compiled with them.
            return unsafe { dot_products_avx512(ours, theirs, weights) };
        }
        if L1.is_multiple_of(8)
            && PAIRS.is_multiple_of(8)
            && std::arch::is_x86_feature_detected!("avx2")
        {
            // SAFETY: the CPU supports AVX2 (checked just above), the only
            // requirement of calling a function compiled with it enabled.
            return unsafe { dot_products_avx2(ours, theirs, weights) };
        }
    }
    dense(&pairwise_inputs(ours, theirs), weights)
}

/// The plain definition: every pair times its weights, dense.
#[inline(always)]
fn dense(inputs: &Vector<HIDDEN>, weights: &Weights) -> [i32; L1] {
    let mut dots = [0i32; L1];
    for (pair, w) in inputs.0.chunks_exact(2).zip(weights) {
        let (a, b) = (i32::from(pair[0]), i32::from(pair[1]));
        for (d, &[wa, wb]) in dots.iter_mut().zip(&w.0) {
            *d += a * i32::from(wa) + b * i32::from(wb);
        }
    }
    dots
}

/// The 64-pair words of the nonzero mask.
#[cfg(target_arch = "x86_64")]
const WORDS: usize = PAIRS.div_ceil(64);

/// Pair `p` of `inputs` as one 32-bit lane (input `2p` in the low half),
/// for `p` below [`PAIRS`].
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pair_lane(inputs: &Vector<HIDDEN>, p: usize) -> i32 {
    i32::from(inputs.0[2 * p] as u16) | (i32::from(inputs.0[2 * p + 1] as u16) << 16)
}

/// The products, then the sparse sums, both with AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn dot_products_avx512(
    ours: &Vector<HIDDEN>,
    theirs: &Vector<HIDDEN>,
    weights: &Weights,
) -> [i32; L1] {
    sparse_avx512(&pairwise_inputs(ours, theirs), weights)
}

/// The sparse sums with 512-bit vectors: 16 units per register.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn sparse_avx512(inputs: &Vector<HIDDEN>, weights: &Weights) -> [i32; L1] {
    use std::arch::x86_64::*;
    let mut masks = [0u64; WORDS];
    let lines = inputs.0.as_ptr().cast::<__m512i>();
    for chunk in 0..PAIRS / 16 {
        // SAFETY: `chunk` is inputs 32 chunk..32 chunk + 32, within the `HIDDEN`
        // of the vector (PAIRS / 16 chunks of 32), whose 64-byte
        // alignment the aligned load needs.
        let line = unsafe { _mm512_load_si512(lines.add(chunk)) };
        let nonzero = _mm512_test_epi32_mask(line, line);
        masks[chunk / 4] |= u64::from(nonzero) << (16 * (chunk % 4));
    }
    let mut sums = [_mm512_setzero_si512(); L1 / 16];
    for (word, &mask) in masks.iter().enumerate() {
        let mut rest = mask;
        while rest != 0 {
            let p = word * 64 + rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let pair = _mm512_set1_epi32(pair_lane(inputs, p));
            let line = weights[p].0.as_ptr().cast::<__m512i>();
            for (j, sum) in sums.iter_mut().enumerate() {
                // SAFETY: `weights[p]` holds `L1` pairs of i16, `L1 / 16`
                // lines of 64 bytes, aligned by `PairWeights`.
                let w = unsafe { _mm512_load_si512(line.add(j)) };
                *sum = _mm512_add_epi32(*sum, _mm512_madd_epi16(pair, w));
            }
        }
    }
    let mut dots = [0i32; L1];
    for (j, sum) in sums.iter().enumerate() {
        // SAFETY: `dots` has room for `L1 / 16` vectors of 16 i32 (an
        // unaligned store).
        unsafe { _mm512_storeu_si512(dots.as_mut_ptr().cast::<__m512i>().add(j), *sum) };
    }
    dots
}

/// The products, then the sparse sums, both with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dot_products_avx2(
    ours: &Vector<HIDDEN>,
    theirs: &Vector<HIDDEN>,
    weights: &Weights,
) -> [i32; L1] {
    sparse_avx2(&pairwise_inputs(ours, theirs), weights)
}

/// The sparse sums with 256-bit vectors: 8 units per register.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn sparse_avx2(inputs: &Vector<HIDDEN>, weights: &Weights) -> [i32; L1] {
    use std::arch::x86_64::*;
    let mut masks = [0u64; WORDS];
    let lines = inputs.0.as_ptr().cast::<__m256i>();
    let zero = _mm256_setzero_si256();
    for chunk in 0..PAIRS / 8 {
        // SAFETY: `chunk` is inputs 16 chunk..16 chunk + 16, within the `HIDDEN`
        // of the vector, whose alignment (64) covers the load's 32.
        let line = unsafe { _mm256_load_si256(lines.add(chunk)) };
        let zeros = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(line, zero)));
        let nonzero = !zeros as u64 & 0xff;
        masks[chunk / 8] |= nonzero << (8 * (chunk % 8));
    }
    let mut sums = [_mm256_setzero_si256(); L1 / 8];
    for (word, &mask) in masks.iter().enumerate() {
        let mut rest = mask;
        while rest != 0 {
            let p = word * 64 + rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let pair = _mm256_set1_epi32(pair_lane(inputs, p));
            let line = weights[p].0.as_ptr().cast::<__m256i>();
            for (j, sum) in sums.iter_mut().enumerate() {
                // SAFETY: `weights[p]` holds `L1` pairs of i16, `L1 / 8`
                // vectors of 32 bytes, aligned (64) by `PairWeights`.
                let w = unsafe { _mm256_load_si256(line.add(j)) };
                *sum = _mm256_add_epi32(*sum, _mm256_madd_epi16(pair, w));
            }
        }
    }
    let mut dots = [0i32; L1];
    for (j, sum) in sums.iter().enumerate() {
        // SAFETY: `dots` has room for `L1 / 8` vectors of 8 i32 (an
        // unaligned store).
        unsafe { _mm256_storeu_si256(dots.as_mut_ptr().cast::<__m256i>().add(j), *sum) };
    }
    dots
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::HIDDEN_LAYER;

    /// The plain sums in i64, from the inputs and the weights.
    fn reference(inputs: &Vector<HIDDEN>, weights: &Weights) -> [i32; L1] {
        std::array::from_fn(|k| {
            let sum: i64 = (0..HIDDEN)
                .map(|i| i64::from(inputs.0[i]) * i64::from(weights[i / 2].0[k][i % 2]))
                .sum();
            i32::try_from(sum).expect("an exact i32 sum")
        })
    }

    /// Every build's sums for `inputs`, the portable one first.
    fn every_build(inputs: &Vector<HIDDEN>, weights: &Weights) -> Vec<[i32; L1]> {
        #[allow(unused_mut)]
        let mut sums = vec![dense(inputs, weights)];
        #[cfg(target_arch = "x86_64")]
        {
            if L1.is_multiple_of(8) && std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 is present (checked).
                sums.push(unsafe { sparse_avx2(inputs, weights) });
            }
            if L1.is_multiple_of(16) && super::super::output::has_avx512() {
                // SAFETY: AVX-512F and BW are present (checked).
                sums.push(unsafe { sparse_avx512(inputs, weights) });
            }
        }
        sums
    }

    /// Inputs with zeros scattered among them, as the search meets them:
    /// whole zero pairs, pairs with one zero, runs of nonzero pairs.
    fn scattered_inputs(seed: u32) -> Vector<HIDDEN> {
        let mut state = seed.wrapping_mul(2_654_435_761) | 1;
        Vector(std::array::from_fn(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            if state.is_multiple_of(3) {
                ((state >> 8) % 508 + 1) as i16
            } else {
                0
            }
        }))
    }

    /// Every build sums as the plain definition does, on the committed
    /// network's weights for every bucket and on inputs from dense to
    /// empty. Meaningful when the network has a hidden layer: the
    /// committed one (v16) has none, so `L1` is 0 and the arrays are
    /// empty here, and CI's NNUE stage runs these tests with a network
    /// that has one (`QUINCE_NETWORK`, 8 units).
    #[test]
    fn every_build_gives_the_plain_sums() {
        for weights in &HIDDEN_LAYER.weights {
            for seed in 0..8 {
                let inputs = scattered_inputs(seed);
                let expected = reference(&inputs, weights);
                for sums in every_build(&inputs, weights) {
                    assert_eq!(sums, expected, "seed {seed}");
                }
            }
            let empty = Vector([0i16; HIDDEN]);
            for sums in every_build(&empty, weights) {
                assert_eq!(sums, [0; L1]);
            }
        }
    }

    /// The largest products against the largest weights of either sign,
    /// in every pair: still exact in i32, in every build.
    #[test]
    fn the_sums_are_exact_at_the_extremes() {
        let inputs = Vector([508i16; HIDDEN]);
        for sign in [1, -1] {
            let weights = [PairWeights([[2028 * sign; 2]; L1]); PAIRS];
            let expected = [sign as i32 * HIDDEN as i32 * 508 * 2028; L1];
            assert_eq!(reference(&inputs, &weights), expected);
            for sums in every_build(&inputs, &weights) {
                assert_eq!(sums, expected);
            }
        }
    }

    /// The network's entry point is the products, then the sums.
    #[test]
    fn dot_products_read_the_pairwise_products() {
        let ours = Vector(std::array::from_fn(|i| (i as i16 * 37) % 400 - 60));
        let theirs = Vector(std::array::from_fn(|i| (i as i16 * 53) % 350 - 40));
        let inputs = pairwise_inputs(&ours, &theirs);
        for weights in &HIDDEN_LAYER.weights {
            assert_eq!(
                dot_products(&ours, &theirs, weights),
                reference(&inputs, weights)
            );
        }
    }
}
