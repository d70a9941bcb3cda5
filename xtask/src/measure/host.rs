//! What a record says about where and from what it was measured: the host
//! CPU, the commit (refusing an uncommitted tree), the toolchain, and the
//! SHA-256 of each binary that ran.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};

use crate::util::{self, Result, cpu_flag, cpuinfo_field, git, output, root};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct CommitInfo {
    /// The full hash of the measured commit.
    pub hash: String,
    /// Its first 12 hex digits (as in the record's file name).
    pub short: String,
    /// Whether the measured tree differed from the commit (only with
    /// `--allow-dirty`; such a record is never quoted in README).
    pub dirty: bool,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
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

/// This machine.
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

/// The microarchitecture a CPU's vendor, family and model name, where
/// known (one table for lab records and match records alike).
pub fn microarchitecture(vendor: &str, family: u32, model: Option<u32>) -> Option<&'static str> {
    Some(match (vendor, family, model) {
        ("AuthenticAMD", 23, _) => "Zen 1/2",
        ("AuthenticAMD", 25, Some(0x00..=0x0f | 0x20..=0x5f)) => "Zen 3",
        ("AuthenticAMD", 25, Some(_)) => "Zen 4",
        ("AuthenticAMD", 26, _) => "Zen 5",
        ("GenuineIntel", 6, Some(0x8f)) => "Sapphire Rapids",
        ("GenuineIntel", 6, Some(0xcf)) => "Emerald Rapids",
        ("GenuineIntel", 6, Some(0xa7)) => "Rocket Lake",
        ("GenuineIntel", 6, Some(0xad | 0xae)) => "Granite Rapids",
        ("GenuineIntel", 6, Some(0x6a | 0x6c)) => "Ice Lake SP",
        ("GenuineIntel", 6, Some(0x55)) => "Skylake SP / Cascade Lake",
        _ => return None,
    })
}

/// Another machine, from the output of `lscpu` saved there (for a run
/// whose work units were counted on several machines: `xtask units
/// --elsewhere`). Caches are per core: lscpu gives the total over its
/// instances ("768 KiB (16 instances)").
pub fn host_from_lscpu(path: &Path) -> Result<Host> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let field = |name: &str| {
        text.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key.trim() == name).then(|| value.trim().to_string())
        })
    };
    let number = |name: &str| field(name).and_then(|v| v.parse::<u32>().ok());
    let per_core = |name: &str| -> Option<u64> {
        let value = field(name)?;
        let mut words = value.split_whitespace();
        let amount: f64 = words.next()?.parse().ok()?;
        let unit = match words.next()? {
            "KiB" => 1u64 << 10,
            "MiB" => 1 << 20,
            "GiB" => 1 << 30,
            _ => return None,
        };
        let instances: f64 = value
            .split('(')
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(1.0);
        Some((amount * unit as f64 / instances) as u64)
    };
    let flags = field("Flags").unwrap_or_default();
    let has = |flag: &str| flags.split_whitespace().any(|f| f == flag);
    Ok(Host {
        cpu_model_name: field("Model name").ok_or_else(|| {
            format!(
                "{}: no 'Model name' line (is it lscpu's output?)",
                path.display()
            )
        })?,
        cpu_vendor: field("Vendor ID"),
        cpu_family: number("CPU family"),
        cpu_model: number("Model"),
        cpu_stepping: number("Stepping"),
        l1d_bytes: per_core("L1d cache"),
        l1i_bytes: per_core("L1i cache"),
        l2_bytes: per_core("L2 cache"),
        l3_bytes: per_core("L3 cache"),
        logical_cores: number("CPU(s)").unwrap_or(0) as usize,
        bmi2: has("bmi2"),
        avx2: has("avx2"),
    })
}

/// A short name for the CPU family, e.g. "AMD Zen 4 (family 25 model 17)".
pub fn family_name(host: &Host) -> String {
    let vendor = host.cpu_vendor.as_deref().unwrap_or("");
    let (family, model) = (host.cpu_family.unwrap_or(0), host.cpu_model.unwrap_or(0));
    let maker = match vendor {
        "AuthenticAMD" => "AMD",
        "GenuineIntel" => "Intel",
        _ => "",
    };
    let name = match (maker, microarchitecture(vendor, family, host.cpu_model)) {
        ("", _) => host.cpu_model_name.clone(),
        (maker, Some(arch)) => format!("{maker} {arch}"),
        (maker, None) => maker.to_string(),
    };
    format!("{name} (family {family} model {model})")
}

/// The tree a measurement builds from: by default a clean checkout of
/// `HEAD` in a scratch worktree, so the record names exactly one commit
/// whatever is being edited meanwhile; with `allow_dirty`, the working tree
/// as it is, and the record says so.
pub struct Checkout {
    pub dir: PathBuf,
    pub commit: CommitInfo,
    worktree: bool,
}

impl Checkout {
    pub fn new(allow_dirty: bool) -> Result<Checkout> {
        let hash = git(&["rev-parse", "HEAD"]);
        if hash.is_empty() {
            return Err("not in a git repository: a record must name its commit".into());
        }
        let short = hash[..12.min(hash.len())].to_string();
        if allow_dirty {
            let dirty = !git(&["status", "--porcelain", "--untracked-files=no"]).is_empty();
            return Ok(Checkout {
                dir: root(),
                commit: CommitInfo { hash, short, dirty },
                worktree: false,
            });
        }
        let dir = root().join("target").join("lab-checkout");
        if dir.exists() {
            let _ = Command::new("git")
                .args(["worktree", "remove", "--force"])
                .arg(&dir)
                .current_dir(root())
                .output();
            let _ = std::fs::remove_dir_all(&dir);
            let _ = Command::new("git")
                .args(["worktree", "prune"])
                .current_dir(root())
                .output();
        }
        output(
            Command::new("git")
                .args(["worktree", "add", "--detach"])
                .arg(&dir)
                .arg(&hash)
                .current_dir(root()),
        )?;
        Ok(Checkout {
            dir,
            commit: CommitInfo {
                hash,
                short,
                dirty: false,
            },
            worktree: true,
        })
    }
}

impl Drop for Checkout {
    fn drop(&mut self) {
        if self.worktree {
            let _ = Command::new("git")
                .args(["worktree", "remove", "--force"])
                .arg(&self.dir)
                .current_dir(root())
                .output();
        }
    }
}

/// The SHA-256 of a file (`sha256sum`), or an error naming it.
pub fn sha256(path: &Path) -> Result<String> {
    let out = output(Command::new("sha256sum").arg(path))?;
    out.split_whitespace()
        .next()
        .map(str::to_string)
        .ok_or_else(|| format!("sha256sum printed nothing for {}", path.display()))
}

/// `rustc -V`, `gcc --version`'s first line and the like: a tool's version
/// line, or "unknown".
pub fn version_line(program: &str, arg: &str) -> String {
    output(Command::new(program).arg(arg))
        .ok()
        .and_then(|s| s.lines().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".into())
}

/// The current time, ISO 8601 UTC (`date -u`).
pub fn now_utc() -> String {
    output(Command::new("date").args(["-u", "+%Y-%m-%dT%H:%M:%SZ"]))
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// A peer's version: the `VERSIONS.json` beside its binary if there is one
/// (written when the peers were built), else "built locally".
pub fn peer_version(name: &str, bin: &std::path::Path) -> String {
    let versions = bin.parent().map(|d| d.join("VERSIONS.json"));
    let v: Option<serde_json::Value> = versions
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|t| serde_json::from_str(&t).ok());
    v.and_then(|v| {
        let commit = v[name]["commit"].as_str()?;
        let flags = v[name]["flags"].as_str().unwrap_or("");
        Some(format!(
            "{name} at {}, {flags}",
            commit.get(..12).unwrap_or(commit)
        ))
    })
    .unwrap_or_else(|| "built locally".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(vendor: &str, family: u32, model: u32) -> Host {
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
        assert_eq!(
            family_name(&h("AuthenticAMD", 25, 17)),
            "AMD Zen 4 (family 25 model 17)"
        );
        assert_eq!(
            family_name(&h("AuthenticAMD", 26, 2)),
            "AMD Zen 5 (family 26 model 2)"
        );
        assert_eq!(
            family_name(&h("GenuineIntel", 6, 167)),
            "Intel Rocket Lake (family 6 model 167)"
        );
    }

    /// The lent machine's saved `lscpu` (reports/perft11): its CPU, and
    /// caches per core from lscpu's totals over their instances.
    #[test]
    fn host_from_lscpu_reads_the_saved_file() {
        let path = root().join("reports/perft11/xeon16-lscpu.txt");
        let host = host_from_lscpu(&path).unwrap();
        assert_eq!(host.cpu_vendor.as_deref(), Some("GenuineIntel"));
        assert_eq!((host.cpu_family, host.cpu_model), (Some(6), Some(207)));
        assert_eq!(host.logical_cores, 16);
        assert_eq!(host.l1d_bytes, Some(48 << 10));
        assert_eq!(host.l2_bytes, Some(2 << 20));
        assert_eq!(host.l3_bytes, Some(300 << 20));
        assert!(host.bmi2 && host.avx2);
        assert_eq!(
            family_name(&host),
            "Intel Emerald Rapids (family 6 model 207)"
        );
    }
}
