//! The records under `reports/data/`: the only source of the figures the
//! pages show. A lab record (`peers-*.json` from `report`, `sliders-*.json`
//! from `lab`) holds one or more paired comparisons with every round, the
//! deterministic instruction counts, and everything needed to repeat the
//! run (commit, binaries' SHA-256, command lines, toolchain, host). Match
//! records (`match-*.json`) are in [`matches`](mod@matches), data-set records
//! (`dataset-*.json`) in [`datasets`].

pub mod datasets;
pub mod lead_profile;
pub mod matches;
pub mod syzygy;
pub mod v1;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::measure::host::{CommitInfo, Host};
pub use crate::measure::instructions::Instructions;
use crate::measure::{Contender, Timings};
use crate::util::{Result, root};

/// The `format_version` of lab records written now. Version 1 records
/// (medians only, no rounds) live in `reports/data/v1/` ([`v1`]).
pub const FORMAT_VERSION: u32 = 2;

/// `reports/data/`.
pub fn data_dir() -> PathBuf {
    root().join("reports").join("data")
}

/// The toolchain a record was measured with.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Toolchain {
    /// `rustc -V`.
    pub rustc: String,
    /// `RUSTFLAGS` of every Rust build.
    pub rustflags: String,
    /// Cargo features of the Quince builds (besides each backend's own).
    pub features: String,
    /// `gcc --version`'s first line (the C peers), when they ran.
    pub gcc: Option<String>,
    /// `valgrind --version`, when instructions were counted.
    pub valgrind: Option<String>,
}

/// One paired comparison: its contenders, every round, the command lines.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Comparison {
    /// `"process"` (Quince's binary against C peers), `"crates"` (Quince
    /// and the peer crates in one harness), `"backends"`.
    pub name: String,
    pub about: String,
    /// The contender every ratio is taken against (how many times faster
    /// it is): `"quince"`, or the best backend.
    pub reference: String,
    pub contenders: Vec<Contender>,
    pub timings: Timings,
    /// workload id -> contender -> the exact command line.
    pub command_lines: BTreeMap<String, BTreeMap<String, String>>,
}

/// Facts of one sliding-attack backend's build.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct BackendFacts {
    pub name: String,
    /// Bytes of the tables the backend reads (`slider_table_bytes`).
    pub table_bytes: u64,
    /// `"L1d"`, `"L2"` or `"beyond L2"`: the smallest cache they fit.
    pub fits: String,
}

/// One long perft run, timed once (too long for paired rounds).
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct DeepRun {
    /// The command as run (the binary called `quince`).
    pub command: String,
    pub position: String,
    pub depth: u32,
    /// The count it printed, and the published one.
    pub nodes: u64,
    pub expected: u64,
    pub exact: bool,
    /// Wall seconds of the whole process.
    pub seconds: f64,
    pub threads: u64,
    pub hash_mb: u64,
    /// SHA-256 of the binary.
    pub sha256: String,
    /// A work-unit run counted on several machines: each machine's share
    /// (the record's own host first). Empty for a run on one machine.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shares: Vec<DeepShare>,
}

/// One machine's share of a work-unit run: the units whose result lines
/// name its threads and table size, their leaves and their own seconds.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct DeepShare {
    pub host: Host,
    pub threads: u64,
    pub hash_mb: u64,
    pub units: usize,
    pub nodes: u64,
    pub seconds: f64,
}

/// `quince bench` at one thread count, every round (a `curve` record):
/// the search's own time and node count as bench prints them, so that
/// process start-up and table allocation stay out of both.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct SearchRun {
    pub threads: u64,
    pub depth: u32,
    /// The command as run (the binary called `quince`).
    pub command: String,
    /// Per round: bench's total search time in seconds, and nodes (all
    /// threads).
    pub seconds: Vec<f64>,
    pub nodes: Vec<u64>,
}

/// A lab record (`peers-*`, `sliders-*`, `scale-*`, `curve-*` or `units-*`).
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct LabRecord {
    /// `"peers"` or `"sliders"`.
    pub kind: String,
    pub format_version: u32,
    pub commit: CommitInfo,
    /// When the run started, ISO 8601 UTC.
    pub date_utc: String,
    pub host: Host,
    pub toolchain: Toolchain,
    pub comparisons: Vec<Comparison>,
    pub instructions: Vec<Instructions>,
    /// For `sliders`: each backend's table facts.
    pub backends: Vec<BackendFacts>,
    /// For `scale`: single deep perft runs (perft(10)), each checked.
    #[serde(default)]
    pub deep: Vec<DeepRun>,
    /// For `curve`: the search at a fixed depth, one entry per thread count.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub search: Vec<SearchRun>,
    /// Wall seconds the whole run took.
    pub run_seconds: f64,
}

impl Comparison {
    /// Measures `contenders` on `workloads` in `rounds` paired rounds
    /// ([`crate::measure::paired_rounds`]) and keeps every command line.
    pub fn measure(
        name: &str,
        about: &str,
        reference: &str,
        contenders: Vec<Contender>,
        workloads: &[crate::measure::Workload],
        rounds: usize,
    ) -> Result<Comparison> {
        let timings = crate::measure::paired_rounds(&contenders, workloads, rounds)?;
        let command_lines = crate::measure::command_lines(&contenders, workloads);
        Ok(Comparison {
            name: name.into(),
            about: about.into(),
            reference: reference.into(),
            contenders,
            timings,
            command_lines,
        })
    }

    /// The contenders' names other than the reference, in record order.
    pub fn others(&self) -> Vec<&str> {
        self.contenders
            .iter()
            .map(|x| x.name.as_str())
            .filter(|n| *n != self.reference)
            .collect()
    }
}

impl LabRecord {
    pub fn comparison(&self, name: &str) -> Option<&Comparison> {
        self.comparisons.iter().find(|c| c.name == name)
    }

    /// The file name it is written under.
    pub fn file_name(&self) -> String {
        format!(
            "{}-{}-{}.json",
            self.kind,
            self.date_utc.get(..10).unwrap_or("undated"),
            self.commit.short
        )
    }

    pub fn write(&self) -> Result<PathBuf> {
        self.write_to(&data_dir())
    }

    /// Writes it into `dir` (a measurement made on another machine
    /// writes beside its outputs, to be copied into `reports/data/`).
    pub fn write_to(&self, dir: &Path) -> Result<PathBuf> {
        write_json(dir, &self.file_name(), self)
    }
}

/// Writes `record` as pretty JSON to `dir/name` (creating `dir`): the one
/// way every kind of record reaches `reports/data/`.
pub fn write_json<T: Serialize>(dir: &Path, name: &str, record: &T) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(name);
    let text = serde_json::to_string_pretty(record).map_err(|e| e.to_string())? + "\n";
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// Every `<prefix>*.json` in `dir`, read as `T`, with its file name, in
/// file-name order; the caller checks kind and format.
pub fn load_json<T: for<'de> Deserialize<'de>>(
    dir: &Path,
    prefix: &str,
) -> Result<Vec<(String, T)>> {
    let mut out = Vec::new();
    for (name, path) in json_files(dir)? {
        if name.starts_with(prefix) {
            out.push((name, read(&path)?));
        }
    }
    Ok(out)
}

/// The header fields a record of one kind is checked and ordered by.
pub struct Header<'a> {
    pub kind: &'a str,
    pub format_version: u32,
    pub date_utc: &'a str,
}

/// Every `<prefix>*.json` in `dir` read as `T`, each checked to be of
/// `kind` at `format_version` (an error names the file otherwise), oldest
/// first: the loader of the record kinds that live beside the lab's.
pub fn load_kind<T: for<'de> Deserialize<'de>>(
    dir: &Path,
    prefix: &str,
    kind: &str,
    format_version: u32,
    header: impl Fn(&T) -> Header<'_>,
) -> Result<Vec<(String, T)>> {
    let mut out: Vec<(String, T)> = load_json(dir, prefix)?;
    for (name, r) in &out {
        let h = header(r);
        if h.kind != kind || h.format_version != format_version {
            return Err(format!(
                "{name}: kind '{}' format_version {} (this xtask reads '{kind}' {format_version})",
                h.kind, h.format_version
            ));
        }
    }
    out.sort_by(|a, b| header(&a.1).date_utc.cmp(header(&b.1).date_utc));
    Ok(out)
}

/// Every `*.json` file in `dir`: (file name, path), in file-name order.
fn json_files(dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    Ok(paths
        .into_iter()
        .map(|path| {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (name, path)
        })
        .collect())
}

/// Every record the pages draw from.
pub struct Records {
    /// Lab records with their file names, oldest first.
    pub lab: Vec<(String, LabRecord)>,
    pub matches: Vec<matches::MatchRecord>,
    /// Format-1 records (`reports/data/v1/`), for the history table only.
    pub v1: Vec<(String, v1::Record)>,
    /// Data-set records with their file names, in set order.
    pub datasets: Vec<(String, datasets::DatasetRecord)>,
    /// Atlas records (`atlas-*.json`) with their file names, oldest first.
    pub atlas: Vec<(String, crate::atlas::AtlasRecord)>,
    /// Repeated reference runs (`reference-*.json`), oldest first.
    pub atlas_reference: Vec<(String, crate::atlas::reference::ReferenceRecord)>,
    /// Syzygy probing records (`syzygy-*.json`), oldest first.
    pub syzygy: Vec<(String, syzygy::SyzygyRecord)>,
    /// Lead-profile records (`lead-profile-*.json`), oldest first.
    pub lead_profile: Vec<(String, lead_profile::LeadProfileRecord)>,
}

impl Records {
    /// The newest clean record of `kind` (a dirty one is never quoted).
    pub fn latest(&self, kind: &str) -> Option<(&str, &LabRecord)> {
        self.newest(kind, |_| true)
    }

    /// The newest clean record of `kind` that measured `comparison`: a
    /// record made with `report --no-crates` leaves the crates to the one
    /// before it.
    pub fn latest_with(&self, kind: &str, comparison: &str) -> Option<(&str, &LabRecord)> {
        self.newest(kind, |r| r.comparison(comparison).is_some())
    }

    fn newest(&self, kind: &str, keep: impl Fn(&LabRecord) -> bool) -> Option<(&str, &LabRecord)> {
        self.lab
            .iter()
            .filter(|(_, r)| r.kind == kind && !r.commit.dirty && keep(r))
            .max_by(|a, b| a.1.date_utc.cmp(&b.1.date_utc))
            .map(|(f, r)| (f.as_str(), r))
    }
}

fn read<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Loads every record in `reports/data/`. A lab record of another format
/// version is an error naming the file (old ones belong in the archive).
pub fn load() -> Result<Records> {
    load_from(&data_dir())
}

pub fn load_from(dir: &Path) -> Result<Records> {
    let mut lab = Vec::new();
    let mut sets = Vec::new();
    for (name, path) in json_files(dir)? {
        if ["peers-", "sliders-", "scale-", "curve-", "units-"]
            .iter()
            .any(|prefix| name.starts_with(prefix))
        {
            let r: LabRecord = read(&path)?;
            if r.format_version != FORMAT_VERSION {
                return Err(format!(
                    "{name}: format_version {} (this xtask reads {FORMAT_VERSION})",
                    r.format_version
                ));
            }
            lab.push((name, r));
        } else if name.starts_with("dataset-") {
            let r: datasets::DatasetRecord = read(&path)?;
            if r.kind != "dataset" {
                return Err(format!("{name}: kind '{}', not 'dataset'", r.kind));
            }
            sets.push((name, r));
        }
    }
    lab.sort_by(|a, b| a.1.date_utc.cmp(&b.1.date_utc));
    sets.sort_by_key(|(_, r)| datasets::set_order(&r.name));
    Ok(Records {
        lab,
        matches: matches::load(dir)?,
        v1: v1::load(&dir.join("v1"))?,
        datasets: sets,
        atlas: crate::atlas::load_from(dir)?,
        atlas_reference: crate::atlas::reference::load_from(dir)?,
        syzygy: syzygy::load_from(dir)?,
        lead_profile: lead_profile::load_from(dir)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Tiny {
        kind: String,
        format_version: u32,
        date_utc: String,
    }

    fn header(r: &Tiny) -> Header<'_> {
        Header {
            kind: &r.kind,
            format_version: r.format_version,
            date_utc: &r.date_utc,
        }
    }

    #[test]
    fn load_kind_orders_by_date_and_names_a_wrong_record() {
        let dir = std::env::temp_dir().join(format!("xtask-load-kind-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let write = |name: &str, kind: &str, version: u32, date: &str| {
            let text = format!(
                r#"{{"kind": "{kind}", "format_version": {version}, "date_utc": "{date}"}}"#
            );
            std::fs::write(dir.join(name), text).unwrap();
        };
        write("tiny-a.json", "tiny", 1, "2026-11-30T10:00:00Z");
        write("tiny-b.json", "tiny", 1, "2026-11-29T10:00:00Z");
        write("other-c.json", "other", 9, "2026-11-28T10:00:00Z");
        let got = load_kind(&dir, "tiny-", "tiny", 1, header).unwrap();
        let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["tiny-b.json", "tiny-a.json"]);
        write("tiny-d.json", "tiny", 2, "2026-11-27T10:00:00Z");
        let err = load_kind(&dir, "tiny-", "tiny", 1, header).err().unwrap();
        assert!(
            err.starts_with("tiny-d.json: kind 'tiny' format_version 2"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
