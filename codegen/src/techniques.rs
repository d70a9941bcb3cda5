//! Every sliding-attack technique's Cargo feature with the target features
//! its module needs, in the order of `every_technique!` in
//! `src/sliders/mod.rs`: the one list that `build.rs` (what it compiles,
//! and the `compile_error!` of a technique chosen without what it needs)
//! and the lab's `xtask` (`#[path]`-included: which techniques a CPU can
//! run) both read. A technique whose target features are missing is left
//! out of `all-sliders`.
//!
//! Adding a technique: one line here, one in `every_technique!`, one
//! feature in `Cargo.toml`. The names are `target_feature` names, which
//! are also the flags `/proc/cpuinfo` lists.

/// (feature, target features its module needs).
pub const BACKENDS: &[(&str, &[&str])] = &[
    ("hq", &[]),
    ("magic", &[]),
    ("pext", &["bmi2"]),
    ("pext-emulated", &[]),
    ("pext-pdep", &["bmi2"]),
    ("split-pext", &["bmi2"]),
    ("sissy", &[]),
    ("kindergarten-super-sissy", &[]),
    ("classical", &[]),
    ("obstruction", &[]),
    ("sbamg", &[]),
    ("slide-arithmetic", &[]),
    ("leorik", &[]),
    ("qbb", &[]),
    ("bitrotation", &[]),
    ("genetic-obstruction", &[]),
    ("kindergarten", &[]),
    ("plain-magic", &[]),
    ("black-magic", &[]),
    ("exploding", &[]),
    ("hypercube", &[]),
    ("folding-hash", &[]),
    ("spectral-magic", &[]),
    ("kogge-stone", &[]),
    ("dumb7", &[]),
    ("simd-fill", &[]),
    ("rotated", &[]),
    ("hq-bitrev", &[]),
    ("galois-field", &["avx2", "avx512f", "avx512bw", "gfni"]),
    ("avx512-fill", &["avx512f", "avx512vl"]),
    ("avx2-shift", &["avx2"]),
    ("switch", &[]),
    ("bob-mike", &[]),
];
