//! The float network `768 K -> H x 2 -> 1` (SCReLU) with `K` king buckets
//! (the input layout: [`InputLayout`]) and `B` output buckets (one output
//! layer per band of material, chosen by the number of pieces on the
//! board: [`bucket`]), its gradients, and its quantised export (`.qnn`,
//! the file the engine embeds). With `L1 > 0`, a hidden layer sits
//! between the accumulators and the output ([`crate::hidden_layer`]).
//!
//! Parameters live in one flat `Vec<f32>` (feature weights, feature biases,
//! output weights, output bias) so the optimiser and the gradient sums are
//! single loops over slices.

use crate::data::{Sample, sigmoid};
use crate::hidden_layer;
use crate::inputs::{InputLayout, PER_BUCKET};

/// Scales of the quantised network (the engine's `QA` and `QB`).
pub const QA: f32 = 255.0;
pub const QB: f32 = 64.0;
/// Scale of a hidden layer's weights (the engine's `QL1`): 16-bit, since
/// at 64 (8 bits) the layer's small weights lost too much (v12's first
/// export: 5.4 cp mean difference from the float network on held-out
/// positions, `quince-train quant-error`).
pub const QL1: f32 = 1024.0;
/// Weights are kept within this bound so that quantised values fit i16
/// and the engine's `c * w` products fit 16 bits.
pub const CLIP: f32 = 1.98;

/// The output bucket of a position with `pieces` pieces (kings included)
/// among `buckets`: equal bands of the 2..=32 range, so that an endgame
/// and a middlegame are scored by different output weights (the
/// engine's `quince::eval::nnue::bucket`, restated; a test compares them).
pub fn bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) * buckets / 32).min(buckets - 1)
}

/// What a trainer file's header says.
#[derive(Debug)]
pub struct Header {
    pub hidden: usize,
    pub buckets: usize,
    /// Units of the hidden layer (0: none).
    pub l1: usize,
    pub inputs: InputLayout,
    /// Where the values start.
    pub start: usize,
}

/// Reads the header of a `.qnn` (`kind` b'N') or float checkpoint (b'F'):
/// `QNx1` then `u32` H (one output bucket, plain inputs); `QNx2` then H
/// and `u32` buckets; `QNx3` then H, buckets, `u32` flags (bit 0:
/// mirrored) and the `u8` king-bucket table `[64]`.
pub fn read_header(bytes: &[u8], kind: u8) -> Result<Header, String> {
    let word = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize)
            .ok_or("the file ends inside its header")
    };
    let name = |v: u8| String::from_utf8_lossy(&[b'Q', b'N', kind, v]).into_owned();
    match bytes.get(..4) {
        Some([b'Q', b'N', k, b'1']) if *k == kind => Ok(Header {
            hidden: word(4)?,
            buckets: 1,
            l1: 0,
            inputs: InputLayout::NONE,
            start: 8,
        }),
        Some([b'Q', b'N', k, b'2']) if *k == kind => Ok(Header {
            hidden: word(4)?,
            buckets: word(8)?,
            l1: 0,
            inputs: InputLayout::NONE,
            start: 12,
        }),
        Some([b'Q', b'N', k, version @ (b'3' | b'4')]) if *k == kind => {
            let flags = word(12)?;
            if flags > 1 {
                return Err(format!(
                    "flags {flags:#x}: only bit 0 (mirrored) is defined"
                ));
            }
            let table = bytes
                .get(16..80)
                .ok_or("the file ends inside its king-bucket table")?;
            let l1 = if *version == b'4' { word(80)? } else { 0 };
            Ok(Header {
                hidden: word(4)?,
                buckets: word(8)?,
                l1,
                inputs: InputLayout::from_table(table.try_into().expect("64 bytes"), flags == 1)?,
                start: if *version == b'4' { 84 } else { 80 },
            })
        }
        _ => Err(format!(
            "it must start with {}, {}, {} or {}",
            name(b'1'),
            name(b'2'),
            name(b'3'),
            name(b'4')
        )),
    }
}

/// The header bytes for `magic` (`b"QNN"` or `b"QNF"`): the oldest format
/// that holds the network, so a plain network's file is what it always
/// was (v10's reproduction stays bit for bit). Version 4 is version 3
/// followed by `u32` L1, the hidden layer's units.
fn write_header(
    magic: &[u8; 3],
    hidden: usize,
    buckets: usize,
    l1: usize,
    inputs: &InputLayout,
) -> Vec<u8> {
    let mut bytes = magic.to_vec();
    let version = if l1 > 0 {
        b'4'
    } else if inputs.king_dependent() {
        b'3'
    } else if buckets != 1 || magic == b"QNF" {
        b'2'
    } else {
        b'1'
    };
    bytes.push(version);
    bytes.extend_from_slice(&(hidden as u32).to_le_bytes());
    if version >= b'2' {
        bytes.extend_from_slice(&(buckets as u32).to_le_bytes());
    }
    if version >= b'3' {
        bytes.extend_from_slice(&u32::from(inputs.mirrored).to_le_bytes());
        bytes.extend_from_slice(&inputs.king_buckets);
    }
    if version == b'4' {
        bytes.extend_from_slice(&(l1 as u32).to_le_bytes());
    }
    bytes
}

/// Float weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub hidden: usize,
    /// Output buckets (1: a single output layer, the `QNN1` format).
    pub buckets: usize,
    /// Units of the hidden layer between the accumulators and the output
    /// (0: none, the output reads the accumulators).
    pub l1: usize,
    /// Which feature weights a position's pieces use.
    pub inputs: InputLayout,
    /// Every parameter in [`Layout`]'s order; while training a factorised
    /// network (see [`Network::factorise`]), followed by the 768 x H
    /// shared feature weights.
    pub params: Vec<f32>,
}

/// Offsets of the parameter groups in `params`.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub feature_biases: usize,
    /// The hidden layer's weights `[bucket][L1][H]` and biases
    /// `[bucket][L1]` (empty without one).
    pub l1_weights: usize,
    pub l1_biases: usize,
    pub output_weights: usize,
    pub output_bias: usize,
    pub len: usize,
}

impl Layout {
    /// Feature weights are `[inputs][H]`; then, with a hidden layer of L1
    /// units, its weights `[bucket][L1][H]` and biases `[bucket][L1]`;
    /// output weights `[bucket][2H]` (with a hidden layer `[bucket][L1]`),
    /// output biases `[bucket]`.
    pub fn new(hidden: usize, buckets: usize, inputs: usize, l1: usize) -> Layout {
        let feature_biases = inputs * hidden;
        let l1_weights = feature_biases + hidden;
        let l1_biases = l1_weights + buckets * l1 * hidden;
        let output_weights = l1_biases + buckets * l1;
        let per_bucket = if l1 > 0 { l1 } else { 2 * hidden };
        let output_bias = output_weights + per_bucket * buckets;
        Layout {
            feature_biases,
            l1_weights,
            l1_biases,
            output_weights,
            output_bias,
            len: output_bias + buckets,
        }
    }
}

/// SCReLU: `clamp(x, 0, 1)^2`.
#[inline]
pub(crate) fn screlu(x: f32) -> f32 {
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
    /// weights (±1/sqrt(2H)); biases zero. With a hidden layer of `l1`
    /// units, its weights ±1/sqrt(H) and the output's ±1/sqrt(L1); without
    /// one (0) the weights of every network before the hidden layer.
    pub fn random(
        hidden: usize,
        buckets: usize,
        l1: usize,
        inputs: InputLayout,
        seed: u64,
    ) -> Network {
        let layout = Layout::new(hidden, buckets, inputs.inputs(), l1);
        let mut rng = SplitMix64(seed);
        let mut params = vec![0.0; layout.len];
        for w in &mut params[..layout.feature_biases] {
            *w = 0.1 * rng.symmetric();
        }
        let out_scale = if l1 > 0 {
            let l1_scale = 1.0 / (hidden as f32).sqrt();
            for w in &mut params[layout.l1_weights..layout.l1_biases] {
                *w = l1_scale * rng.symmetric();
            }
            1.0 / (l1 as f32).sqrt()
        } else {
            1.0 / (2.0 * hidden as f32).sqrt()
        };
        for w in &mut params[layout.output_weights..layout.output_bias] {
            *w = out_scale * rng.symmetric();
        }
        Network {
            hidden,
            buckets,
            l1,
            inputs,
            params,
        }
    }

    pub fn layout(&self) -> Layout {
        Layout::new(self.hidden, self.buckets, self.inputs.inputs(), self.l1)
    }

    /// Adds a factoriser: 768 x H feature weights shared by every king
    /// bucket, which each bucketed feature adds to its own row (starting
    /// at zero, so the network's output is unchanged). With king buckets
    /// each bucket's rows see only the positions with the king there (a
    /// quarter of the data for m4, less for a rare bucket); the shared rows
    /// learn what a piece on a square is worth wherever the king is, from
    /// every position, and the buckets only the differences. Exported and
    /// saved networks carry the sum, in the plain layout.
    pub fn factorise(&mut self) {
        if !self.factorised() {
            let len = self.params.len() + PER_BUCKET * self.hidden;
            self.params.resize(len, 0.0);
        }
    }

    /// Whether the network trains with a factoriser.
    pub fn factorised(&self) -> bool {
        self.params.len() > self.layout().len
    }

    /// The offset of feature `f`'s shared row, if factorised (`l`: the
    /// network's layout, which the callers have at hand in their loops).
    #[inline]
    fn factor_row(&self, l: &Layout, f: u16) -> Option<usize> {
        (self.params.len() > l.len).then(|| l.len + (usize::from(f) % PER_BUCKET) * self.hidden)
    }

    /// The parameters in [`Layout`]'s order with the factoriser's rows
    /// added to every bucket's (each weight kept within ±[`CLIP`], as
    /// the quantisation expects), or as they are without one.
    pub fn merged_params(&self) -> Vec<f32> {
        let l = self.layout();
        let h = self.hidden;
        let mut params = self.params[..l.len].to_vec();
        if self.factorised() {
            let shared = &self.params[l.len..];
            for (i, w) in params[..l.feature_biases].iter_mut().enumerate() {
                let (feature, j) = (i / h, i % h);
                *w = (*w + shared[(feature % PER_BUCKET) * h + j]).clamp(-CLIP, CLIP);
            }
        }
        params
    }

    /// Offset of `sample`'s output weights in `params` (its bucket's
    /// `2H`), and of its output bias.
    fn output_offsets(&self, sample: &Sample) -> (usize, usize) {
        let l = self.layout();
        let b = self.bucket_of(sample);
        (l.output_weights + b * 2 * self.hidden, l.output_bias + b)
    }

    /// The output bucket of `sample`.
    pub(crate) fn bucket_of(&self, sample: &Sample) -> usize {
        bucket(sample.ours().len(), self.buckets)
    }

    /// Both accumulators of `sample` (side to move first).
    #[inline(always)] // see `instruction_set::Kernel`
    fn accumulators(&self, sample: &Sample) -> (Vec<f32>, Vec<f32>) {
        let l = self.layout();
        (
            self.accumulator(&l, sample.ours()),
            self.accumulator(&l, sample.theirs()),
        )
    }

    /// The feature biases plus the rows of `features`.
    #[inline(always)] // see `instruction_set::Kernel`
    fn accumulator(&self, l: &Layout, features: &[u16]) -> Vec<f32> {
        let h = self.hidden;
        let mut acc = self.params[l.feature_biases..l.feature_biases + h].to_vec();
        for &f in features {
            let row = &self.params[f as usize * h..(f as usize + 1) * h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
            if let Some(shared) = self.factor_row(l, f) {
                for (a, w) in acc.iter_mut().zip(&self.params[shared..shared + h]) {
                    *a += w;
                }
            }
        }
        acc
    }

    /// The raw output `o` (centipawns / 400) of `sample`.
    #[inline(always)] // see `instruction_set::Kernel`
    pub fn output(&self, sample: &Sample) -> f32 {
        let (ours, theirs) = self.accumulators(sample);
        self.output_of(sample, &ours, &theirs)
    }

    #[inline(always)] // see `instruction_set::Kernel`
    fn output_of(&self, sample: &Sample, ours: &[f32], theirs: &[f32]) -> f32 {
        if self.l1 > 0 {
            return hidden_layer::forward(self, self.bucket_of(sample), ours, theirs).output;
        }
        let (weights, bias) = self.output_offsets(sample);
        let w = &self.params[weights..weights + 2 * self.hidden];
        let (w_ours, w_theirs) = w.split_at(self.hidden);
        let mut o = self.params[bias];
        for j in 0..self.hidden {
            o += screlu(ours[j]) * w_ours[j] + screlu(theirs[j]) * w_theirs[j];
        }
        o
    }

    /// The squared error of `sample`, adding its gradient to `grad`.
    #[inline(always)] // see `instruction_set::Kernel`
    pub fn backward(&self, sample: &Sample, grad: &mut [f32]) -> f32 {
        let l = self.layout();
        let h = self.hidden;
        let (ours, theirs) = self.accumulators(sample);
        let b = self.bucket_of(sample);
        let through_l1 = (self.l1 > 0).then(|| hidden_layer::forward(self, b, &ours, &theirs));
        let o = match &through_l1 {
            Some(forward) => forward.output,
            None => self.output_of(sample, &ours, &theirs),
        };
        let p = sigmoid(o);
        let error = p - sample.target;
        let g = 2.0 * error * p * (1.0 - p);
        // The gradient reaching each accumulator, from the output (or the
        // hidden layer) above it.
        let d_accs = if let Some(forward) = &through_l1 {
            hidden_layer::backward(self, b, forward, g, grad)
        } else {
            let (weights, bias) = self.output_offsets(sample);
            grad[bias] += g;
            let w = &self.params[weights..weights + 2 * h];
            let mut d_accs = [vec![0.0f32; h], vec![0.0f32; h]];
            for (side, acc) in [&ours, &theirs].into_iter().enumerate() {
                for j in 0..h {
                    let x = acc[j];
                    grad[weights + side * h + j] += g * screlu(x);
                    if x > 0.0 && x < 1.0 {
                        d_accs[side][j] = g * w[side * h + j] * 2.0 * x;
                    }
                }
            }
            d_accs
        };
        for (d_acc, features) in d_accs.iter().zip([sample.ours(), sample.theirs()]) {
            for (gb, d) in grad[l.feature_biases..l.feature_biases + h]
                .iter_mut()
                .zip(d_acc)
            {
                *gb += d;
            }
            for &f in features {
                let row = &mut grad[f as usize * h..(f as usize + 1) * h];
                for (gw, d) in row.iter_mut().zip(d_acc) {
                    *gw += d;
                }
                if let Some(shared) = self.factor_row(&l, f) {
                    for (gw, d) in grad[shared..shared + h].iter_mut().zip(d_acc) {
                        *gw += d;
                    }
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
        for w in &mut self.params[l.len..] {
            *w = w.clamp(-CLIP, CLIP);
        }
    }

    /// The quantised `.qnn` file (format in `codegen/src/network.rs`):
    /// `QNN1` for one bucket and plain inputs (the format before buckets,
    /// unchanged), `QNN2` with the bucket count after H, `QNN3` with the
    /// king-bucket layout as well, `QNN4` with a hidden layer.
    ///
    /// A hidden layer's weights become `i16` at scale [`QL1`] (the clip
    /// keeps them within ±1.98, so within ±2028); what follows them (its
    /// biases, the output weights and biases, `L1 + L1 + 1` numbers per
    /// bucket) stays `f32`, since the engine runs those few in floats.
    pub fn export(&self) -> Vec<u8> {
        let l = self.layout();
        let params = self.merged_params();
        let mut bytes = write_header(b"QNN", self.hidden, self.buckets, self.l1, &self.inputs);
        let q16 = |x: f32, scale: f32| (x * scale).round().clamp(-32768.0, 32767.0) as i16;
        for &w in &params[..l.l1_weights] {
            bytes.extend_from_slice(&q16(w, QA).to_le_bytes());
        }
        if self.l1 > 0 {
            for &w in &params[l.l1_weights..l.l1_biases] {
                bytes.extend_from_slice(&q16(w, QL1).to_le_bytes());
            }
            for &w in &params[l.l1_biases..] {
                bytes.extend_from_slice(&w.to_le_bytes());
            }
            return bytes;
        }
        for &w in &params[l.output_weights..l.output_bias] {
            bytes.extend_from_slice(&q16(w, QB).to_le_bytes());
        }
        for &b in &params[l.output_bias..] {
            let bias = (b * QA * QB).round() as i32;
            bytes.extend_from_slice(&bias.to_le_bytes());
        }
        bytes
    }

    /// Float checkpoint: `QNF2`, `u32` H, `u32` buckets, then every
    /// parameter as f32 (`QNF1`, without the bucket count, is one bucket;
    /// `QNF3` adds the king-bucket layout as `QNN3` does). A factorised
    /// network saves its merged weights: `--init` from it starts a new
    /// factoriser at zero, if asked for one.
    pub fn save_float(&self) -> Vec<u8> {
        let mut bytes = write_header(b"QNF", self.hidden, self.buckets, self.l1, &self.inputs);
        for p in &self.merged_params() {
            bytes.extend_from_slice(&p.to_le_bytes());
        }
        bytes
    }

    /// Reads a float checkpoint written by [`Network::save_float`].
    pub fn load_float(bytes: &[u8]) -> Result<Network, String> {
        let Header {
            hidden,
            buckets,
            l1,
            inputs,
            start,
        } = read_header(bytes, b'F').map_err(|e| format!("not a float checkpoint: {e}"))?;
        if hidden == 0 || buckets == 0 || (l1 > 0 && !hidden.is_multiple_of(2)) {
            return Err(format!("hidden size {hidden}, {buckets} buckets, L1 {l1}"));
        }
        let expected = start + 4 * Layout::new(hidden, buckets, inputs.inputs(), l1).len;
        if bytes.len() != expected {
            return Err(format!(
                "{} bytes, expected {expected} for hidden size {hidden}, {buckets} buckets and {} inputs",
                bytes.len(),
                inputs.inputs()
            ));
        }
        let params = bytes[start..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Network {
            hidden,
            buckets,
            l1,
            inputs,
            params,
        })
    }
}
