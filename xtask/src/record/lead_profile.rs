//! The lead's profile record (`reports/data/lead-profile-<date>-<commit>.json`,
//! from `xtask lead-profile`): instructions, branches and mispredicted
//! branches of Quince's bulk perft and Gigantua's on the six standard
//! positions, counted by valgrind's cachegrind. The atlas's lead (time,
//! per CPU) says how far ahead the generator is; this says what the
//! difference is made of where it is small. Counts under valgrind are the
//! same on every CPU (its branch predictor is a model, not the host's), so
//! one record explains the lead on all of them.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::measure::host::{CommitInfo, Host};
use crate::record::Toolchain;
use crate::util::Result;

/// The format this xtask writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// One run of `xtask lead-profile`.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct LeadProfileRecord {
    /// Always `"lead-profile"`.
    pub kind: String,
    pub format_version: u32,
    pub commit: CommitInfo,
    pub date_utc: String,
    /// Where it ran (the counts do not depend on it).
    pub host: Host,
    pub toolchain: Toolchain,
    /// The valgrind tool and its options.
    pub tool: String,
    /// Each program counted: its name, version, SHA-256 and command.
    pub programs: Vec<ProfiledProgram>,
    /// One per standard position, in the lab's order.
    pub positions: Vec<ProfiledPosition>,
    pub run_seconds: f64,
}

/// A program the record counts.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct ProfiledProgram {
    /// `"quince"` or `"gigantua"`.
    pub name: String,
    /// The commit and build (`"<commit> with the pext backend"`, or the
    /// peer's VERSIONS.json line).
    pub version: String,
    pub sha256: String,
    /// The command with `{fen}`, `{depth}` and `{nodes}` for the inputs.
    pub command: String,
}

/// One position at two depths: the counts of each whole run, so the
/// per-leaf figures (their difference over the difference of the leaves)
/// leave out what does not grow with the tree: process start, tables,
/// parsing.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct ProfiledPosition {
    pub position: String,
    pub fen: String,
    /// The shallow and the deep depth, and their leaf counts.
    pub depths: [u32; 2],
    pub nodes: [u64; 2],
    /// Program name -> the counts at the shallow and the deep depth.
    pub counts: BTreeMap<String, [Counts; 2]>,
}

/// What cachegrind counts in one run.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct Counts {
    /// Instructions executed (`I refs`).
    pub instructions: u64,
    /// Conditional and indirect branches executed.
    pub branches: u64,
    /// Of those, mispredicted in cachegrind's model.
    pub mispredicts: u64,
}

/// Per-leaf figures of one program on one position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PerLeaf {
    pub instructions: f64,
    pub branches: f64,
    pub mispredicts: f64,
}

impl ProfiledPosition {
    /// The program's counts per leaf: the deep run's minus the shallow
    /// run's, over the leaves the deep one adds. None if the program was
    /// not counted here or the depths add no leaves.
    pub fn per_leaf(&self, program: &str) -> Option<PerLeaf> {
        let [shallow, deep] = self.counts.get(program)?;
        let leaves = self.nodes[1]
            .checked_sub(self.nodes[0])
            .filter(|&n| n > 0)? as f64;
        let per = |a: u64, b: u64| b.saturating_sub(a) as f64 / leaves;
        Some(PerLeaf {
            instructions: per(shallow.instructions, deep.instructions),
            branches: per(shallow.branches, deep.branches),
            mispredicts: per(shallow.mispredicts, deep.mispredicts),
        })
    }
}

impl LeadProfileRecord {
    /// `lead-profile-<date>-<commit>.json`.
    pub fn file_name(&self) -> String {
        format!(
            "lead-profile-{}-{}.json",
            &self.date_utc[..10],
            self.commit.short
        )
    }
}

/// Every lead-profile record in `dir`, oldest first.
pub fn load_from(dir: &Path) -> Result<Vec<(String, LeadProfileRecord)>> {
    crate::record::load_kind(
        dir,
        "lead-profile-",
        "lead-profile",
        FORMAT_VERSION,
        |r: &LeadProfileRecord| crate::record::Header {
            kind: &r.kind,
            format_version: r.format_version,
            date_utc: &r.date_utc,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_leaf_is_the_difference_over_the_added_leaves() {
        let c = |i, b, m| Counts {
            instructions: i,
            branches: b,
            mispredicts: m,
        };
        let p = ProfiledPosition {
            position: "pos3".into(),
            fen: String::new(),
            depths: [5, 6],
            nodes: [100, 1100],
            counts: BTreeMap::from([("quince".into(), [c(5_000, 700, 50), c(16_000, 1_700, 110)])]),
        };
        let q = p.per_leaf("quince").unwrap();
        assert_eq!(
            q,
            PerLeaf {
                instructions: 11.0,
                branches: 1.0,
                mispredicts: 0.06
            }
        );
        assert_eq!(p.per_leaf("gigantua"), None);
        let flat = ProfiledPosition {
            nodes: [5, 5],
            ..p.clone()
        };
        assert_eq!(flat.per_leaf("quince"), None);
    }
}
