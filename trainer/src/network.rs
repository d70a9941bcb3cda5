//! The float network `768 -> H x 2 -> 1` (SCReLU), its gradients, and its
//! quantised export (`.qnn`, the file the engine embeds).
//!
//! Parameters live in one flat `Vec<f32>` (feature weights, feature biases,
//! output weights, output bias) so the optimiser and the gradient sums are
//! single loops over slices.

use crate::data::{INPUTS, Sample, sigmoid};

/// Scales of the quantised network (the engine's `QA` and `QB`).
pub const QA: f32 = 255.0;
pub const QB: f32 = 64.0;
/// Weights are kept within this bound so that quantised values fit i16
/// and the engine's `c * w` products fit 16 bits.
pub const CLIP: f32 = 1.98;

/// Float weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub hidden: usize,
    pub params: Vec<f32>,
}

/// Offsets of the parameter groups in `params`.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub feature_biases: usize,
    pub output_weights: usize,
    pub output_bias: usize,
    pub len: usize,
}

impl Layout {
    pub fn new(hidden: usize) -> Layout {
        let feature_biases = INPUTS * hidden;
        let output_weights = feature_biases + hidden;
        let output_bias = output_weights + 2 * hidden;
        Layout {
            feature_biases,
            output_weights,
            output_bias,
            len: output_bias + 1,
        }
    }
}

/// SCReLU: `clamp(x, 0, 1)^2`.
#[inline]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// Tiny deterministic generator for the initial weights.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[-1, 1)`.
    pub fn symmetric(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

impl Network {
    /// Random feature weights (±0.1: about 30 pieces sum to an accumulator
    /// spread of a few tenths, inside SCReLU's active range) and output
    /// weights (±1/sqrt(2H)); biases zero.
    pub fn random(hidden: usize, seed: u64) -> Network {
        let layout = Layout::new(hidden);
        let mut rng = SplitMix64(seed);
        let mut params = vec![0.0; layout.len];
        for w in &mut params[..layout.feature_biases] {
            *w = 0.1 * rng.symmetric();
        }
        let out_scale = 1.0 / (2.0 * hidden as f32).sqrt();
        for w in &mut params[layout.output_weights..layout.output_bias] {
            *w = out_scale * rng.symmetric();
        }
        Network { hidden, params }
    }

    pub fn layout(&self) -> Layout {
        Layout::new(self.hidden)
    }

    /// Both accumulators of `sample` (side to move first).
    fn accumulators(&self, sample: &Sample) -> (Vec<f32>, Vec<f32>) {
        let l = self.layout();
        let h = self.hidden;
        let bias = &self.params[l.feature_biases..l.feature_biases + h];
        let sum = |features: &[u16]| {
            let mut acc = bias.to_vec();
            for &f in features {
                let row = &self.params[f as usize * h..(f as usize + 1) * h];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
            acc
        };
        (sum(sample.ours()), sum(sample.theirs()))
    }

    /// The raw output `o` (centipawns / 400) of `sample`.
    pub fn output(&self, sample: &Sample) -> f32 {
        let (ours, theirs) = self.accumulators(sample);
        self.output_of(&ours, &theirs)
    }

    fn output_of(&self, ours: &[f32], theirs: &[f32]) -> f32 {
        let l = self.layout();
        let w = &self.params[l.output_weights..l.output_bias];
        let (w_ours, w_theirs) = w.split_at(self.hidden);
        let mut o = self.params[l.output_bias];
        for j in 0..self.hidden {
            o += screlu(ours[j]) * w_ours[j] + screlu(theirs[j]) * w_theirs[j];
        }
        o
    }

    /// The squared error of `sample`, adding its gradient to `grad`.
    pub fn backward(&self, sample: &Sample, grad: &mut [f32]) -> f32 {
        let l = self.layout();
        let h = self.hidden;
        let (ours, theirs) = self.accumulators(sample);
        let o = self.output_of(&ours, &theirs);
        let p = sigmoid(o);
        let error = p - sample.target;
        let g = 2.0 * error * p * (1.0 - p);
        grad[l.output_bias] += g;
        let w = &self.params[l.output_weights..l.output_bias];
        for (side, (acc, features)) in [(&ours, sample.ours()), (&theirs, sample.theirs())]
            .into_iter()
            .enumerate()
        {
            let mut d_acc = vec![0.0f32; h];
            for j in 0..h {
                let x = acc[j];
                grad[l.output_weights + side * h + j] += g * screlu(x);
                if x > 0.0 && x < 1.0 {
                    d_acc[j] = g * w[side * h + j] * 2.0 * x;
                }
            }
            for (gb, d) in grad[l.feature_biases..l.feature_biases + h]
                .iter_mut()
                .zip(&d_acc)
            {
                *gb += d;
            }
            for &f in features {
                let row = &mut grad[f as usize * h..(f as usize + 1) * h];
                for (gw, d) in row.iter_mut().zip(&d_acc) {
                    *gw += d;
                }
            }
        }
        error * error
    }

    /// Keeps every weight within ±[`CLIP`] (see there).
    pub fn clip(&mut self) {
        let l = self.layout();
        for w in &mut self.params[..l.output_bias] {
            *w = w.clamp(-CLIP, CLIP);
        }
    }

    /// The quantised `.qnn` file (format in `codegen/src/network.rs`).
    pub fn export(&self) -> Vec<u8> {
        let l = self.layout();
        let mut bytes = b"QNN1".to_vec();
        bytes.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        let q16 = |x: f32, scale: f32| (x * scale).round().clamp(-32768.0, 32767.0) as i16;
        for &w in &self.params[..l.output_weights] {
            bytes.extend_from_slice(&q16(w, QA).to_le_bytes());
        }
        for &w in &self.params[l.output_weights..l.output_bias] {
            bytes.extend_from_slice(&q16(w, QB).to_le_bytes());
        }
        let bias = (self.params[l.output_bias] * QA * QB).round() as i32;
        bytes.extend_from_slice(&bias.to_le_bytes());
        bytes
    }

    /// Float checkpoint: `QNF1`, `u32` H, then every parameter as f32.
    pub fn save_float(&self) -> Vec<u8> {
        let mut bytes = b"QNF1".to_vec();
        bytes.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        for p in &self.params {
            bytes.extend_from_slice(&p.to_le_bytes());
        }
        bytes
    }

    /// Reads a float checkpoint written by [`Network::save_float`].
    pub fn load_float(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < 8 || &bytes[..4] != b"QNF1" {
            return Err("not a float checkpoint (it must start with QNF1)".into());
        }
        let hidden = u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes")) as usize;
        let expected = 8 + 4 * Layout::new(hidden).len;
        if hidden == 0 || bytes.len() != expected {
            return Err(format!(
                "{} bytes, expected {expected} for hidden size {hidden}",
                bytes.len()
            ));
        }
        let params = bytes[8..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Network { hidden, params })
    }
}
