//! The optional hidden layer (`--l1 N`): `accumulators -> pairwise
//! products (H) -> N (SCReLU) -> 1`, one set of its weights per output
//! bucket, and its gradients.
//!
//! Why this shape: the engines that gained from a hidden layer (issue
//! 69's anchors) feed it the *pairwise products* of each accumulator's two
//! halves, `clamp(a[i]) * clamp(a[i + H/2])`, which halves the layer's
//! inputs (H rather than 2H) and, in integers, turns into one `u8` per
//! input for the CPU's `u8 x i8` multiply-add: the cheapest first layer
//! to run. The float model here is that computation before quantisation,
//! so a network trained with it is the one the engine would run.
//!
//! The quantised form (`Network::export`, `QNN4`) and the engine's
//! inference (`quince::eval::nnue`'s `hidden_layer.rs`) turn the products
//! into `u8`-range integers and the layer's weights into `i16`.

use crate::network::{Network, screlu};

/// What the forward pass keeps for the backward pass.
pub struct Forward {
    /// The layer's inputs: the side to move's `H/2` pairwise products,
    /// then its opponent's.
    pub inputs: Vec<f32>,
    /// The clamped accumulators `[side][H]`, whose products the inputs are.
    pub clamped: [Vec<f32>; 2],
    /// The hidden units before their activation.
    pub pre: Vec<f32>,
    /// The raw output `o`.
    pub output: f32,
}

/// The network's output through the hidden layer of bucket `b`, from the
/// accumulators of the side to move (`ours`) and its opponent.
pub fn forward(net: &Network, b: usize, ours: &[f32], theirs: &[f32]) -> Forward {
    let (h, n) = (net.hidden, net.l1);
    let l = net.layout();
    let half = h / 2;
    let clamped =
        [ours, theirs].map(|acc| acc.iter().map(|a| a.clamp(0.0, 1.0)).collect::<Vec<_>>());
    let mut inputs = Vec::with_capacity(h);
    for c in &clamped {
        inputs.extend((0..half).map(|i| c[i] * c[i + half]));
    }
    let weights = &net.params[l.l1_weights + b * n * h..l.l1_weights + (b + 1) * n * h];
    let biases = &net.params[l.l1_biases + b * n..l.l1_biases + (b + 1) * n];
    let pre: Vec<f32> = weights
        .chunks_exact(h)
        .zip(biases)
        .map(|(row, bias)| bias + row.iter().zip(&inputs).map(|(w, x)| w * x).sum::<f32>())
        .collect();
    let out_w = &net.params[l.output_weights + b * n..l.output_weights + (b + 1) * n];
    let output = net.params[l.output_bias + b]
        + pre
            .iter()
            .zip(out_w)
            .map(|(y, w)| screlu(*y) * w)
            .sum::<f32>();
    Forward {
        inputs,
        clamped,
        pre,
        output,
    }
}

/// Adds to `grad` the gradient of the hidden layer's and the output's
/// parameters for `d_output` (the loss's derivative by `o`), and returns
/// the gradient reaching each accumulator `[side][H]`.
pub fn backward(
    net: &Network,
    b: usize,
    forward: &Forward,
    d_output: f32,
    grad: &mut [f32],
) -> [Vec<f32>; 2] {
    let (h, n) = (net.hidden, net.l1);
    let l = net.layout();
    let half = h / 2;
    grad[l.output_bias + b] += d_output;
    let out_w = l.output_weights + b * n;
    let mut d_pre = vec![0.0f32; n];
    for (k, &y) in forward.pre.iter().enumerate() {
        grad[out_w + k] += d_output * screlu(y);
        if y > 0.0 && y < 1.0 {
            d_pre[k] = d_output * net.params[out_w + k] * 2.0 * y;
        }
    }
    let weights = l.l1_weights + b * n * h;
    let mut d_inputs = vec![0.0f32; h];
    for (k, &d) in d_pre.iter().enumerate() {
        if d == 0.0 {
            continue;
        }
        grad[l.l1_biases + b * n + k] += d;
        let row = weights + k * h;
        for (j, &x) in forward.inputs.iter().enumerate() {
            grad[row + j] += d * x;
            d_inputs[j] += d * net.params[row + j];
        }
    }
    let mut d_accs = [vec![0.0f32; h], vec![0.0f32; h]];
    for (side, c) in forward.clamped.iter().enumerate() {
        let d_acc = &mut d_accs[side];
        for i in 0..half {
            let d = d_inputs[side * half + i];
            // clamp's slope is 1 strictly inside (0, 1), 0 outside.
            let inside = |x: f32| x > 0.0 && x < 1.0;
            if inside(c[i]) {
                d_acc[i] = d * c[i + half];
            }
            if inside(c[i + half]) {
                d_acc[i + half] = d * c[i];
            }
        }
    }
    d_accs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{Sample, sample};
    use crate::inputs::InputLayout;
    use crate::tests::numeric_gradient;
    use crate::train::{Settings, loss, train};
    use quince::Position;

    fn samples() -> Vec<Sample> {
        [
            quince::position::STARTPOS_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        ]
        .iter()
        .enumerate()
        .map(|(i, fen)| {
            let pos = Position::from_fen(fen).unwrap();
            sample(&pos, 90.0 * i as f32 - 120.0, 0.5, 0.2, &InputLayout::NONE)
        })
        .collect()
    }

    /// A small network with a hidden layer whose units sit where every
    /// activation has a slope: accumulators inside (0, 1) and hidden
    /// units too.
    fn network(buckets: usize) -> Network {
        let mut net = Network::random(16, buckets, 4, InputLayout::NONE, 7);
        let l = net.layout();
        for b in &mut net.params[l.feature_biases..l.l1_weights] {
            *b = 0.45;
        }
        for b in &mut net.params[l.l1_biases..l.output_weights] {
            *b = 0.3;
        }
        net
    }

    #[test]
    fn gradients_match_finite_differences() {
        let net = network(2);
        let l = net.layout();
        for s in samples() {
            let mut grad = vec![0.0; net.params.len()];
            net.backward(&s, &mut grad);
            let b = net.bucket_of(&s);
            let feature = s.ours()[2] as usize;
            let probes = [
                feature * 16 + 3,
                feature * 16 + 11,
                l.feature_biases + 1,
                l.feature_biases + 12,
                l.l1_weights + b * 4 * 16 + 5,
                l.l1_weights + b * 4 * 16 + 3 * 16 + 9,
                l.l1_biases + b * 4 + 2,
                l.output_weights + b * 4 + 1,
                l.output_bias + b,
            ];
            for index in probes {
                let numeric = numeric_gradient(&net, &s, index, 1e-3);
                let analytic = f64::from(grad[index]);
                assert!(
                    (numeric - analytic).abs() <= 1e-5 + 0.02 * numeric.abs(),
                    "param {index}: numeric {numeric}, analytic {analytic}"
                );
            }
            // The other bucket's hidden layer and output get nothing.
            let other = 1 - b;
            let theirs = l.l1_weights + other * 4 * 16..l.l1_weights + (other + 1) * 4 * 16;
            assert!(grad[theirs].iter().all(|&g| g == 0.0));
            assert_eq!(grad[l.output_bias + other], 0.0);
        }
    }

    #[test]
    fn without_a_hidden_layer_the_layout_is_the_plain_networks() {
        // 768 x 16 feature weights, 16 biases, 2 x 32 output weights, 2
        // output biases: the layout of every network before this layer,
        // so their checkpoints and exports read as before.
        let l = crate::network::Layout::new(16, 2, 768, 0);
        assert_eq!(l.output_weights, 768 * 16 + 16);
        assert_eq!(
            (l.output_bias, l.len),
            (l.output_weights + 64, l.output_weights + 66)
        );
        let with = crate::network::Layout::new(16, 2, 768, 4);
        assert_eq!(with.l1_biases - with.l1_weights, 2 * 4 * 16);
        assert_eq!(with.len - with.output_weights, 2 * 4 + 2);
        assert_eq!(
            &Network::random(16, 2, 0, InputLayout::NONE, 7).save_float()[..4],
            b"QNF2"
        );
    }

    #[test]
    fn a_float_checkpoint_keeps_the_layer() {
        let net = network(2);
        let saved = net.save_float();
        assert_eq!(&saved[..4], b"QNF4");
        let back = Network::load_float(&saved).unwrap();
        assert_eq!(back, net);
        // A cut checkpoint is refused.
        assert!(Network::load_float(&saved[..saved.len() - 4]).is_err());
    }

    #[test]
    fn the_export_holds_the_layer_and_evaluates_like_the_float_network() {
        let mut net = network(2);
        // Weights of every sign and size within the clip, so that units
        // fall on both sides of SCReLU's bends.
        let mut rng = crate::network::SplitMix64(21);
        for p in &mut net.params {
            *p += 0.3 * rng.symmetric();
        }
        net.clip();
        let exported = net.export();
        assert_eq!(&exported[..4], b"QNN4");
        // Header, i16 feature weights and biases, i16 layer weights, then
        // f32 layer biases, output weights and output biases.
        let (h, b, n) = (16, 2, 4);
        assert_eq!(
            exported.len(),
            84 + 2 * (768 * h + h) + 2 * b * n * h + 4 * (2 * b * n + b)
        );
        let q = crate::quantised::Quantised::parse(&exported).unwrap();
        for s in samples() {
            let float_cp = net.output(&s) * 400.0;
            let int_cp = q.evaluate(&s) as f32;
            assert!(
                (float_cp - int_cp).abs() <= 6.0 + 0.03 * float_cp.abs(),
                "float {float_cp}, quantised {int_cp}"
            );
        }
        for cut in [exported.len() - 1, exported.len() - 4 * 3, 84 + 100] {
            assert!(crate::quantised::Quantised::parse(&exported[..cut]).is_err());
        }
    }

    #[test]
    fn training_reduces_the_loss() {
        let train_set = samples();
        let mut net = Network::random(16, 1, 8, InputLayout::NONE, 3);
        let before = loss(&net, &train_set, 1);
        let settings = Settings {
            epochs: 60,
            batch: 4,
            lr: 0.01,
            final_lr_fraction: 0.1,
            threads: 1,
            seed: 1,
        };
        let valid = train_set.clone();
        train(
            &mut net,
            &crate::train::TrainingSet::new(&train_set, false).unwrap(),
            &valid,
            &settings,
            None,
            |_, _, _| {},
        );
        let after = loss(&net, &valid, 1);
        assert!(after < 0.5 * before, "loss {before} -> {after}");
    }
}
