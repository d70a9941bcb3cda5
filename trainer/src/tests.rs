//! Checks of the trainer's arithmetic: gradients against finite
//! differences, quantised against float evaluation, file round trips, and
//! a small fit that must reduce its loss.

use crate::data::{Sample, sample};
use crate::inputs::InputLayout;
use crate::network::{Network, SplitMix64};
use crate::quantised::Quantised;
use crate::train::{Progress, Settings, TrainingSet, loss, train};
use quince::Position;

const FENS: [&str; 4] = [
    quince::position::STARTPOS_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

fn samples() -> Vec<Sample> {
    samples_of(&InputLayout::NONE)
}

fn samples_of(layout: &InputLayout) -> Vec<Sample> {
    FENS.iter()
        .enumerate()
        .map(|(i, fen)| {
            sample(
                &Position::from_fen(fen).unwrap(),
                80.0 * i as f32 - 100.0,
                0.5,
                0.2,
                layout,
            )
        })
        .collect()
}

/// The derivative of `s`'s squared error by parameter `index`, by central
/// differences of `step` either way: what `Network::backward` must agree
/// with (the gradient checks here and in `hidden_layer.rs`).
pub(crate) fn numeric_gradient(net: &Network, s: &Sample, index: usize, step: f32) -> f64 {
    let loss_at = |net: &Network| {
        let e = crate::data::sigmoid(net.output(s)) - s.target;
        f64::from(e * e)
    };
    let (mut plus, mut minus) = (net.clone(), net.clone());
    plus.params[index] += step;
    minus.params[index] -= step;
    (loss_at(&plus) - loss_at(&minus)) / (2.0 * f64::from(step))
}

#[test]
fn gradients_match_finite_differences() {
    let mut net = Network::random(16, 1, 0, InputLayout::NONE, 3);
    // Biases away from zero so that some accumulators sit inside (0, 1),
    // where SCReLU has a slope.
    let l = net.layout();
    for b in &mut net.params[l.feature_biases..l.output_weights] {
        *b = 0.4;
    }
    let s = samples()[1];
    let mut grad = vec![0.0; net.params.len()];
    net.backward(&s, &mut grad);
    let feature = s.ours()[3] as usize;
    let probes = [
        feature * 16 + 2,
        l.feature_biases + 5,
        l.output_weights + 7,
        l.output_weights + 20,
        l.output_bias,
    ];
    for index in probes {
        let numeric = numeric_gradient(&net, &s, index, 1e-2);
        let analytic = f64::from(grad[index]);
        assert!(
            (numeric - analytic).abs() <= 1e-4 + 0.02 * numeric.abs(),
            "param {index}: numeric {numeric}, analytic {analytic}"
        );
    }
}

#[test]
fn quantised_evaluation_follows_the_float_network() {
    let mut rng = SplitMix64(9);
    let mut net = Network::random(32, 1, 0, InputLayout::NONE, 5);
    for p in &mut net.params {
        *p += 0.05 * rng.symmetric();
    }
    let q = Quantised::parse(&net.export()).unwrap();
    for s in samples() {
        let float_cp = net.output(&s) * 400.0;
        let int_cp = q.evaluate(&s) as f32;
        assert!(
            (float_cp - int_cp).abs() <= 3.0 + 0.02 * float_cp.abs(),
            "float {float_cp}, quantised {int_cp}"
        );
    }
}

#[test]
fn checkpoints_and_exports_round_trip() {
    let net = Network::random(16, 1, 0, InputLayout::NONE, 1);
    assert_eq!(Network::load_float(&net.save_float()).unwrap(), net);
    let exported = net.export();
    assert_eq!(exported.len(), 8 + 2 * (768 * 16 + 3 * 16) + 4);
    assert_eq!(Quantised::parse(&exported).unwrap().hidden, 16);
    assert!(Quantised::parse(&exported[..100]).is_err());
    assert!(Network::load_float(b"QNN1").is_err());
}

#[test]
fn bucketed_networks_pick_their_bucket_and_survive_export() {
    let mut rng = SplitMix64(11);
    let mut net = Network::random(32, 8, 0, InputLayout::NONE, 6);
    for p in &mut net.params {
        *p += 0.05 * rng.symmetric();
    }
    assert_eq!(Network::load_float(&net.save_float()).unwrap(), net);
    let exported = net.export();
    assert_eq!(&exported[..4], b"QNN2");
    assert_eq!(
        exported.len(),
        12 + 2 * (768 * 32 + 32 + 8 * 2 * 32) + 4 * 8
    );
    let q = Quantised::parse(&exported).unwrap();
    assert_eq!((q.hidden, q.buckets), (32, 8));
    // Rounding every weight to its quantised step: a few centipawns.
    for s in samples() {
        let float_cp = net.output(&s) * 400.0;
        let int_cp = q.evaluate(&s) as f32;
        assert!(
            (float_cp - int_cp).abs() <= 5.0 + 0.02 * float_cp.abs(),
            "float {float_cp}, quantised {int_cp}"
        );
    }
    // The gradient reaches only the sample's own bucket.
    let s = samples()[2];
    let b = crate::network::bucket(s.ours().len(), 8);
    let l = net.layout();
    let mut grad = vec![0.0; net.params.len()];
    net.backward(&s, &mut grad);
    for other in 0..8 {
        let w = &grad[l.output_weights + other * 64..l.output_weights + (other + 1) * 64];
        assert_eq!(w.iter().any(|&g| g != 0.0), other == b, "bucket {other}");
        assert_eq!(grad[l.output_bias + other] != 0.0, other == b);
    }
}

#[test]
fn buckets_split_the_piece_count_evenly() {
    use crate::network::bucket;
    assert_eq!(bucket(32, 1), 0);
    assert_eq!(bucket(2, 8), 0);
    assert_eq!(bucket(5, 8), 0);
    assert_eq!(bucket(6, 8), 1);
    assert_eq!(bucket(32, 8), 7);
    for pieces in 2..=32 {
        assert_eq!(
            bucket(pieces, 8),
            quince::eval::nnue::bucket(pieces as u32, 8),
            "{pieces} pieces"
        );
    }
}

#[test]
fn training_reduces_the_loss() {
    let data = samples();
    let train_set: Vec<Sample> = data.iter().cycle().take(64).copied().collect();
    let mut net = Network::random(16, 1, 0, InputLayout::NONE, 2);
    let before = loss(&net, &data, 2);
    let settings = Settings {
        epochs: 30,
        batch: 16,
        lr: 0.01,
        final_lr_fraction: 0.1,
        threads: 2,
        seed: 4,
    };
    let mut reports = Vec::new();
    train(
        &mut net,
        &TrainingSet::new(&train_set, false).unwrap(),
        &data,
        &settings,
        None,
        |_, r, _| reports.push(r.valid_loss),
    );
    let after = loss(&net, &data, 2);
    assert_eq!(reports.len(), 30);
    assert!(after < before * 0.5, "loss {before} -> {after}");
}

#[test]
fn a_mirrored_sample_is_the_mirrored_position() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1";
    let mirror = "r2k3r/1bpqpp1p/1pnp2nb/3NP3/3P2p1/p1Q2N2/PPPBBPPP/R2K3R w - - 0 1";
    let none = &InputLayout::NONE;
    let a = crate::data::mirrored(&sample(
        &Position::from_fen(fen).unwrap(),
        0.0,
        0.5,
        0.0,
        none,
    ));
    let b = sample(&Position::from_fen(mirror).unwrap(), 0.0, 0.5, 0.0, none);
    let sorted = |f: &[u16]| {
        let mut v = f.to_vec();
        v.sort_unstable();
        v
    };
    assert_eq!(sorted(a.ours()), sorted(b.ours()));
    assert_eq!(sorted(a.theirs()), sorted(b.theirs()));
    // A mirrored layout sees a position and its mirror image alike,
    // without adding mirrored samples.
    let m4 = &InputLayout::named("m4").unwrap();
    let a = sample(&Position::from_fen(fen).unwrap(), 0.0, 0.5, 0.0, m4);
    let b = sample(&Position::from_fen(mirror).unwrap(), 0.0, 0.5, 0.0, m4);
    assert_eq!(sorted(a.ours()), sorted(b.ours()));
    assert_eq!(sorted(a.theirs()), sorted(b.theirs()));
}

#[test]
fn mirrors_made_when_drawn_train_as_stored_mirrors_did() {
    // The trainer draws mirror images from the loaded samples instead of
    // storing them; a run must give the network it gave when they were
    // stored after the samples (the committed networks' reproduction
    // commands depend on it).
    let data = samples();
    let stored: Vec<Sample> = data
        .iter()
        .copied()
        .chain(data.iter().map(crate::data::mirrored))
        .collect();
    let settings = Settings {
        epochs: 3,
        batch: 3,
        lr: 0.01,
        final_lr_fraction: 0.1,
        threads: 2,
        seed: 5,
    };
    let fresh = Network::random(16, 2, 0, InputLayout::NONE, 3);
    let run = |set: &TrainingSet| {
        let mut net = fresh.clone();
        let mut losses = Vec::new();
        train(&mut net, set, &data, &settings, None, |_, r, _| {
            losses.push(r.train_loss)
        });
        (net.params, losses)
    };
    let drawn = TrainingSet::new(&data, true).unwrap();
    assert_eq!(drawn.len(), stored.len());
    let (a, a_losses) = run(&drawn);
    let (b, b_losses) = run(&TrainingSet::new(&stored, false).unwrap());
    assert_eq!(a, b);
    assert_eq!(a_losses, b_losses);
    assert_ne!(a, fresh.params);
}

#[test]
fn king_bucketed_networks_survive_export_and_learn_their_own_weights() {
    let layout = InputLayout::named("m4").unwrap();
    let mut rng = SplitMix64(13);
    let mut net = Network::random(16, 2, 0, layout, 7);
    for p in &mut net.params {
        *p += 0.05 * rng.symmetric();
    }
    assert_eq!(Network::load_float(&net.save_float()).unwrap(), net);
    let exported = net.export();
    assert_eq!(&exported[..4], b"QNN3");
    assert_eq!(
        exported.len(),
        80 + 2 * (4 * 768 * 16 + 16 + 2 * 2 * 16) + 4 * 2
    );
    let q = Quantised::parse(&exported).unwrap();
    assert_eq!(q.inputs, layout);
    for s in samples_of(&layout) {
        let float_cp = net.output(&s) * 400.0;
        let int_cp = q.evaluate(&s) as f32;
        assert!(
            (float_cp - int_cp).abs() <= 5.0 + 0.02 * float_cp.abs(),
            "float {float_cp}, quantised {int_cp}"
        );
    }
    // The start position's kings are on their back rank's centre (bucket
    // 1 of m4): the gradient reaches that block of feature weights only.
    let s = samples_of(&layout)[0];
    let mut grad = vec![0.0; net.params.len()];
    net.backward(&s, &mut grad);
    let block = |b: usize| &grad[b * 768 * 16..(b + 1) * 768 * 16];
    assert!(block(1).iter().any(|&g| g != 0.0));
    for other in [0, 2, 3] {
        assert!(block(other).iter().all(|&g| g == 0.0), "block {other}");
    }
    // A file whose table breaks the rules is refused.
    let mut bad = exported.clone();
    bad[16] = 9;
    assert!(Quantised::parse(&bad).is_err());
}

#[test]
fn a_factoriser_learns_from_every_bucket_and_exports_the_sums() {
    let layout = InputLayout::named("m4").unwrap();
    let mut rng = SplitMix64(21);
    let mut net = Network::random(16, 1, 0, layout, 4);
    let l = net.layout();
    for b in &mut net.params[l.feature_biases..l.output_weights] {
        *b = 0.4;
    }
    let plain = net.clone();
    net.factorise();
    assert!(net.factorised() && !plain.factorised());
    assert_eq!(net.params.len(), l.len + 768 * 16);
    let samples = samples_of(&layout);
    // A zero factoriser changes nothing.
    for s in &samples {
        assert_eq!(net.output(s), plain.output(s));
    }
    for p in &mut net.params[l.len..] {
        *p = 0.05 * rng.symmetric();
    }
    // The shared rows' gradient against finite differences, and it is
    // that of the feature's own row (they enter the sum alike).
    let s = samples[1];
    let mut grad = vec![0.0; net.params.len()];
    net.backward(&s, &mut grad);
    let feature = usize::from(s.ours()[3]);
    let shared = l.len + (feature % 768) * 16 + 2;
    let numeric = numeric_gradient(&net, &s, shared, 1e-2);
    let analytic = f64::from(grad[shared]);
    assert!(
        (numeric - analytic).abs() <= 1e-4 + 0.02 * numeric.abs(),
        "numeric {numeric}, analytic {analytic}"
    );
    // Two samples with their kings in different buckets both reach it.
    let s0 = samples[0];
    let mut grad0 = vec![0.0; net.params.len()];
    net.backward(&s0, &mut grad0);
    assert!(grad0[l.len..].iter().any(|&g| g != 0.0));
    // The export and the float checkpoint hold the sums: the plain network
    // they load as gives the factorised network's outputs.
    let merged = Network::load_float(&net.save_float()).unwrap();
    assert!(!merged.factorised());
    for s in &samples {
        assert!((merged.output(s) - net.output(s)).abs() < 1e-4);
    }
    assert_eq!(merged.export(), net.export());
    let q = Quantised::parse(&net.export()).unwrap();
    for s in &samples {
        let (float_cp, int_cp) = (net.output(s) * 400.0, q.evaluate(s) as f32);
        assert!(
            (float_cp - int_cp).abs() <= 5.0 + 0.02 * float_cp.abs(),
            "float {float_cp}, quantised {int_cp}"
        );
    }
}

/// A run stopped after its first epoch and resumed from its saved state
/// ends with the very parameters of the run that never stopped.
#[test]
fn a_resumed_run_ends_where_the_whole_run_ends() {
    let data: Vec<Sample> = samples()
        .into_iter()
        .cycle()
        .take(24)
        .enumerate()
        .map(|(i, mut s)| {
            s.target = (i as f32 * 0.37).fract();
            s
        })
        .collect();
    let settings = Settings {
        epochs: 3,
        batch: 5,
        lr: 0.01,
        final_lr_fraction: 0.1,
        threads: 2,
        seed: 9,
    };
    let fresh = Network::random(16, 2, 4, InputLayout::NONE, 2);
    let mut whole = fresh.clone();
    let mut saved = None;
    train(
        &mut whole,
        &TrainingSet::new(&data, false).unwrap(),
        &data,
        &settings,
        None,
        |_, r, p| {
            if r.epoch == 1 {
                saved = Some(p.to_bytes());
            }
        },
    );
    let state = Progress::from_bytes(&saved.unwrap(), fresh.params.len()).unwrap();
    assert_eq!(state.epochs_done, 1);
    assert_ne!(state.params, whole.params);
    let mut resumed = fresh.clone();
    let mut epochs = Vec::new();
    train(
        &mut resumed,
        &TrainingSet::new(&data, false).unwrap(),
        &data,
        &settings,
        Some(state),
        |_, r, _| epochs.push(r.epoch),
    );
    assert_eq!(epochs, [2, 3]);
    assert_eq!(resumed.params, whole.params);
    assert!(Progress::from_bytes(b"QRS1", 3).is_err());
}

#[test]
fn shapes_the_engine_would_refuse_are_refused_before_training() {
    use clap::Parser;
    let out = std::env::temp_dir().join(format!("quince-train-shape-{}", std::process::id()));
    let refusal = |extra: &[&str]| {
        let mut argv = vec!["quince-train", "train", "--data", "absent.qdg", "--out-dir"];
        argv.push(out.to_str().unwrap());
        argv.extend_from_slice(extra);
        let crate::Cli { command } = crate::Cli::try_parse_from(argv).unwrap();
        let crate::Command::Train(args) = command else {
            panic!("parsed as another command")
        };
        crate::run_train(&args).unwrap_err()
    };
    let wide = refusal(&[
        "--hidden",
        &(quince::eval::nnue::MAX_HIDDEN + 16).to_string(),
    ]);
    assert!(wide.contains("--hidden") && wide.contains("1024"), "{wide}");
    assert!(refusal(&["--hidden", "24"]).contains("multiple of 16"));
    let buckets = refusal(&["--buckets", "17"]);
    assert!(buckets.contains("expected 1 to 16"), "{buckets}");
    assert!(refusal(&["--l1", "65"]).contains("64 units"));
    // Refused before anything was read or written.
    assert!(!out.exists());
}

/// A sample's loss, output and gradient, as [`crate::instruction_set::run`]
/// computes them.
struct Gradients<'a> {
    net: &'a Network,
    samples: &'a [Sample],
}

impl crate::instruction_set::Kernel for Gradients<'_> {
    type Output = (Vec<u32>, Vec<u32>);

    #[inline(always)]
    fn run(self) -> (Vec<u32>, Vec<u32>) {
        let mut grad = vec![0.0f32; self.net.params.len()];
        let mut values = Vec::new();
        for s in self.samples {
            values.push(self.net.backward(s, &mut grad).to_bits());
            values.push(self.net.output(s).to_bits());
        }
        (values, grad.iter().map(|g| g.to_bits()).collect())
    }
}

#[test]
fn every_instruction_set_gives_the_same_bits() {
    use crate::instruction_set::{InstructionSet, run};
    // Plain inputs, and king buckets with a factoriser; with and without a
    // hidden layer.
    for (layout, l1) in [("none", 0), ("m4", 0), ("none", 8)] {
        let layout = InputLayout::named(layout).unwrap();
        let mut net = Network::random(64, 2, l1, layout, 11);
        if layout.king_dependent() {
            net.factorise();
        }
        let l = net.layout();
        for b in &mut net.params[l.feature_biases..l.feature_biases + 64] {
            *b = 0.4;
        }
        let samples = samples_of(&layout);
        let sets = InstructionSet::available();
        let results: Vec<_> = sets
            .iter()
            .map(|&set| {
                let kernel = Gradients {
                    net: &net,
                    samples: &samples,
                };
                run(set, kernel)
            })
            .collect();
        let moved = results[0].1.iter().filter(|&&g| g != 0).count();
        assert!(moved > 1000, "only {moved} gradients moved");
        for (set, result) in sets.iter().zip(&results) {
            assert!(result == &results[0], "{set:?} differs from the baseline");
        }
    }
}
