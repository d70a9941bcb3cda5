//! What an atlas run writes: the record types (`atlas-*.json`, one CPU,
//! one commit, every technique), and reading them back.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{reference, reference_instructions, same_workload};
use crate::measure::Timings;
use crate::measure::host::{CommitInfo, Host};
use crate::record::Comparison;
use crate::util::Result;

/// The record kind and format (4: the generator's lead and each
/// phase's wall time).
pub const KIND: &str = "atlas";
pub const FORMAT_VERSION: u32 = 4;

/// One technique's facts on this CPU.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct TechniqueFacts {
    pub name: String,
    pub table_bytes: u64,
    /// The smallest cache level the tables fit in on this CPU.
    pub fits: String,
    /// Instructions per queen lookup (callgrind, the x86-64-v3 build, in
    /// [`AtlasRecord::instruction_mode`]); none where that build cannot
    /// run the technique.
    pub instructions_per_lookup: Option<f64>,
    /// The same in grouped mode (format 3).
    #[serde(default)]
    pub instructions_per_grouped_lookup: Option<f64>,
}

/// The isolated view: MQueens/s of every technique in every round.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Isolated {
    pub passes: u64,
    pub lookups_per_run: u64,
    pub rounds: usize,
    pub order: String,
    /// technique -> MQueens/s per round, batch mode (the compiler may
    /// vectorise across lookups; the only mode of format 1 records).
    pub mqueens_per_s: BTreeMap<String, Vec<f64>>,
    /// technique -> MQueens/s per round, one lookup at a time (format 2).
    #[serde(default)]
    pub one_at_a_time: BTreeMap<String, Vec<f64>>,
    /// technique -> MQueens/s per round, twelve squares per occupancy
    /// (format 2).
    #[serde(default)]
    pub grouped: BTreeMap<String, Vec<f64>>,
    /// The command of one run, `{technique}` standing for the name (and
    /// `{mode}` for the mode, format 2).
    pub command: String,
}

/// An atlas record: one CPU, one commit, every technique.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct AtlasRecord {
    pub kind: String,
    pub format_version: u32,
    pub commit: CommitInfo,
    pub date_utc: String,
    pub host: Host,
    /// The CPU model as the atlas names its column.
    pub cpu: String,
    pub rustc: String,
    /// `RUSTFLAGS` of the timed build, and of the callgrind build.
    pub timing_rustflags: String,
    pub instruction_rustflags: Option<String>,
    /// The `quince lookups --mode` callgrind counted (format 2; format 1
    /// counted batch).
    #[serde(default)]
    pub instruction_mode: Option<String>,
    pub valgrind: Option<String>,
    pub features: String,
    pub techniques: Vec<TechniqueFacts>,
    /// Techniques this CPU cannot run, with the features they need.
    pub left_out: Vec<(String, String)>,
    pub isolated: Isolated,
    /// Bulk and full-make perft, every technique a contender (none when
    /// run with `--no-generator`).
    pub generator: Option<Timings>,
    pub generator_command_lines: BTreeMap<String, BTreeMap<String, String>>,
    pub reference: Option<reference::ReferenceRun>,
    /// The reference built with clang's vectorisers off (format 2).
    #[serde(default)]
    pub reference_scalar: Option<reference::ReferenceRun>,
    /// The reference's instructions per grouped lookup (format 3, with
    /// `--reference-source`).
    #[serde(default)]
    pub reference_instructions: Option<reference_instructions::ReferenceInstructions>,
    /// The reference's own code timed in Quince's grouped workload, round
    /// by round beside Quince's grouped runs (format 4, with
    /// `--reference-source`).
    #[serde(default)]
    pub reference_same_workload: Option<same_workload::SameWorkload>,
    /// The generator's lead: the fastest technique against the C/C++
    /// perft programs (format 4, with `--gigantua` and the others).
    #[serde(default)]
    pub peers: Option<Comparison>,
    /// Wall seconds of each phase, in the order run (format 4): where a
    /// run's time goes, against the 40-minute target.
    #[serde(default)]
    pub phase_seconds: Vec<(String, f64)>,
    pub run_seconds: f64,
}

impl AtlasRecord {
    pub fn file_name(&self) -> String {
        let cpu = reference::slug(&self.cpu);
        format!(
            "atlas-{cpu}-{}-{}.json",
            &self.date_utc[..10],
            self.commit.short
        )
    }
}

/// Every atlas record in `dir`, with its file name, oldest first.
pub fn load_from(dir: &Path) -> Result<Vec<(String, AtlasRecord)>> {
    let mut out: Vec<(String, AtlasRecord)> = crate::record::load_json(dir, "atlas-")?;
    for (name, r) in &out {
        // Format 2 added fields with defaults: format 1 records still read.
        if !(1..=FORMAT_VERSION).contains(&r.format_version) {
            return Err(format!(
                "{name}: atlas format_version {} (this xtask reads 1 to {FORMAT_VERSION})",
                r.format_version
            ));
        }
    }
    out.sort_by(|a, b| a.1.date_utc.cmp(&b.1.date_utc));
    Ok(out)
}
