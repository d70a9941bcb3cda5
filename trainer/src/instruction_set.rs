//! The instruction set the trainer's hot loops run with, chosen when the
//! trainer starts rather than when it is built.
//!
//! Why: the workspace builds for x86-64-v2 (SSE4.2), so a trainer from
//! `cargo build` uses 128-bit vectors even on a CPU with AVX2 or AVX-512,
//! and `RUSTFLAGS='-C target-cpu=native'` makes a binary that will not run
//! on an older CPU. The per-sample work (adding feature rows into the
//! accumulators, adding their gradient back into the same rows) and Adam's
//! update are element-wise `f32` arithmetic over rows of `H` values; [`run`]
//! compiles them a second and third time with AVX2 and AVX-512 enabled and
//! picks the widest the CPU has.
//!
//! The choice changes speed, never results: element-wise additions,
//! multiplications, divisions and square roots round the same at any vector
//! width, the one sum over a row (the output) stays a sequential loop that
//! the compiler may not reorder, and Rust never fuses a multiply and an add
//! unless asked to. A unit test compares the gradients of every set this
//! CPU has, bit for bit.
//!
//! What it bought, on the Emerald Rapids host (two cores; one epoch of
//! v16's settings on s41 alone, so the figures are noisy): 199-242 k
//! samples/s with the baseline loops over four runs, 244-266 k with
//! AVX-512 (about 1.2x), AVX2 in between; the exported network was the
//! same file, bit for bit, under all three and under the build before
//! this module. A build with `-C target-cpu=native` ran about as fast as
//! the AVX-512 loops, so nothing else in the trainer gains from it.

/// An instruction set [`run`] can compile the hot loops for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InstructionSet {
    /// The build's own target (x86-64-v2 in this workspace), and every
    /// non-x86 CPU.
    Baseline,
    /// 256-bit vectors: Haswell and Zen 1 onward.
    Avx2,
    /// 512-bit vectors: Skylake-X, Ice Lake and Zen 4 onward.
    Avx512,
}

impl InstructionSet {
    /// The widest set this CPU runs, unless `QUINCE_TRAIN_ISA` names one
    /// (`baseline`, `avx2` or `avx512`; one the CPU lacks falls back to the
    /// widest it has), for comparing them.
    pub fn detect() -> InstructionSet {
        let asked = match std::env::var("QUINCE_TRAIN_ISA").as_deref() {
            Ok("baseline") => Some(Self::Baseline),
            Ok("avx2") => Some(Self::Avx2),
            Ok("avx512") => Some(Self::Avx512),
            _ => None,
        };
        match asked {
            Some(set) if set.supported() => set,
            _ => *Self::available().last().unwrap_or(&Self::Baseline),
        }
    }

    /// Every set this CPU runs, narrowest first.
    pub fn available() -> Vec<InstructionSet> {
        [Self::Baseline, Self::Avx2, Self::Avx512]
            .into_iter()
            .filter(|set| set.supported())
            .collect()
    }

    /// Whether this CPU reports every feature the set's wrapper enables
    /// (the one place that list is checked; `run` relies on it).
    pub fn supported(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            match self {
                Self::Baseline => true,
                Self::Avx2 => has!("avx2"),
                Self::Avx512 => {
                    has!("avx2") && has!("avx512f") && has!("avx512bw") && has!("avx512vl")
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == Self::Baseline
        }
    }

    /// Its name in `QUINCE_TRAIN_ISA`, on stderr and in `log.json`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Baseline => "baseline",
            Self::Avx2 => "avx2",
            Self::Avx512 => "avx512",
        }
    }
}

/// The set [`InstructionSet::detect`] chose, detected once per run.
pub fn chosen() -> InstructionSet {
    static CHOSEN: std::sync::OnceLock<InstructionSet> = std::sync::OnceLock::new();
    *CHOSEN.get_or_init(InstructionSet::detect)
}

/// Work [`run`] compiles once per instruction set. Its `run` method must
/// be `#[inline(always)]`, and so must the functions it calls that do the
/// element-wise loops: a function is compiled for the wider set only where
/// it is inlined into [`run`]'s wrappers (a closure would not do: the
/// compiler was seen to call it from the wrappers rather than inline it,
/// and so ran the baseline loops under every set).
pub trait Kernel {
    type Output;
    fn run(self) -> Self::Output;
}

/// Runs `kernel` compiled for `set`. A set the CPU lacks (or any set on a
/// non-x86 CPU) runs the baseline build.
pub fn run<K: Kernel>(set: InstructionSet, kernel: K) -> K::Output {
    #[cfg(target_arch = "x86_64")]
    match set {
        // SAFETY: `supported` checked that the CPU reports AVX2, all
        // `with_avx2` enables.
        InstructionSet::Avx2 if set.supported() => return unsafe { with_avx2(kernel) },
        // SAFETY: `supported` checked every feature `with_avx512` enables.
        InstructionSet::Avx512 if set.supported() => return unsafe { with_avx512(kernel) },
        _ => {}
    }
    let _ = set; // unused on other CPUs
    kernel.run()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn with_avx2<K: Kernel>(kernel: K) -> K::Output {
    kernel.run()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
fn with_avx512<K: Kernel>(kernel: K) -> K::Output {
    kernel.run()
}
