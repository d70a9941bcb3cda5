//! The peers record (`reports/data/peers-<date>-<commit>.json`): Quince
//! against the peer engines, as a flat list of figures, each with its unit
//! and method, so that a record measured here and one converted from an
//! older report read the same way.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::lab::{CommitInfo, Host, Record as SlidersRecord};
use crate::util::{Result, root};

/// The record's `format_version`; bump it when a field changes meaning.
pub const FORMAT_VERSION: u32 = 1;

/// One run of `xtask report` on one machine.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct PeersRecord {
    /// Always `"peers"`.
    pub kind: String,
    pub format_version: u32,
    pub commit: CommitInfo,
    /// When the run started, ISO 8601, UTC.
    pub date_utc: String,
    pub host: Host,
    /// `rustc -V`.
    pub rustc: String,
    /// `RUSTFLAGS` of the benches (empty: `.cargo/config.toml`'s x86-64-v2).
    pub rustflags: String,
    /// Cargo features of the benches (the Quince backend, `peers-pext`).
    pub features: String,
    /// The Quince backend the figures are for (`slider` of its perft).
    pub quince_slider: String,
    /// Each peer engine and its version or build.
    pub engines: Vec<Engine>,
    /// How the figures were obtained, in a sentence each.
    pub methods: Vec<String>,
    pub figures: Vec<Figure>,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Engine {
    /// As in [`Figure::engine`]: `quince`, `cozy-chess`, `shakmaty`,
    /// `chess`, `gigantua`.
    pub name: String,
    /// Version and build (`0.3, default features`, `g++ -O3 -march=native`).
    pub build: String,
}

/// One measured figure.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Figure {
    /// What was measured: `perft-bulk`, `perft-full` (criterion, in one
    /// process), `movegen`, `make` (criterion), `instructions-bulk`,
    /// `instructions-full` (gungraun), `process-bulk` (whole process,
    /// alternating, against Gigantua).
    pub group: String,
    /// The workload: `start d5`, or the benchmark's id for movegen/make.
    pub workload: String,
    pub engine: String,
    pub value: f64,
    /// `Mnodes/s`, `Mmoves/s`, `instructions/node`.
    pub unit: String,
}

impl PeersRecord {
    /// The figure of `engine` in `group` on `workload`.
    pub fn get(&self, group: &str, workload: &str, engine: &str) -> Option<f64> {
        self.figures
            .iter()
            .find(|f| f.group == group && f.workload == workload && f.engine == engine)
            .map(|f| f.value)
    }

    /// The workloads of `group`, in the order first recorded.
    pub fn workloads(&self, group: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for f in self.figures.iter().filter(|f| f.group == group) {
            if !out.contains(&f.workload) {
                out.push(f.workload.clone());
            }
        }
        out
    }

    /// The engines of `group`, Quince first, then in the order recorded.
    pub fn engines_in(&self, group: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for f in self.figures.iter().filter(|f| f.group == group) {
            if !out.contains(&f.engine) {
                out.push(f.engine.clone());
            }
        }
        out.sort_by_key(|e| e != "quince");
        out
    }
}

/// Every record under `reports/data/`, by kind, each with its path,
/// oldest first (the file names start with the kind and the date).
pub struct Records {
    pub peers: Vec<(PathBuf, PeersRecord)>,
    pub sliders: Vec<(PathBuf, SlidersRecord)>,
}

pub fn data_dir() -> PathBuf {
    root().join("reports").join("data")
}

fn read<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads every `peers-*.json` and `sliders-*.json` record; a record that
/// does not parse is an error (naming the file), not silently left out.
pub fn load() -> Result<Records> {
    let dir = data_dir();
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    let mut records = Records {
        peers: Vec::new(),
        sliders: Vec::new(),
    };
    for path in names {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.starts_with("peers-") {
            let r: PeersRecord = read(&path)?;
            records.peers.push((path, r));
        } else if name.starts_with("sliders-") {
            let r: SlidersRecord = read(&path)?;
            if !r.quick {
                records.sliders.push((path, r));
            }
        }
    }
    records
        .peers
        .sort_by(|a, b| a.1.date_utc.cmp(&b.1.date_utc));
    records
        .sliders
        .sort_by(|a, b| a.1.date_utc.cmp(&b.1.date_utc));
    Ok(records)
}

/// The CPU family a host belongs to, for grouping records: the
/// microarchitecture where the vendor, family and model say it plainly,
/// else the numbers.
pub fn cpu_family(host: &Host) -> String {
    let vendor = host.cpu_vendor.as_deref().unwrap_or("");
    let (family, model) = (host.cpu_family.unwrap_or(0), host.cpu_model.unwrap_or(0));
    let name = match (vendor, family, model) {
        ("AuthenticAMD", 23, _) => Some("AMD Zen 1/2"),
        ("AuthenticAMD", 25, 0x00..=0x0f | 0x20..=0x5f) => Some("AMD Zen 3"),
        ("AuthenticAMD", 25, _) => Some("AMD Zen 4"),
        ("AuthenticAMD", 26, _) => Some("AMD Zen 5"),
        ("GenuineIntel", 6, 0x8f) => Some("Intel Sapphire Rapids"),
        ("GenuineIntel", 6, 0xcf) => Some("Intel Emerald Rapids"),
        ("GenuineIntel", 6, 0xa7) => Some("Intel Rocket Lake"),
        ("GenuineIntel", 6, 0xad | 0xae) => Some("Intel Granite Rapids"),
        ("GenuineIntel", 6, 0x6a | 0x6c) => Some("Intel Ice Lake SP"),
        ("GenuineIntel", 6, 0x55) => Some("Intel Skylake SP / Cascade Lake"),
        _ => None,
    };
    match name {
        Some(n) => format!("{n} (family {family}, model {model})"),
        None => format!(
            "{} family {family}, model {model}",
            if vendor.is_empty() { "CPU" } else { vendor }
        ),
    }
}

/// The latest record of each CPU family, in the order of first appearance.
pub fn latest_per_family<T>(
    records: &[(PathBuf, T)],
    host: impl Fn(&T) -> &Host,
) -> Vec<(String, &Path, &T)> {
    let mut out: Vec<(String, &Path, &T)> = Vec::new();
    for (path, r) in records {
        let family = cpu_family(host(r));
        match out.iter_mut().find(|(f, _, _)| *f == family) {
            Some(slot) => *slot = (family, path, r),
            None => out.push((family, path, r)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(vendor: &str, family: u32, model: u32) -> Host {
        Host {
            cpu_model_name: "x".into(),
            cpu_vendor: Some(vendor.into()),
            cpu_family: Some(family),
            cpu_model: Some(model),
            cpu_stepping: None,
            l1d_bytes: None,
            l1i_bytes: None,
            l2_bytes: None,
            l3_bytes: None,
            logical_cores: 2,
            bmi2: true,
            avx2: true,
        }
    }

    #[test]
    fn families_are_named() {
        assert!(cpu_family(&host("AuthenticAMD", 26, 2)).starts_with("AMD Zen 5"));
        assert!(cpu_family(&host("AuthenticAMD", 25, 1)).starts_with("AMD Zen 3"));
        assert!(cpu_family(&host("AuthenticAMD", 25, 0x11)).starts_with("AMD Zen 4"));
        assert!(cpu_family(&host("GenuineIntel", 6, 207)).starts_with("Intel Emerald Rapids"));
        assert!(cpu_family(&host("GenuineIntel", 6, 167)).starts_with("Intel Rocket Lake"));
        assert_eq!(
            cpu_family(&host("GenuineIntel", 6, 1)),
            "GenuineIntel family 6, model 1"
        );
    }

    #[test]
    fn latest_record_of_each_family_wins() {
        let list = vec![
            (PathBuf::from("a"), host("AuthenticAMD", 26, 2)),
            (PathBuf::from("b"), host("GenuineIntel", 6, 207)),
            (PathBuf::from("c"), host("AuthenticAMD", 26, 2)),
        ];
        let latest = latest_per_family(&list, |h| h);
        assert_eq!(latest.len(), 2);
        assert_eq!(latest[0].1, Path::new("c"));
        assert_eq!(latest[1].1, Path::new("b"));
    }
}
