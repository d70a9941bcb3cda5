//! The training loop: shuffled mini-batches, gradients summed over
//! threads, Adam, a cosine learning-rate schedule, and a checkpoint plus
//! a quantised export after every epoch, with what a resumed run needs to
//! go on as if it had never stopped ([`Progress`]).

use crate::data::{Sample, mirrored};
use crate::instruction_set;
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

    #[inline(always)] // see `instruction_set::Kernel`
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

/// One step of [`Adam`], as a kernel for the wider instruction sets.
struct AdamStep<'a> {
    adam: &'a mut Adam,
    params: &'a mut [f32],
    grad: &'a [f32],
    lr: f32,
}

impl instruction_set::Kernel for AdamStep<'_> {
    type Output = ();

    #[inline(always)] // see `instruction_set::Kernel`
    fn run(self) {
        self.adam.update(self.params, self.grad, self.lr);
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

/// Mean loss of the `count` samples `draw` gives and, with `want_grad`,
/// their mean gradient. Each thread draws its own share, so that the
/// random reads of a shuffled batch overlap with the other thread's work
/// (drawing a whole batch first, on one thread, made an epoch 14 % slower
/// than training on stored, shuffled copies; see [`TrainingSet::prefetch`]).
fn loss_and_gradient(
    net: &Network,
    count: usize,
    draw: impl Fn(usize) -> Sample + Sync,
    threads: usize,
    want_grad: bool,
) -> (f64, Vec<f32>) {
    let set = instruction_set::chosen();
    let chunk = count.div_ceil(threads.max(1)).max(1);
    let draw = &draw;
    let shares: Vec<(f64, Vec<f32>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..count)
            .step_by(chunk)
            .map(|first| {
                let share = Share {
                    net,
                    samples: first..(first + chunk).min(count),
                    draw,
                    want_grad,
                };
                scope.spawn(move || instruction_set::run(set, share))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a training thread"))
            .collect()
    });
    instruction_set::run(
        set,
        Mean {
            shares,
            count,
            len: if want_grad { net.params.len() } else { 0 },
        },
    )
}

/// One thread's share of a batch: the summed loss and gradient of the
/// samples `draw` gives for `samples`.
struct Share<'a, D> {
    net: &'a Network,
    samples: std::ops::Range<usize>,
    draw: &'a D,
    want_grad: bool,
}

impl<D: Fn(usize) -> Sample> instruction_set::Kernel for Share<'_, D> {
    type Output = (f64, Vec<f32>);

    #[inline(always)] // see `instruction_set::Kernel`
    fn run(self) -> (f64, Vec<f32>) {
        let net = self.net;
        let mut grad = if self.want_grad {
            vec![0.0f32; net.params.len()]
        } else {
            Vec::new()
        };
        let mut loss = 0.0f64;
        for k in self.samples {
            let s = (self.draw)(k);
            loss += if self.want_grad {
                f64::from(net.backward(&s, &mut grad))
            } else {
                let error = crate::data::sigmoid(net.output(&s)) - s.target;
                f64::from(error * error)
            };
        }
        (loss, grad)
    }
}

/// The threads' shares summed into the batch's mean loss and gradient
/// (`len` parameters; 0 when no gradient was asked for).
struct Mean {
    shares: Vec<(f64, Vec<f32>)>,
    count: usize,
    len: usize,
}

impl instruction_set::Kernel for Mean {
    type Output = (f64, Vec<f32>);

    #[inline(always)] // see `instruction_set::Kernel`
    fn run(self) -> (f64, Vec<f32>) {
        let mut total = 0.0;
        let mut grad = vec![0.0f32; self.len];
        for (loss, g) in self.shares {
            total += loss;
            for (a, b) in grad.iter_mut().zip(&g) {
                *a += b;
            }
        }
        let n = self.count.max(1);
        for g in &mut grad {
            *g /= n as f32;
        }
        (total / n as f64, grad)
    }
}

/// The mean loss of `samples` (no gradient).
pub fn loss(net: &Network, samples: &[Sample], threads: usize) -> f64 {
    loss_and_gradient(net, samples.len(), |k| samples[k], threads, false).0
}

/// How many samples ahead of the one being trained on a batch asks for
/// (see [`TrainingSet::prefetch`]): enough for the read to arrive before
/// it is needed; 2 and 6 measured alike (13.2-13.6 s an epoch).
const PREFETCH_AHEAD: usize = 6;

/// The training positions as the loop draws them: the loaded samples and,
/// with `mirror`, each one's left-right mirror image after them.
///
/// The mirrors are made when a batch draws them rather than stored, and
/// the shuffle permutes indices rather than samples: storing the mirrors
/// doubled the trainer's memory (a sample is 136 bytes, so s1-s34's 63 M
/// positions and their mirrors wanted over 24 GiB while they were being
/// added), and an index is 4 bytes. The order drawn is the one the stored
/// copies had, so a run gives the same network bit for bit as before.
pub struct TrainingSet<'a> {
    samples: &'a [Sample],
    mirror: bool,
}

impl<'a> TrainingSet<'a> {
    /// `samples`, and with `mirror` their mirror images; `None` when the
    /// positions would not fit the 32-bit indices the shuffle uses.
    pub fn new(samples: &'a [Sample], mirror: bool) -> Option<TrainingSet<'a>> {
        let set = TrainingSet { samples, mirror };
        u32::try_from(set.len()).ok().map(|_| set)
    }

    /// How many positions an epoch draws.
    pub fn len(&self) -> usize {
        self.samples.len() * if self.mirror { 2 } else { 1 }
    }

    /// Asks the CPU to start reading position `index` into the cache. A
    /// shuffled batch reads its samples from random places in memory, and
    /// a read issued only when the previous sample's gradient is done
    /// stalls. One epoch of hidden 256 on s1-s2 with mirrors (Intel Rocket
    /// Lake, two threads): 12.7 s on stored, shuffled copies; 14.0 s drawn
    /// without prefetching; 13.3 s drawn with it, [`PREFETCH_AHEAD`]
    /// samples ahead.
    fn prefetch(&self, index: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let first = (self.stored(index) as *const Sample).cast::<i8>();
            // A sample spans three cache lines; its last byte's line is
            // the third when it does not start at a line's beginning.
            // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 CPU has
            // (it is in the target's baseline); a prefetch only hints the
            // cache and never reads or faults, and the addresses lie in the
            // sample anyway.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(first);
                _mm_prefetch::<_MM_HINT_T0>(first.wrapping_add(64));
                _mm_prefetch::<_MM_HINT_T0>(first.wrapping_add(size_of::<Sample>() - 1));
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = index;
    }

    /// The loaded sample position `index` is, or is the mirror image of.
    fn stored(&self, index: usize) -> &Sample {
        &self.samples[index % self.samples.len()]
    }

    /// Position `index`: a loaded sample, or past them a mirror image.
    fn get(&self, index: usize) -> Sample {
        let sample = self.stored(index);
        if index < self.samples.len() {
            *sample
        } else {
            mirrored(sample)
        }
    }
}

/// Trains `net` on `train`, calling `after_epoch` with each epoch's report
/// and the run's [`Progress`] (to print it and save the checkpoints).
/// With `resume`, the run goes on after its epochs done, from its
/// parameters and Adam's state, as if it had not stopped (see
/// [`Progress`]).
pub fn train(
    net: &mut Network,
    train: &TrainingSet,
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
    // `TrainingSet::new` checked that every index fits in 32 bits.
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let total_batches = (batches_per_epoch * settings.epochs).max(1);
    let mut done = batches_per_epoch * epochs_done;
    for epoch in 1..=settings.epochs {
        let start = Instant::now();
        // Fisher-Yates shuffle (replayed for the epochs a resumed run has
        // done, so that the next one sees the order it would have seen).
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        if epoch <= epochs_done {
            continue;
        }
        let mut sum = 0.0;
        for indices in order.chunks(settings.batch) {
            let progress = done as f32 / total_batches as f32;
            let cosine = 0.5 * (1.0 + (std::f32::consts::PI * progress).cos());
            let floor = settings.final_lr_fraction;
            let lr = settings.lr * (floor + (1.0 - floor) * cosine);
            let (batch_loss, grad) = loss_and_gradient(
                net,
                indices.len(),
                |k| {
                    if let Some(&next) = indices.get(k + PREFETCH_AHEAD) {
                        train.prefetch(next as usize);
                    }
                    train.get(indices[k] as usize)
                },
                settings.threads,
                true,
            );
            instruction_set::run(
                instruction_set::chosen(),
                AdamStep {
                    adam: &mut adam,
                    params: &mut net.params,
                    grad: &grad,
                    lr,
                },
            );
            net.clip();
            sum += batch_loss * indices.len() as f64;
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
