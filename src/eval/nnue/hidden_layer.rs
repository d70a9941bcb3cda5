//! The hidden layer, for a network that has one (`L1 > 0`): `768 K ->
//! H x 2 -> L1 -> 1` in place of the plain `768 K -> H x 2 -> 1`.
//!
//! Its inputs are each accumulator's two halves multiplied pairwise,
//! `c[i] * c[i + H/2]` with `c = clamp(x, 0, QA)`: `H` inputs from both
//! sides rather than `2H`, and a product already does what SCReLU's
//! square did (the trainer's `hidden_layer.rs` explains the choice). A
//! product is at most `255 * 255`, shifted down by 7 (rounded) to
//! `0..=508` so that it fits an `i16` lane; the weights are `i16` at
//! scale [`QL1`], within ±2028 (the trainer's clip at ±1.98; the codegen
//! refuses a file with more), so each unit's dot product is exact in i32
//! (`1024 * 508 * 2028` at the widest, half of 2^31).
//! Why not narrower: the first network's evaluation moved by 5.4 cp on
//! average from the float network's, on held-out positions (`quince-train
//! quant-error`), with `i8` weights at scale 64 (what the CPU's byte
//! multiply-add would take) and products truncated by 8 bits; 2.7 cp
//! with these weights, 2.1 cp with these products.
//!
//! The `L1` units after the dot products are few (16 in the first such
//! network), so they run in `f32`: bias, SCReLU, output weight, summed
//! in the unit order. Rust never reorders or fuses float arithmetic, so
//! the trainer's independent evaluation (`quantised.rs`), written as the
//! same operations in the same order, gives the same centipawns to the
//! bit; CI compares the two.
//!
//! The products and the dot products are the dense part, compiled for
//! the baseline target and again with AVX2 and AVX-512, as `output.rs`
//! does, chosen at run time.

use super::{BUCKETS, HIDDEN, HIDDEN_LAYER, L1, QA, SCALE, Vector};

/// Scale of the hidden layer's weights (the trainer's `QL1`).
pub const QL1: i32 = 1024;

/// One unit of a dot product in float: the inputs are products of two
/// values at scale `QA`, shifted down by 7; the weights are at `QL1`.
const UNIT: f32 = 128.0 / (255.0 * 255.0 * QL1 as f32);

/// The hidden layer's weights: `L` units per output bucket, each reading
/// the `N` pairwise products (the side to move's `N / 2` first).
#[derive(Debug)]
pub struct HiddenLayer<const N: usize, const B: usize, const L: usize> {
    /// At scale [`QL1`].
    pub weights: [[[i16; N]; L]; B],
    /// Added to each unit's dot product (in float units).
    pub biases: [[f32; L]; B],
    /// Each unit's weight in the output, after its SCReLU.
    pub output_weights: [[f32; L]; B],
    /// Added to the output (in units of [`SCALE`] centipawns).
    pub output_biases: [f32; B],
}

/// The network's output through the hidden layer of bucket `bucket`, in
/// centipawns (before the engine's clamp), from the side to move's
/// accumulator and its opponent's.
#[inline]
pub fn centipawns(ours: &Vector<HIDDEN>, theirs: &Vector<HIDDEN>, bucket: usize) -> i64 {
    debug_assert!(L1 != 0 && bucket < BUCKETS);
    let dots = dot_products(ours, theirs, bucket);
    let layer = &HIDDEN_LAYER;
    let mut out = layer.output_biases[bucket];
    for (k, &dot) in dots.iter().enumerate() {
        let pre = dot as f32 * UNIT + layer.biases[bucket][k];
        let y = pre.clamp(0.0, 1.0);
        out += y * y * layer.output_weights[bucket][k];
    }
    (out * SCALE as f32) as i64
}

/// Every unit's dot product with the pairwise products, exact.
#[inline]
fn dot_products(ours: &Vector<HIDDEN>, theirs: &Vector<HIDDEN>, bucket: usize) -> [i32; L1] {
    #[cfg(target_arch = "x86_64")]
    {
        if super::output::has_avx512() {
            // SAFETY: the CPU supports AVX-512F and BW (checked just above),
            // the only requirement of calling a function compiled with them.
            return unsafe { dot_products_avx512(ours, theirs, bucket) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above), the only
            // requirement of calling a function compiled with it enabled.
            return unsafe { dot_products_avx2(ours, theirs, bucket) };
        }
    }
    dot_products_portable(ours, theirs, bucket)
}

/// The AVX-512 build of the same loops.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn dot_products_avx512(ours: &Vector<HIDDEN>, theirs: &Vector<HIDDEN>, bucket: usize) -> [i32; L1] {
    dot_products_portable(ours, theirs, bucket)
}

/// The AVX2 build of the same loops.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dot_products_avx2(ours: &Vector<HIDDEN>, theirs: &Vector<HIDDEN>, bucket: usize) -> [i32; L1] {
    dot_products_portable(ours, theirs, bucket)
}

#[inline(always)]
fn dot_products_portable(
    ours: &Vector<HIDDEN>,
    theirs: &Vector<HIDDEN>,
    bucket: usize,
) -> [i32; L1] {
    let mut inputs = Vector([0i16; HIDDEN]);
    let (first, second) = inputs.0.split_at_mut(HIDDEN / 2);
    pairwise_products(&ours.0, first);
    pairwise_products(&theirs.0, second);
    // A plain loop, not `array::from_fn`: a closure handed to a library
    // function is compiled apart, without this function's target
    // features, and ran unvectorised (callgrind: 3.8 k instructions per
    // evaluation more, half of all the search's).
    let mut dots = [0i32; L1];
    for (d, row) in dots.iter_mut().zip(&HIDDEN_LAYER.weights[bucket]) {
        *d = dot(&inputs.0, row);
    }
    dots
}

/// `(clamp(a[i]) * clamp(a[i + H/2]) + 64) >> 7` for the first half's
/// `i`: in 16-bit lanes, since `255 * 255 + 64` fits a `u16`.
#[inline(always)]
fn pairwise_products(values: &[i16; HIDDEN], out: &mut [i16]) {
    let (low, high) = values.split_at(HIDDEN / 2);
    for ((o, &a), &b) in out.iter_mut().zip(low).zip(high) {
        let (a, b) = (a.clamp(0, QA as i16) as u16, b.clamp(0, QA as i16) as u16);
        *o = ((a * b + 64) >> 7) as i16;
    }
}

/// An exact dot product (see the module's bound).
#[inline(always)]
fn dot(inputs: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    inputs
        .iter()
        .zip(weights)
        .map(|(&x, &w)| i32::from(x) * i32::from(w))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_are_the_clamped_halves_multiplied_and_shifted() {
        let mut values = [0i16; HIDDEN];
        values[0] = 300; // clamped to 255
        values[HIDDEN / 2] = 255;
        values[1] = -40; // clamped to 0
        values[HIDDEN / 2 + 1] = 200;
        values[2] = 25;
        values[HIDDEN / 2 + 2] = 20;
        let mut out = [0i16; HIDDEN / 2];
        pairwise_products(&values, &mut out);
        // 65025 / 128 = 508.0; 500 / 128 = 3.9 rounds to 4 (truncation
        // would give 3).
        assert_eq!(&out[..3], &[508, 0, 4]);
    }

    #[test]
    fn the_dot_product_is_exact_at_the_extremes() {
        let inputs = [508i16; HIDDEN];
        assert_eq!(dot(&inputs, &[2028; HIDDEN]), HIDDEN as i32 * 508 * 2028);
        assert_eq!(
            dot(&inputs, &[-2028; HIDDEN]),
            -(HIDDEN as i32) * 508 * 2028
        );
    }

    /// The vector builds give the portable build's dot products, which
    /// are the plain sums, for every bucket. Meaningful when the network
    /// has a hidden layer, as the committed one (v13) has; CI's NNUE
    /// stage also runs this module's tests with a network without one
    /// (`QUINCE_NETWORK`), where `L1` is 0 and the arrays are empty.
    #[test]
    fn every_build_gives_the_plain_dot_products() {
        let ours = Vector(std::array::from_fn(|i| (i as i16 * 37) % 400 - 60));
        let theirs = Vector(std::array::from_fn(|i| (i as i16 * 53) % 350 - 40));
        for bucket in 0..BUCKETS {
            let inputs: Vec<i64> = [&ours, &theirs]
                .iter()
                .flat_map(|side| {
                    (0..HIDDEN / 2).map(|i| {
                        let c = |x: i16| i64::from(x.clamp(0, 255));
                        (c(side.0[i]) * c(side.0[i + HIDDEN / 2]) + 64) >> 7
                    })
                })
                .collect();
            let expected: [i32; L1] = std::array::from_fn(|k| {
                let row = &HIDDEN_LAYER.weights[bucket][k];
                inputs
                    .iter()
                    .zip(row)
                    .map(|(&x, &w)| x * i64::from(w))
                    .sum::<i64>() as i32
            });
            assert_eq!(dot_products_portable(&ours, &theirs, bucket), expected);
            assert_eq!(dot_products(&ours, &theirs, bucket), expected);
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: AVX2 is present (checked).
                    let avx2 = unsafe { dot_products_avx2(&ours, &theirs, bucket) };
                    assert_eq!(avx2, expected);
                }
                if super::super::output::has_avx512() {
                    // SAFETY: AVX-512F and BW are present (checked).
                    let avx512 = unsafe { dot_products_avx512(&ours, &theirs, bucket) };
                    assert_eq!(avx512, expected);
                }
            }
        }
    }
}
