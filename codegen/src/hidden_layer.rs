//! The optional hidden layer of a `QNN4` network, read from its file and
//! emitted as Rust source beside the rest of the network (`network.rs`).
//!
//! `768 K -> H x 2 -> L1 -> 1`: each accumulator's two halves multiplied
//! pairwise (`H` inputs in all), `L1` units with SCReLU, one output; one
//! such layer per output bucket. In the file, after the feature biases:
//! `i16` weights `[B][L1][H]` at scale 1024 (the trainer clips them to
//! ±1.98), then `f32` biases `[B][L1]`, `f32` output weights `[B][L1]` and
//! `f32` output biases `[B]`: the few numbers after the dot products stay
//! floats, as the engine computes them.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// The most hidden units a file may have (the trainer's bound).
pub const MAX_UNITS: usize = 64;
/// The largest weight a file may hold: the trainer's clip (1.98) at scale
/// 1024, which keeps the engine's i32 dot products exact at any width
/// the codegen takes (`1024 * 508 * 2028 < 2^31`).
pub const MAX_WEIGHT: i16 = 2028;

/// A parsed hidden layer.
#[derive(Clone, Debug, PartialEq)]
pub struct HiddenLayer {
    pub units: usize,
    /// `[bucket][unit][H]`.
    pub weights: Vec<i16>,
    /// `[bucket][unit]`.
    pub biases: Vec<f32>,
    /// `[bucket][unit]`.
    pub output_weights: Vec<f32>,
    /// `[bucket]`.
    pub output_biases: Vec<f32>,
}

/// The layer's size in bytes in a file of hidden size `hidden` with
/// `buckets` output buckets.
pub const fn file_size(hidden: usize, buckets: usize, units: usize) -> usize {
    2 * buckets * units * hidden + 4 * (2 * buckets * units + buckets)
}

/// Reads the layer from `bytes`, which must be exactly [`file_size`]
/// long; every float must be finite.
pub fn parse(
    bytes: &[u8],
    hidden: usize,
    buckets: usize,
    units: usize,
) -> Result<HiddenLayer, String> {
    if !(1..=MAX_UNITS).contains(&units) {
        return Err(format!(
            "a hidden layer of {units} units: expected 1 to {MAX_UNITS}"
        ));
    }
    assert_eq!(bytes.len(), file_size(hidden, buckets, units));
    let count = buckets * units * hidden;
    let weights: Vec<i16> = bytes[..2 * count]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    if let Some(at) = weights.iter().position(|w| w.abs() > MAX_WEIGHT) {
        return Err(format!(
            "hidden-layer weight {at} is {}, beyond ±{MAX_WEIGHT} (the engine's sums could overflow)",
            weights[at]
        ));
    }
    let floats: Vec<f32> = bytes[2 * count..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if let Some(at) = floats.iter().position(|f| !f.is_finite()) {
        return Err(format!(
            "the hidden layer's float number {at} is {}",
            floats[at]
        ));
    }
    let (biases, rest) = floats.split_at(buckets * units);
    let (output_weights, output_biases) = rest.split_at(buckets * units);
    Ok(HiddenLayer {
        units,
        weights,
        biases: biases.to_vec(),
        output_weights: output_weights.to_vec(),
        output_biases: output_biases.to_vec(),
    })
}

fn floats(values: &[f32]) -> TokenStream {
    let items = values.iter().map(|&v| Literal::f32_unsuffixed(v));
    quote!([#(#items),*])
}

/// `L1` and `static HIDDEN_LAYER: HiddenLayer<{ HIDDEN / 2 }, BUCKETS,
/// L1>` (its weights pair-major), for the module `network.rs`'s items go
/// to. Without a layer, `L1` is 0 and
/// the arrays are empty (the engine's hidden-layer code folds away).
pub fn emit(layer: Option<&HiddenLayer>, hidden: usize, buckets: usize) -> TokenStream {
    let Some(layer) = layer else {
        return quote! {
            /// Units of the hidden layer: none, the output reads the
            /// accumulators.
            pub const L1: usize = 0;
            /// No hidden layer (see `L1`).
            pub static HIDDEN_LAYER: HiddenLayer<{ HIDDEN / 2 }, BUCKETS, L1> = HiddenLayer {
                weights: [[PairWeights([]); HIDDEN / 2]; BUCKETS],
                biases: [[]; BUCKETS],
                output_weights: [[]; BUCKETS],
                output_biases: [0.0; BUCKETS],
            };
        };
    };
    let units = layer.units;
    // Pair-major, as the engine reads them: for each pair of adjacent
    // inputs `2p, 2p + 1`, every unit's two weights side by side, so that
    // one vector multiply-add takes a pair to all the units at once (the
    // engine's `hidden_dots.rs`).
    let weights = layer.weights.chunks_exact(units * hidden).map(|bucket| {
        let pairs = (0..hidden / 2).map(|p| {
            let units = bucket.chunks_exact(hidden).map(|row| {
                let (a, b) = (row[2 * p], row[2 * p + 1]);
                let (a, b) = (Literal::i16_unsuffixed(a), Literal::i16_unsuffixed(b));
                quote!([#a, #b])
            });
            quote!(PairWeights([#(#units),*]))
        });
        quote!([#(#pairs),*])
    });
    let per_bucket = |values: &[f32]| {
        let rows = values.chunks_exact(units).map(floats);
        quote!([#(#rows),*])
    };
    let biases = per_bucket(&layer.biases);
    let output_weights = per_bucket(&layer.output_weights);
    let output_biases = floats(&layer.output_biases);
    debug_assert_eq!(layer.output_biases.len(), buckets);
    let units_lit = Literal::usize_unsuffixed(units);
    quote! {
        /// Units of the hidden layer between the accumulators and the
        /// output.
        pub const L1: usize = #units_lit;
        /// The hidden layer, one per output bucket.
        pub static HIDDEN_LAYER: HiddenLayer<{ HIDDEN / 2 }, BUCKETS, L1> = HiddenLayer {
            weights: [#(#weights),*],
            biases: #biases,
            output_weights: #output_weights,
            output_biases: #output_biases,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer_bytes(hidden: usize, buckets: usize, units: usize, last: f32) -> Vec<u8> {
        let mut bytes: Vec<u8> = (0..buckets * units * hidden)
            .flat_map(|i| ((i % 11) as i16 - 5).to_le_bytes())
            .collect();
        for i in 0..2 * buckets * units + buckets - 1 {
            bytes.extend_from_slice(&(i as f32 * 0.25 - 1.0).to_le_bytes());
        }
        bytes.extend_from_slice(&last.to_le_bytes());
        bytes
    }

    #[test]
    fn a_layer_parses_into_its_parts_and_emits_its_sizes() {
        let bytes = layer_bytes(16, 2, 4, 0.125);
        assert_eq!(bytes.len(), file_size(16, 2, 4));
        let layer = parse(&bytes, 16, 2, 4).unwrap();
        assert_eq!(layer.weights.len(), 2 * 4 * 16);
        assert_eq!(&layer.weights[..3], &[-5, -4, -3]);
        assert_eq!(
            layer.biases,
            [-1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75]
        );
        assert_eq!(layer.output_biases, [3.0, 0.125]);
        let code = emit(Some(&layer), 16, 2).to_string();
        assert!(code.contains("pub const L1 : usize = 4"), "{code:.300}");
        assert!(code.contains("0.125"));
        // Pair-major: the first pair's weights (inputs 0 and 1) of the
        // four units of bucket 0, whose rows start at file weights 0, 16,
        // 32 and 48 (`(i % 11) - 5`).
        assert!(
            code.replace(' ', "")
                .contains("PairWeights([[-5,-4],[0,1],[5,-5],[-1,0]])"),
            "{code:.300}"
        );
        assert!(
            emit(None, 16, 2)
                .to_string()
                .contains("pub const L1 : usize = 0")
        );
    }

    #[test]
    fn bad_layers_are_refused() {
        let bytes = layer_bytes(16, 1, 2, f32::NAN);
        assert!(parse(&bytes, 16, 1, 2).unwrap_err().contains("NaN"));
        let mut heavy = layer_bytes(16, 1, 2, 0.0);
        heavy[6..8].copy_from_slice(&(-MAX_WEIGHT - 1).to_le_bytes());
        assert!(
            parse(&heavy, 16, 1, 2)
                .unwrap_err()
                .contains("weight 3 is -2029")
        );
        let none = layer_bytes(16, 1, 0, 0.0);
        assert!(parse(&none[..0], 16, 1, 0).unwrap_err().contains("units"));
    }

    /// Every float is written so that it reads back as the same `f32`:
    /// the engine and the trainer must compute from identical numbers.
    #[test]
    fn floats_are_emitted_exactly() {
        for v in [0.1f32, -1.0e-7, 3.402_823_5e38, 1.0 / 3.0, -0.0] {
            let text = floats(&[v]).to_string();
            let number = text.trim_matches(|c| c == '[' || c == ']').replace(' ', "");
            assert_eq!(
                number.parse::<f32>().unwrap().to_bits(),
                v.to_bits(),
                "{text}"
            );
        }
    }
}
