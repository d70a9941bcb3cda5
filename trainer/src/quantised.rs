//! The quantised network read back from a `.qnn` file and evaluated with
//! the engine's integer arithmetic, written independently of the engine
//! (`quince::eval::nnue`) so the two can check each other.

use crate::data::{INPUTS, Sample};

const QA: i32 = 255;
const QB: i32 = 64;
const SCALE: i64 = 400;

/// A parsed `.qnn` file.
pub struct Quantised {
    pub hidden: usize,
    feature_weights: Vec<i16>,
    feature_biases: Vec<i16>,
    output_weights: Vec<i16>,
    output_bias: i32,
}

impl Quantised {
    pub fn parse(bytes: &[u8]) -> Result<Quantised, String> {
        if bytes.len() < 8 || &bytes[..4] != b"QNN1" {
            return Err("not a .qnn network (it must start with QNN1)".into());
        }
        let hidden = u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes")) as usize;
        let words = INPUTS * hidden + 3 * hidden;
        if hidden == 0 || bytes.len() != 8 + 2 * words + 4 {
            return Err(format!(
                "{} bytes: not a network of hidden size {hidden}",
                bytes.len()
            ));
        }
        let values: Vec<i16> = bytes[8..8 + 2 * words]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let (feature_weights, rest) = values.split_at(INPUTS * hidden);
        let (feature_biases, output_weights) = rest.split_at(hidden);
        let tail = &bytes[8 + 2 * words..];
        Ok(Quantised {
            hidden,
            feature_weights: feature_weights.to_vec(),
            feature_biases: feature_biases.to_vec(),
            output_weights: output_weights.to_vec(),
            output_bias: i32::from_le_bytes(tail.try_into().expect("4 bytes")),
        })
    }

    /// Centipawns for the side to move, as the engine computes them.
    pub fn evaluate(&self, sample: &Sample) -> i32 {
        let h = self.hidden;
        // i64: two halves of up to 256 terms each can pass i32's range.
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
                let cw = c.wrapping_mul(self.output_weights[side * h + j]);
                sum += i64::from(cw) * i64::from(c);
            }
        }
        let out = sum / i64::from(QA) + i64::from(self.output_bias);
        (out * SCALE / i64::from(QA * QB)).clamp(-20_000, 20_000) as i32
    }
}
