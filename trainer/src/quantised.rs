//! The quantised network read back from a `.qnn` file and evaluated with
//! the engine's integer arithmetic, written independently of the engine
//! (`quince::eval::nnue`) so the two can check each other.
//!
//! A hidden layer (`QNN4`) is computed as the engine does: each product
//! of two clamped accumulator values shifted down (rounded) to `0..=508`,
//! the `i16` weights' dot products exact in integers, then the layer's
//! few units in `f32` with the same operations in the same order, so
//! that the two give the same centipawns to the bit.

use crate::data::Sample;
use crate::inputs::InputLayout;
use crate::network::{Header, bucket, read_header};

const QA: i32 = 255;
const QB: i32 = 64;
const SCALE: i64 = 400;
/// A hidden layer's dot product in float units: the products are
/// `(c * c' + 64) >> 7` of values at scale `QA`, the weights at scale
/// 1024.
const L1_UNIT: f32 = 128.0 / (255.0 * 255.0 * 1024.0);

/// A hidden layer: `[bucket][L1][H]` weights and, per bucket, `L1`
/// biases, `L1` output weights and an output bias.
struct HiddenLayer {
    units: usize,
    weights: Vec<i16>,
    biases: Vec<f32>,
    output_weights: Vec<f32>,
    output_biases: Vec<f32>,
}

/// A parsed `.qnn` file.
pub struct Quantised {
    pub hidden: usize,
    pub buckets: usize,
    /// The input layout the file names (samples must be built with it).
    pub inputs: InputLayout,
    feature_weights: Vec<i16>,
    feature_biases: Vec<i16>,
    /// `[bucket][2H]` (empty with a hidden layer).
    output_weights: Vec<i16>,
    output_biases: Vec<i32>,
    hidden_layer: Option<HiddenLayer>,
}

impl Quantised {
    pub fn parse(bytes: &[u8]) -> Result<Quantised, String> {
        let Header {
            hidden,
            buckets,
            l1,
            inputs,
            start,
        } = read_header(bytes, b'N').map_err(|e| format!("not a .qnn network: {e}"))?;
        // The trainer's own bounds, checked first so that no size below
        // overflows on a damaged header.
        if hidden > 1 << 16 || buckets > 16 || l1 > 64 {
            return Err(format!(
                "hidden size {hidden}, {buckets} buckets and L1 {l1}: beyond what the trainer writes"
            ));
        }
        let features = inputs.inputs() * hidden + hidden;
        let l1_sizes = (2 * buckets * l1 * hidden, 4 * (2 * buckets * l1 + buckets));
        let expected = if l1 > 0 {
            start + 2 * features + l1_sizes.0 + l1_sizes.1
        } else {
            start + 2 * (features + 2 * hidden * buckets) + 4 * buckets
        };
        if hidden == 0 || buckets == 0 || bytes.len() != expected || (l1 > 0 && hidden % 2 == 1) {
            return Err(format!(
                "{} bytes: not a network of hidden size {hidden} with {buckets} buckets and L1 {l1}",
                bytes.len()
            ));
        }
        let i16s = |from: usize, n: usize| -> Vec<i16> {
            bytes[from..from + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect()
        };
        let feature_weights = i16s(start, inputs.inputs() * hidden);
        let feature_biases = i16s(start + 2 * inputs.inputs() * hidden, hidden);
        let after_features = start + 2 * features;
        if l1 > 0 {
            let weights = i16s(after_features, buckets * l1 * hidden);
            let mut floats = bytes[after_features + l1_sizes.0..]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
            let mut take = |n: usize| floats.by_ref().take(n).collect::<Vec<f32>>();
            let biases = take(buckets * l1);
            let output_weights = take(buckets * l1);
            let output_biases = take(buckets);
            return Ok(Quantised {
                hidden,
                buckets,
                inputs,
                feature_weights,
                feature_biases,
                output_weights: Vec::new(),
                output_biases: Vec::new(),
                hidden_layer: Some(HiddenLayer {
                    units: l1,
                    weights,
                    biases,
                    output_weights,
                    output_biases,
                }),
            });
        }
        let output_weights = i16s(after_features, 2 * hidden * buckets);
        let output_biases = bytes[after_features + 4 * hidden * buckets..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Quantised {
            hidden,
            buckets,
            inputs,
            feature_weights,
            feature_biases,
            output_weights,
            output_biases,
            hidden_layer: None,
        })
    }

    /// Centipawns for the side to move, as the engine computes them.
    pub fn evaluate(&self, sample: &Sample) -> i32 {
        let h = self.hidden;
        let b = bucket(sample.ours().len(), self.buckets);
        let accumulators = [sample.ours(), sample.theirs()].map(|features| {
            let mut acc = self.feature_biases.clone();
            for &f in features {
                let row = &self.feature_weights[f as usize * h..(f as usize + 1) * h];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a = a.wrapping_add(*w);
                }
            }
            acc
        });
        if let Some(layer) = &self.hidden_layer {
            return self.through_hidden_layer(layer, b, &accumulators);
        }
        let weights = &self.output_weights[b * 2 * h..(b + 1) * 2 * h];
        // i64 per term, so any width sums exactly (the engine sums runs of
        // 256 terms in i32 and adds them in i64: the same integer).
        let mut sum = 0i64;
        for (side, acc) in accumulators.iter().enumerate() {
            for (j, &a) in acc.iter().enumerate() {
                let c = a.clamp(0, QA as i16);
                let cw = c.wrapping_mul(weights[side * h + j]);
                sum += i64::from(cw) * i64::from(c);
            }
        }
        let out = sum / i64::from(QA) + i64::from(self.output_biases[b]);
        (out * SCALE / i64::from(QA * QB)).clamp(-20_000, 20_000) as i32
    }

    /// The evaluation through a hidden layer, from both accumulators
    /// (side to move first).
    fn through_hidden_layer(&self, layer: &HiddenLayer, b: usize, accs: &[Vec<i16>; 2]) -> i32 {
        let half = self.hidden / 2;
        let clamped = |a: i16| i64::from(a.clamp(0, QA as i16));
        let products: Vec<i64> = accs
            .iter()
            .flat_map(|acc| {
                (0..half).map(move |i| (clamped(acc[i]) * clamped(acc[i + half]) + 64) >> 7)
            })
            .collect();
        let n = layer.units;
        let mut out = layer.output_biases[b];
        for k in 0..n {
            let row = &layer.weights[(b * n + k) * self.hidden..(b * n + k + 1) * self.hidden];
            let dot: i64 = row
                .iter()
                .zip(&products)
                .map(|(&w, &p)| i64::from(w) * p)
                .sum();
            let pre = (dot as i32) as f32 * L1_UNIT + layer.biases[b * n + k];
            let y = pre.clamp(0.0, 1.0);
            out += y * y * layer.output_weights[b * n + k];
        }
        ((out * SCALE as f32) as i64).clamp(-20_000, 20_000) as i32
    }
}
