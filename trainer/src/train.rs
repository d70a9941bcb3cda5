//! The training loop: shuffled mini-batches, gradients summed over
//! threads, Adam, a cosine learning-rate schedule, and a checkpoint plus
//! a quantised export after every epoch, with what a resumed run needs to
//! go on as if it had never stopped ([`Progress`]).

use crate::data::Sample;
use crate::network::{Network, SplitMix64};
use std::time::Instant;

/// Hyper-parameters of one run.
#[derive(Clone, Debug)]
pub struct Settings {
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// The learning rate decays along a half cosine from `lr` to
    /// `lr * final_lr_fraction` over the run: large steps early, fine ones
    /// at the end, without choosing drop points.
    pub final_lr_fraction: f32,
    pub threads: usize,
    pub seed: u64,
}

/// What one epoch measured.
#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub train_loss: f64,
    pub valid_loss: f64,
    pub samples_per_second: f64,
    pub seconds: f64,
}

/// Adam's moment estimates (β1 0.9, β2 0.999, ε 1e-8).
#[derive(Clone, Debug, PartialEq)]
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
}

impl Adam {
    fn new(len: usize) -> Adam {
        Adam {
            m: vec![0.0; len],
            v: vec![0.0; len],
            step: 0,
        }
    }

    fn update(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.step += 1;
        let c1 = 1.0 - B1.powi(self.step);
        let c2 = 1.0 - B2.powi(self.step);
        for (((p, g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }
}

/// Where a run stands after an epoch: the epochs done, every parameter
/// (a factoriser's too) and Adam's state. With the same data, settings
/// and thread count, training on from it gives, to the bit, what the run
/// would have given without stopping: the shuffles of the epochs done are
/// replayed (they depend only on the seed), and so is the schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub epochs_done: usize,
    pub params: Vec<f32>,
    adam: Adam,
}

const PROGRESS_MAGIC: &[u8; 4] = b"QRS1";

impl Progress {
    /// `QRS1`, `u32` epochs done, `i32` Adam's step, `u64` parameter
    /// count N, then N `f32` each of parameters, first and second moments.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = PROGRESS_MAGIC.to_vec();
        bytes.extend_from_slice(&(self.epochs_done as u32).to_le_bytes());
        bytes.extend_from_slice(&self.adam.step.to_le_bytes());
        bytes.extend_from_slice(&(self.params.len() as u64).to_le_bytes());
        for values in [&self.params, &self.adam.m, &self.adam.v] {
            for x in values.iter() {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
        }
        bytes
    }

    /// Reads [`Progress::to_bytes`]' format, for a network of `len`
    /// parameters.
    pub fn from_bytes(bytes: &[u8], len: usize) -> Result<Progress, String> {
        if bytes.get(..4) != Some(PROGRESS_MAGIC) || bytes.len() < 20 {
            return Err("not a training state (it must start with QRS1)".into());
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let count = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
        if count != len as u64 || bytes.len() != 20 + 12 * len {
            return Err(format!(
                "a training state of {count} parameters in {} bytes, for a network of {len}",
                bytes.len()
            ));
        }
        let floats = |k: usize| -> Vec<f32> {
            bytes[20 + 4 * k * len..20 + 4 * (k + 1) * len]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        Ok(Progress {
            epochs_done: word(4) as usize,
            params: floats(0),
            adam: Adam {
                m: floats(1),
                v: floats(2),
                step: word(8) as i32,
            },
        })
    }
}

/// Mean loss of `samples` and, when `grad` is given, the summed gradient.
fn loss_and_gradient(
    net: &Network,
    samples: &[Sample],
    threads: usize,
    want_grad: bool,
) -> (f64, Vec<f32>) {
    let len = net.params.len();
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(f64, Vec<f32>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut grad = if want_grad {
                        vec![0.0f32; len]
                    } else {
                        Vec::new()
                    };
                    let mut loss = 0.0f64;
                    for s in part {
                        loss += if want_grad {
                            f64::from(net.backward(s, &mut grad))
                        } else {
                            let error = crate::data::sigmoid(net.output(s)) - s.target;
                            f64::from(error * error)
                        };
                    }
                    (loss, grad)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a training thread"))
            .collect()
    });
    let mut total = 0.0;
    let mut grad = if want_grad {
        vec![0.0f32; len]
    } else {
        Vec::new()
    };
    for (loss, g) in parts {
        total += loss;
        for (a, b) in grad.iter_mut().zip(&g) {
            *a += b;
        }
    }
    let n = samples.len().max(1);
    for g in &mut grad {
        *g /= n as f32;
    }
    (total / n as f64, grad)
}

/// The mean loss of `samples` (no gradient).
pub fn loss(net: &Network, samples: &[Sample], threads: usize) -> f64 {
    loss_and_gradient(net, samples, threads, false).0
}

/// Trains `net` on `train`, calling `after_epoch` with each epoch's report
/// and the run's [`Progress`] (to print it and save the checkpoints).
/// With `resume`, the run goes on after its epochs done, from its
/// parameters and Adam's state, as if it had not stopped (see
/// [`Progress`]).
pub fn train(
    net: &mut Network,
    train: &mut [Sample],
    valid: &[Sample],
    settings: &Settings,
    resume: Option<Progress>,
    mut after_epoch: impl FnMut(&Network, &EpochReport, &Progress),
) {
    let (mut adam, epochs_done) = match resume {
        Some(progress) => {
            net.params = progress.params;
            (progress.adam, progress.epochs_done)
        }
        None => (Adam::new(net.params.len()), 0),
    };
    let mut rng = SplitMix64(settings.seed ^ 0x5EED);
    let batches_per_epoch = train.len().div_ceil(settings.batch);
    let total_batches = (batches_per_epoch * settings.epochs).max(1);
    let mut done = batches_per_epoch * epochs_done;
    for epoch in 1..=settings.epochs {
        let start = Instant::now();
        // Fisher-Yates shuffle (replayed for the epochs a resumed run has
        // done, so that the next one sees the order it would have seen).
        for i in (1..train.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            train.swap(i, j);
        }
        if epoch <= epochs_done {
            continue;
        }
        let mut sum = 0.0;
        for batch in train.chunks(settings.batch) {
            let progress = done as f32 / total_batches as f32;
            let cosine = 0.5 * (1.0 + (std::f32::consts::PI * progress).cos());
            let floor = settings.final_lr_fraction;
            let lr = settings.lr * (floor + (1.0 - floor) * cosine);
            let (batch_loss, grad) = loss_and_gradient(net, batch, settings.threads, true);
            adam.update(&mut net.params, &grad, lr);
            net.clip();
            sum += batch_loss * batch.len() as f64;
            done += 1;
        }
        let seconds = start.elapsed().as_secs_f64();
        let report = EpochReport {
            epoch,
            train_loss: sum / train.len() as f64,
            valid_loss: loss(net, valid, settings.threads),
            samples_per_second: train.len() as f64 / seconds.max(1e-9),
            seconds,
        };
        let progress = Progress {
            epochs_done: epoch,
            params: net.params.clone(),
            adam: adam.clone(),
        };
        after_epoch(net, &report, &progress);
    }
}
