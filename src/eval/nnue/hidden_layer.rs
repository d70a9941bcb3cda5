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
//! The dot products (`hidden_dots.rs`) skip the inputs that are zero;
//! the products are computed here, inlined into each of its builds.

use super::{BUCKETS, HIDDEN, HIDDEN_LAYER, L1, QA, SCALE, Vector, hidden_dots};

/// Scale of the hidden layer's weights (the trainer's `QL1`).
pub const QL1: i32 = 1024;

/// One unit of a dot product in float: the inputs are products of two
/// values at scale `QA`, shifted down by 7; the weights are at `QL1`.
const UNIT: f32 = 128.0 / (255.0 * 255.0 * QL1 as f32);

/// The weights that one pair of adjacent inputs (`2p` and `2p + 1`)
/// meets: unit `k`'s two at `[k]`. Pair-major, because one vector
/// multiply-add takes a pair of inputs to every unit at once (see
/// `hidden_dots.rs`); aligned so that 16 units are one cache line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct PairWeights<const L: usize>(pub [[i16; 2]; L]);

/// The hidden layer's weights: `L` units per output bucket, each reading
/// the `2 P` pairwise products (the side to move's `P` first).
#[derive(Debug)]
pub struct HiddenLayer<const P: usize, const B: usize, const L: usize> {
    /// At scale [`QL1`], pair-major: `weights[bucket][p].0[k]` holds unit
    /// `k`'s weights for inputs `2p` and `2p + 1`.
    pub weights: [[PairWeights<L>; P]; B],
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
    let layer = &HIDDEN_LAYER;
    let dots = hidden_dots::dot_products(ours, theirs, &layer.weights[bucket]);
    let layer = &HIDDEN_LAYER;
    let mut out = layer.output_biases[bucket];
    for (k, &dot) in dots.iter().enumerate() {
        let pre = dot as f32 * UNIT + layer.biases[bucket][k];
        let y = pre.clamp(0.0, 1.0);
        out += y * y * layer.output_weights[bucket][k];
    }
    (out * SCALE as f32) as i64
}

/// The layer's inputs: each side's pairwise products, the side to
/// move's first. Inlined into each build of the dot products, so that it
/// is compiled with their vector width.
#[inline(always)]
pub(super) fn pairwise_inputs(ours: &Vector<HIDDEN>, theirs: &Vector<HIDDEN>) -> Vector<HIDDEN> {
    let mut inputs = Vector([0i16; HIDDEN]);
    let (first, second) = inputs.0.split_at_mut(HIDDEN / 2);
    pairwise_products(&ours.0, first);
    pairwise_products(&theirs.0, second);
    inputs
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
}
