//! The quantised network read back from a `.qnn` file and evaluated with
//! the engine's integer arithmetic, written independently of the engine
//! (`quince::eval::nnue`) so the two can check each other.

use crate::data::Sample;
use crate::inputs::InputLayout;
use crate::network::{Header, bucket, read_header};

const QA: i32 = 255;
const QB: i32 = 64;
const SCALE: i64 = 400;

/// A parsed `.qnn` file.
pub struct Quantised {
    pub hidden: usize,
    pub buckets: usize,
    /// The input layout the file names (samples must be built with it).
    pub inputs: InputLayout,
    feature_weights: Vec<i16>,
    feature_biases: Vec<i16>,
    /// `[bucket][2H]`.
    output_weights: Vec<i16>,
    output_biases: Vec<i32>,
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
        if l1 > 0 {
            return Err(format!(
                "a hidden layer of {l1} units: no quantised form exists yet"
            ));
        }
        let words = inputs.inputs() * hidden + hidden + 2 * hidden * buckets;
        if hidden == 0 || buckets == 0 || bytes.len() != start + 2 * words + 4 * buckets {
            return Err(format!(
                "{} bytes: not a network of hidden size {hidden} with {buckets} buckets",
                bytes.len()
            ));
        }
        let values: Vec<i16> = bytes[start..start + 2 * words]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let (feature_weights, rest) = values.split_at(inputs.inputs() * hidden);
        let (feature_biases, output_weights) = rest.split_at(hidden);
        let output_biases = bytes[start + 2 * words..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Quantised {
            hidden,
            buckets,
            inputs,
            feature_weights: feature_weights.to_vec(),
            feature_biases: feature_biases.to_vec(),
            output_weights: output_weights.to_vec(),
            output_biases,
        })
    }

    /// Centipawns for the side to move, as the engine computes them.
    pub fn evaluate(&self, sample: &Sample) -> i32 {
        let h = self.hidden;
        let b = bucket(sample.ours().len(), self.buckets);
        let weights = &self.output_weights[b * 2 * h..(b + 1) * 2 * h];
        // i64 per term, so any width sums exactly (the engine sums runs of
        // 256 terms in i32 and adds them in i64: the same integer).
        let mut sum = 0i64;
        for (side, features) in [sample.ours(), sample.theirs()].into_iter().enumerate() {
            let mut acc = self.feature_biases.clone();
            for &f in features {
                let row = &self.feature_weights[f as usize * h..(f as usize + 1) * h];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a = a.wrapping_add(*w);
                }
            }
            for (j, &a) in acc.iter().enumerate() {
                let c = a.clamp(0, QA as i16);
                let cw = c.wrapping_mul(weights[side * h + j]);
                sum += i64::from(cw) * i64::from(c);
            }
        }
        let out = sum / i64::from(QA) + i64::from(self.output_biases[b]);
        (out * SCALE / i64::from(QA * QB)).clamp(-20_000, 20_000) as i32
    }
}
