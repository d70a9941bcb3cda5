//! The training loop: shuffled mini-batches, gradients summed over
//! threads, Adam, a cosine learning-rate schedule, and a checkpoint plus
//! a quantised export after every epoch.

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
/// (to print it and save the checkpoint).
pub fn train(
    net: &mut Network,
    train: &mut [Sample],
    valid: &[Sample],
    settings: &Settings,
    mut after_epoch: impl FnMut(&Network, &EpochReport),
) {
    let mut adam = Adam::new(net.params.len());
    let mut rng = SplitMix64(settings.seed ^ 0x5EED);
    let batches_per_epoch = train.len().div_ceil(settings.batch);
    let total_batches = (batches_per_epoch * settings.epochs).max(1);
    let mut done = 0usize;
    for epoch in 1..=settings.epochs {
        let start = Instant::now();
        // Fisher-Yates shuffle.
        for i in (1..train.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            train.swap(i, j);
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
        after_epoch(net, &report);
    }
}
