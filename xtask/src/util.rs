//! Building the per-backend binaries, running perft and callgrind, facts
//! about the machine.

use std::path::{Path, PathBuf};
use std::process::Command;

pub type Result<T> = std::result::Result<T, String>;

/// The workspace root (the parent of `xtask/`).
///
/// `QUINCE_ROOT` overrides it: a prebuilt xtask copied to another machine
/// (`curve --prebuilt`) runs in a checkout at another path.
pub fn root() -> PathBuf {
    if let Some(dir) = std::env::var_os("QUINCE_ROOT") {
        return PathBuf::from(dir);
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Runs a command; returns stdout, or an error with stderr.
pub fn output(cmd: &mut Command) -> Result<String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{cmd:?} failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// A command-line option's path to an existing file: `flag`'s value, or
/// why not (the yardstick programs and reference builds the lab runs).
pub fn existing_file(flag: &str, value: Option<&String>) -> Result<PathBuf> {
    let p = PathBuf::from(value.ok_or_else(|| format!("{flag} needs a path"))?);
    if p.is_file() {
        Ok(p)
    } else {
        Err(format!("{flag}: {} is not a file", p.display()))
    }
}

/// A command-line option's positive number: `flag`'s value, or why not
/// (every lab command's `--rounds` and the like).
pub fn positive(flag: &str, value: Option<&String>) -> Result<usize> {
    let v = value.ok_or_else(|| format!("{flag} needs a number"))?;
    v.parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{flag}: '{v}' is not a positive number"))
}

/// Runs a command with inherited output; fails on a non-zero exit.
pub fn status(cmd: &mut Command) -> Result<()> {
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed ({status})"))
    }
}

// The one list of techniques and their target features, shared with
// `build.rs` (which reads it through the codegen crate).
#[path = "../../codegen/src/techniques.rs"]
mod techniques;

/// Every sliding-attack technique's feature with the target features its
/// module needs (`codegen/src/techniques.rs`, as `build.rs` reads it).
pub use techniques::BACKENDS as BACKEND_NEEDS;

/// Every sliding-attack technique's feature, in the order of
/// [`BACKEND_NEEDS`] (`every_technique!` in `src/sliders/mod.rs`).
pub const ALL_BACKENDS: [&str; BACKEND_NEEDS.len()] = {
    let mut names = [""; BACKEND_NEEDS.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = BACKEND_NEEDS[i].0;
        i += 1;
    }
    names
};

/// The target features `backend`'s module needs (`bmi2`, `avx2`,
/// `avx512f`, `avx512bw`, `avx512vl`, `gfni`: `/proc/cpuinfo` flags and
/// `target_feature` names alike); empty for a portable one or an unknown
/// name.
pub fn backend_needs(backend: &str) -> &'static [&'static str] {
    BACKEND_NEEDS
        .iter()
        .find(|(name, _)| *name == backend)
        .map_or(&[], |(_, needs)| needs)
}

/// Whether this CPU has BMI2 (so `pext` can be built and run).
pub fn has_bmi2() -> bool {
    cpu_flag("bmi2")
}

/// Whether `/proc/cpuinfo` lists `flag` (e.g. `bmi2`, `avx2`) for the CPU.
pub fn cpu_flag(flag: &str) -> bool {
    std::fs::read_to_string("/proc/cpuinfo")
        .map(|s| {
            s.lines()
                .any(|l| l.starts_with("flags") && l.split_whitespace().any(|w| w == flag))
        })
        .unwrap_or(false)
}

/// The first value of a `/proc/cpuinfo` field (`model name`, `cpu family`, ...).
pub fn cpuinfo_field(field: &str) -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines().find_map(|l| {
        let (key, value) = l.split_once(':')?;
        (key.trim() == field).then(|| value.trim().to_string())
    })
}

/// CPU 0's caches from `/sys/devices/system/cpu/cpu0/cache/index*`:
/// (level, type as the kernel names it: `Data`, `Instruction`, `Unified`, bytes).
pub fn caches() -> Vec<(u32, String, u64)> {
    let mut out = Vec::new();
    let dir = Path::new("/sys/devices/system/cpu/cpu0/cache");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if !path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("index"))
        {
            continue;
        }
        let read = |f: &str| std::fs::read_to_string(path.join(f)).map(|s| s.trim().to_string());
        let (Ok(level), Ok(kind), Ok(size)) = (read("level"), read("type"), read("size")) else {
            continue;
        };
        if let (Ok(level), Some(bytes)) = (level.parse(), parse_size(&size)) {
            out.push((level, kind, bytes));
        }
    }
    out.sort();
    out
}

/// `48K`, `2048K`, `32M`, `512` -> bytes.
fn parse_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => text.split_at(i),
        None => (text, ""),
    };
    let n: u64 = digits.parse().ok()?;
    let scale = match unit.trim() {
        "" | "B" => 1,
        "K" | "KB" | "KiB" => 1 << 10,
        "M" | "MB" | "MiB" => 1 << 20,
        "G" | "GB" | "GiB" => 1 << 30,
        _ => return None,
    };
    Some(n * scale)
}

/// `$CARGO_TARGET_DIR` or the workspace's `target/`.
pub fn default_target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
}

/// Builds `quince` exactly as `cargo build --release` does (default
/// features, i.e. `hq`, in `target/`), so CI reuses the CLI stage's build.
pub fn build_default() -> Result<PathBuf> {
    eprintln!("xtask: cargo build --release --bin quince");
    let mut cmd = Command::new(cargo());
    cmd.current_dir(root())
        .args(["build", "--release", "--bin", "quince"]);
    status(&mut cmd)?;
    Ok(default_target_dir().join("release").join("quince"))
}

/// Sets `RUSTFLAGS` exactly (removing any inherited value when empty).
pub fn set_rustflags(cmd: &mut Command, flags: &str) {
    if flags.is_empty() {
        cmd.env_remove("RUSTFLAGS");
    } else {
        cmd.env("RUSTFLAGS", flags);
    }
}

pub fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// A perft workload: a standard position at a depth, bulk or full.
#[derive(Clone, Debug)]
pub struct Workload {
    pub position: &'static str,
    pub fen: String,
    pub depth: u32,
    pub bulk: bool,
    pub nodes: u64,
}

impl Workload {
    pub fn id(&self) -> String {
        let kind = if self.bulk { "bulk" } else { "full" };
        format!("{}-{kind}-d{}", self.position, self.depth)
    }

    fn args(&self, depth: u32) -> Vec<String> {
        let mut args = vec![
            "perft".to_string(),
            "--json".into(),
            "--depth".into(),
            depth.to_string(),
            "--fen".into(),
            self.fen.clone(),
        ];
        if !self.bulk {
            args.push("--no-bulk".into());
        }
        args
    }

    /// Runs `quince perft --json`; returns the seconds it reports (checking
    /// the node count).
    pub fn time(&self, quince: &Path) -> Result<f64> {
        let text = output(Command::new(quince).args(self.args(self.depth)))?;
        let json: serde_json::Value =
            serde_json::from_str(text.trim()).map_err(|e| format!("perft JSON: {e}: {text}"))?;
        let nodes = json["nodes"].as_u64().unwrap_or(0);
        if nodes != self.nodes {
            return Err(format!(
                "{}: {} nodes, expected {}",
                self.id(),
                nodes,
                self.nodes
            ));
        }
        json["seconds"]
            .as_f64()
            .ok_or_else(|| format!("perft JSON without seconds: {text}"))
    }

    /// Instructions per node under callgrind: the instructions of the run
    /// minus those of the same command at depth 0 (process start, argument
    /// and FEN parsing, output), divided by the nodes.
    pub fn instructions_per_node(&self, quince: &Path) -> Result<(u64, f64)> {
        let full = callgrind(quince, &self.args(self.depth))?;
        let overhead = callgrind(quince, &self.args(0))?;
        let work = full.saturating_sub(overhead);
        Ok((work, work as f64 / self.nodes as f64))
    }
}

/// Runs `program args` under valgrind with `tool` (its `--tool=` and
/// options): valgrind's report (stderr) and the program's output (stdout).
/// An error says which command failed, with the end of the report.
pub fn valgrind(tool: &[&str], program: &Path, args: &[&str]) -> Result<(String, String)> {
    let out = Command::new("valgrind")
        .args(tool)
        .arg(program)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run valgrind (is it installed?): {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        let lines: Vec<&str> = stderr.lines().collect();
        return Err(format!(
            "{} {} under valgrind {} failed ({}): {}",
            program.display(),
            args.join(" "),
            tool.join(" "),
            out.status,
            lines[lines.len().saturating_sub(6)..].join("\n")
        ));
    }
    Ok((stderr, String::from_utf8_lossy(&out.stdout).into_owned()))
}

/// Total instructions (`Ir`) of a command under callgrind.
pub fn callgrind(program: &Path, args: &[String]) -> Result<u64> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (stderr, _) = valgrind(
        &[
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            "--cache-sim=no",
        ],
        program,
        &args,
    )?;
    let ir = stderr
        .lines()
        .find_map(|l| {
            let (_, rest) = l.split_once("Collected :")?;
            rest.trim().parse::<u64>().ok()
        })
        .ok_or_else(|| format!("no 'Collected' line in callgrind output: {stderr}"))?;
    Ok(ir)
}

/// Leaf counts one ply or two deeper than `tests/data/standard.epd` goes,
/// for the lab's runs of at least half a second (the protocol picks the
/// depth). All but position 4's are the published counts
/// (chessprogramming.org, "Perft Results"); position 4 at depth 7 was
/// counted by Quince and by Gigantua, which agree. Every timed run checks
/// its count again (each program prints or checks it).
const DEEPER_COUNTS: [(&str, u32, u64); 11] = [
    ("start", 7, 3_195_901_860),
    ("start", 8, 84_998_978_956),
    ("start", 9, 2_439_530_234_167),
    ("start", 10, 69_352_859_712_417),
    ("start", 11, 2_097_651_003_696_806),
    ("kiwipete", 6, 8_031_647_685),
    ("kiwipete", 7, 374_190_009_323),
    ("pos3", 8, 3_009_794_393),
    ("pos4", 7, 27_209_691_363),
    ("pos5", 6, 3_048_196_529),
    ("pos6", 6, 6_923_051_137),
];

/// The standard positions by name, with their expected counts (index =
/// depth - 1), the deeper counts above appended.
pub fn standard_positions() -> Result<Vec<(&'static str, String, Vec<u64>)>> {
    const NAMES: [(&str, usize); 6] = [
        ("start", 0),
        ("kiwipete", 1),
        ("pos3", 2),
        ("pos4", 3),
        ("pos5", 5),
        ("pos6", 6),
    ];
    let path = root().join("tests/data/standard.epd");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let lines: Vec<&str> = text.lines().collect();
    NAMES
        .iter()
        .map(|&(name, index)| {
            let line = lines
                .get(index)
                .ok_or_else(|| format!("standard.epd has no line {}", index + 1))?;
            let mut parts = line.split(';');
            let fen = parts.next().unwrap_or("").trim().to_string();
            let mut counts: Vec<u64> = parts
                .filter_map(|p| p.split_whitespace().nth(1)?.parse().ok())
                .collect();
            for &(deep_name, depth, count) in &DEEPER_COUNTS {
                if deep_name == name && counts.len() + 1 == depth as usize {
                    counts.push(count);
                }
            }
            Ok((name, fen, counts))
        })
        .collect()
}

/// Workloads over the standard positions at the given depths (bulk or full).
pub fn workloads(depths: &[(&str, u32)], bulk: bool) -> Result<Vec<Workload>> {
    let positions = standard_positions()?;
    depths
        .iter()
        .map(|&(name, depth)| {
            let (position, fen, counts) = positions
                .iter()
                .find(|(n, _, _)| *n == name)
                .ok_or_else(|| format!("no standard position {name}"))?;
            let nodes = *counts
                .get(depth as usize - 1)
                .ok_or_else(|| format!("{name}: no count for depth {depth}"))?;
            Ok(Workload {
                position,
                fen: fen.clone(),
                depth,
                bulk,
                nodes,
            })
        })
        .collect()
}

pub fn git(args: &[&str]) -> String {
    output(Command::new("git").current_dir(root()).args(args))
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "unknown".into())
}

/// The commit, with `-dirty` when the tree has uncommitted changes.
pub fn commit() -> String {
    let hash = git(&["rev-parse", "--short=12", "HEAD"]);
    let dirty = !git(&["status", "--porcelain", "--untracked-files=no"]).is_empty();
    if dirty { format!("{hash}-dirty") } else { hash }
}

pub fn cpu_model() -> String {
    cpuinfo_field("model name").unwrap_or_else(|| "unknown".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_values_are_checked_with_the_flag_in_the_message() {
        let manifest = format!("{}/Cargo.toml", env!("CARGO_MANIFEST_DIR"));
        assert_eq!(
            existing_file("--mperft", Some(&manifest)).unwrap(),
            PathBuf::from(&manifest)
        );
        let dir = env!("CARGO_MANIFEST_DIR").to_string();
        assert!(
            existing_file("--mperft", Some(&dir))
                .unwrap_err()
                .contains("--mperft:")
        );
        assert_eq!(
            existing_file("--gigantua", None).unwrap_err(),
            "--gigantua needs a path"
        );
        assert_eq!(positive("--rounds", Some(&"3".to_string())).unwrap(), 3);
        assert!(positive("--rounds", Some(&"0".to_string())).is_err());
        assert!(positive("--rounds", Some(&"x".to_string())).is_err());
        assert_eq!(
            positive("--rounds", None).unwrap_err(),
            "--rounds needs a number"
        );
    }
}
