//! The Syzygy probing record (`reports/data/syzygy-<date>-<commit>.json`):
//! how many WDL and DTZ probes a second Quince's prober makes on a host.

use serde::{Deserialize, Serialize};
use std::path::Path;

use crate::measure::host::{CommitInfo, Host};
use crate::record::Toolchain;
use crate::util::Result;

/// The format this xtask writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// One run of `xtask syzygy`.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct SyzygyRecord {
    /// Always `"syzygy"`.
    pub kind: String,
    pub format_version: u32,
    pub commit: CommitInfo,
    pub date_utc: String,
    pub host: Host,
    pub toolchain: Toolchain,
    /// Where the tables came from, how many files, the most pieces.
    pub tables: String,
    pub table_files: usize,
    pub max_pieces: usize,
    /// The positions probed each round (the fixture's, repeated).
    pub positions: String,
    pub positions_per_round: u64,
    /// The command of one round (stdin: the positions).
    pub command: String,
    /// Every timed round (a first, untimed round warms the page cache).
    pub rounds: Vec<SyzygyRound>,
    pub run_seconds: f64,
}

/// One round: the probe calls alone timed (`quince syzygy --rate`).
#[derive(Serialize, Deserialize, Debug, Clone, Copy)]
pub struct SyzygyRound {
    pub wdl_per_second: f64,
    pub dtz_per_second: f64,
}

impl SyzygyRecord {
    /// `syzygy-<date>-<commit>.json`.
    pub fn file_name(&self) -> String {
        format!("syzygy-{}-{}.json", &self.date_utc[..10], self.commit.short)
    }
}

/// Every Syzygy record in `dir`, oldest first.
pub fn load_from(dir: &Path) -> Result<Vec<(String, SyzygyRecord)>> {
    crate::record::load_kind(
        dir,
        "syzygy-",
        "syzygy",
        FORMAT_VERSION,
        |r: &SyzygyRecord| crate::record::Header {
            kind: &r.kind,
            format_version: r.format_version,
            date_utc: &r.date_utc,
        },
    )
}
