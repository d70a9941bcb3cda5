//! The lab's record (`reports/data/sliders-<date>-<commit>.json`): the
//! types serde writes and reads, and the facts about the host.

use serde::{Deserialize, Serialize};

use crate::util::{self, cpu_flag, cpuinfo_field};

/// The record's `format_version`; bump it when a field changes meaning.
pub(super) const FORMAT_VERSION: u32 = 1;

/// A lab run's figures, as written to `reports/data/sliders-*.json`.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Record {
    /// Always `"sliders"`.
    pub kind: String,
    pub format_version: u32,
    pub commit: CommitInfo,
    /// When the run started, ISO 8601, UTC.
    pub date_utc: String,
    pub host: Host,
    /// `rustc -V`.
    pub rustc: String,
    /// `RUSTFLAGS` of every build and of the bench (empty: none set, so
    /// `.cargo/config.toml`'s `-C target-cpu=x86-64-v2` applies).
    pub rustflags: String,
    /// Alternating perft rounds per workload.
    pub rounds: usize,
    /// A `--quick` smoke test (shallower perft): not for comparison.
    pub quick: bool,
    /// Backends not measured and why (e.g. pext without BMI2).
    pub skipped: Vec<Skipped>,
    /// The standard positions (`tests/data/standard.epd`).
    pub positions: Vec<PositionInfo>,
    /// The command each perft figure comes from.
    pub perft_command: String,
    /// The criterion command behind `lookups_per_second` (absent: not run).
    pub bench_command: Option<String>,
    /// Lookups (one rook or bishop attack set each) per bench iteration.
    pub bench_lookups_per_iteration: Option<u64>,
    /// `valgrind --version` when instructions were counted (absent: not run).
    pub valgrind: Option<String>,
    pub step_seconds: StepSeconds,
    /// In the order of the table of techniques (`src/sliders/mod.rs`).
    pub backends: Vec<BackendRecord>,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct CommitInfo {
    /// The full hash of `HEAD`.
    pub hash: String,
    /// Its first 12 hex digits (as in the record's file name).
    pub short: String,
    /// Whether tracked files differed from `HEAD` (uncommitted changes).
    pub dirty: bool,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Host {
    /// `model name` in `/proc/cpuinfo`.
    pub cpu_model_name: String,
    /// `vendor_id` (`GenuineIntel`, `AuthenticAMD`).
    pub cpu_vendor: Option<String>,
    /// `cpu family`, `model` and `stepping` in `/proc/cpuinfo`.
    pub cpu_family: Option<u32>,
    pub cpu_model: Option<u32>,
    pub cpu_stepping: Option<u32>,
    /// Per core (CPU 0), from `/sys/devices/system/cpu/cpu0/cache`.
    pub l1d_bytes: Option<u64>,
    pub l1i_bytes: Option<u64>,
    pub l2_bytes: Option<u64>,
    pub l3_bytes: Option<u64>,
    pub logical_cores: usize,
    pub bmi2: bool,
    pub avx2: bool,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Skipped {
    pub name: String,
    pub reason: String,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct PositionInfo {
    pub name: String,
    pub fen: String,
}

/// Wall seconds of each step of the run (absent: skipped).
#[derive(Serialize, Deserialize, Debug, Clone, Default)]
pub struct StepSeconds {
    pub build: f64,
    pub perft: f64,
    pub callgrind: Option<f64>,
    pub bench: Option<f64>,
    pub total: f64,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct BackendRecord {
    /// The feature and `slider` name.
    pub name: String,
    /// Bytes of the tables the backend reads (`slider_table_bytes`).
    pub table_bytes: u64,
    /// `"L1d"`, `"L2"` or `"beyond L2"`: the smallest cache the tables fit.
    pub fits: String,
    /// Bytes of the release `quince` binary with this backend.
    pub binary_bytes: u64,
    /// Wall seconds of `cargo build --release` of `quince` with this backend,
    /// dependencies already built (build script with the table codegen,
    /// library, binary).
    pub build_seconds: f64,
    /// Rook or bishop attack sets per second (criterion median).
    pub lookups_per_second: Option<f64>,
    /// Criterion's median nanoseconds per bench iteration.
    pub bench_ns_per_iteration: Option<f64>,
    /// Geometric means over the six positions.
    pub bulk_mnps_geomean: Option<f64>,
    pub full_mnps_geomean: Option<f64>,
    pub bulk_ratio_to_best_geomean: Option<f64>,
    pub full_ratio_to_best_geomean: Option<f64>,
    pub bulk_instructions_per_node_geomean: Option<f64>,
    pub full_instructions_per_node_geomean: Option<f64>,
    /// Bulk on the six positions, then full make.
    pub workloads: Vec<WorkloadRecord>,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct WorkloadRecord {
    /// `<position>-<bulk|full>-d<depth>`.
    pub id: String,
    pub position: String,
    /// `"bulk"` (last ply counted) or `"full"` (every leaf made, `--no-bulk`).
    pub kind: String,
    pub depth: u32,
    pub nodes: u64,
    /// `seconds` reported by `quince perft --json`, one per round.
    pub round_seconds: Vec<f64>,
    pub median_seconds: f64,
    /// Million nodes per second at the median seconds.
    pub mnps: f64,
    /// `mnps` over the best backend's `mnps` on this workload (1 = best).
    pub ratio_to_best: f64,
    /// Depth and nodes of the callgrind run (shallower than `depth`).
    pub callgrind_depth: Option<u32>,
    pub callgrind_nodes: Option<u64>,
    /// Instructions (`Ir`) per node, net of the same command at depth 0.
    pub instructions_per_node: Option<f64>,
}

pub fn host() -> Host {
    let caches = util::caches();
    let cache = |level: u32, kind: &str| {
        caches
            .iter()
            .find(|(l, k, _)| *l == level && k == kind)
            .map(|&(_, _, bytes)| bytes)
    };
    let number = |field: &str| cpuinfo_field(field).and_then(|v| v.parse().ok());
    Host {
        cpu_model_name: util::cpu_model(),
        cpu_vendor: cpuinfo_field("vendor_id"),
        cpu_family: number("cpu family"),
        cpu_model: number("model"),
        cpu_stepping: number("stepping"),
        l1d_bytes: cache(1, "Data"),
        l1i_bytes: cache(1, "Instruction"),
        l2_bytes: cache(2, "Unified").or_else(|| cache(2, "Data")),
        l3_bytes: cache(3, "Unified"),
        logical_cores: std::thread::available_parallelism().map_or(0, |n| n.get()),
        bmi2: cpu_flag("bmi2"),
        avx2: cpu_flag("avx2"),
    }
}

/// The smallest cache level `bytes` of tables fit in.
pub(super) fn fits(bytes: u64, host: &Host) -> &'static str {
    if host.l1d_bytes.is_some_and(|l1| bytes <= l1) {
        "L1d"
    } else if host.l2_bytes.is_some_and(|l2| bytes <= l2) {
        "L2"
    } else {
        "beyond L2"
    }
}

/// The geometric mean, or `None` when a value is missing or not positive.
pub(super) fn geomean(values: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    let mut sum = 0.0;
    let mut count = 0;
    for v in values {
        let v = v.filter(|v| v.is_finite() && *v > 0.0)?;
        sum += v.ln();
        count += 1;
    }
    (count > 0).then(|| (sum / count as f64).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geomean_needs_every_value() {
        assert!((geomean([Some(1.0), Some(4.0)].into_iter()).unwrap() - 2.0).abs() < 1e-12);
        assert_eq!(geomean([Some(1.0), None].into_iter()), None);
    }
}
