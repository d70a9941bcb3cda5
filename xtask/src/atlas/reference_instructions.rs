//! Instructions per grouped queen lookup of the reference's own
//! techniques (Gigantua/Chess_Movegen), to set beside Quince's in the
//! atlas: where Quince is below 0.9x of the reference, the page says
//! whether it does more work per lookup or the same work waiting longer.
//!
//! The reference's program cannot be counted as built: `-march=native`
//! puts AVX-512 in it on the CPUs that have it, which valgrind 3.19 cannot
//! decode, and it times every technique in one process. So a small driver
//! of ours, `tools/cmg-instructions.cpp`, calls one technique of the
//! reference's headers in the workload of `quince lookups --mode grouped`
//! (twelve squares per occupancy, 341 occupancies a pass), built with the
//! reference's Makefile flags but `-march=x86-64-v3` (the target of
//! Quince's own counted build) and clang's vectorisers off (as Quince's
//! grouped mode keeps lookups apart). Instruction counts depend on the
//! compiler and its flags, not on the CPU that runs them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::{Deserialize, Serialize};

use super::reference::SAME_TECHNIQUE;
use super::{GROUPED_INPUTS, per_lookup_under_callgrind};
use crate::measure::host::{sha256, version_line};
use crate::util::{Result, output, root};

/// The driver, relative to the repository root.
pub const DRIVER: &str = "tools/cmg-instructions.cpp";

/// The reference's Makefile flags with `-march=x86-64-v3` for its
/// `-march=native`, and the vectorisers off.
pub const FLAGS: &[&str] = &[
    "-O3",
    "-mllvm",
    "-inline-threshold=16000",
    "-fdeclspec",
    "-march=x86-64-v3",
    "-funroll-loops",
    "-std=c++20",
    "-fno-vectorize",
    "-fno-slp-vectorize",
];

/// How the driver's own loops run, as records since this driver state it:
/// kept rolled, the shape of Quince's grouped loop, so that a count or a
/// rate compares lookups and not loop shapes (the driver's comment has the
/// measurement). Records without the field were taken with the loops left
/// to `-funroll-loops`, which wrote some techniques' twelve lookups out.
pub const HARNESS_LOOP: &str =
    "rolled (`#pragma clang loop unroll(disable)`), as Quince's grouped loop";

/// The techniques the driver cannot count: GaloisField needs AVX-512.
const NOT_COUNTED: &[&str] = &["galois-field"];

/// The reference's instruction counts, as one record holds them.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct ReferenceInstructions {
    /// The Chess_Movegen commit the headers came from.
    pub source_commit: String,
    pub compiler: String,
    pub flags: Vec<String>,
    pub driver: String,
    pub driver_sha256: String,
    /// [`HARNESS_LOOP`] when the driver kept its loops rolled; `None` in
    /// older records, whose loops `-funroll-loops` could unroll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness_loop: Option<String>,
    /// Quince's technique name -> the reference's instructions per grouped
    /// queen lookup.
    pub per_lookup: BTreeMap<String, f64>,
}

/// The C++ compiler: `$CXX` when set, else Debian's clang-16 (the one the
/// reference's Makefile names).
pub(super) fn compiler() -> String {
    std::env::var("CXX").unwrap_or_else(|_| "clang++-16".into())
}

/// The reference's sources unpacked from a git dir of
/// Gigantua/Chess_Movegen, ready to build the driver against.
pub struct Sources {
    pub commit: String,
    dir: PathBuf,
}

impl Sources {
    /// Unpacks the commit at `git_dir`'s HEAD into
    /// `target/lab/cmg-instructions/src`.
    pub fn unpack(git_dir: &Path) -> Result<Sources> {
        let commit = output(
            Command::new("git")
                .arg("--git-dir")
                .arg(git_dir)
                .args(["rev-parse", "HEAD"]),
        )?
        .trim()
        .to_string();
        let dir = work_dir().join("src");
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        // The headers, as the commit has them: `git archive | tar -x`.
        let archive = Command::new("git")
            .arg("--git-dir")
            .arg(git_dir)
            .args(["archive", "HEAD"])
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("git archive: {e}"))?;
        let untar = Command::new("tar")
            .args(["-x", "-C"])
            .arg(&dir)
            .stdin(archive.stdout.ok_or("git archive: no output")?)
            .status()
            .map_err(|e| format!("tar: {e}"))?;
        if !untar.success() {
            return Err(format!(
                "could not unpack the sources of {}",
                git_dir.display()
            ));
        }
        Ok(Sources { commit, dir })
    }

    /// Builds the driver with `flags` into
    /// `target/lab/cmg-instructions/<name>`.
    pub fn build(&self, flags: &[impl AsRef<std::ffi::OsStr>], name: &str) -> Result<PathBuf> {
        let driver = root().join(DRIVER);
        let binary = work_dir().join(name);
        let cxx = compiler();
        let built = Command::new(&cxx)
            .args(flags)
            .arg(&driver)
            .arg("-I")
            .arg(&self.dir)
            .arg("-o")
            .arg(&binary)
            .status()
            .map_err(|e| format!("cannot run {cxx} (Debian: apt-get install -y clang-16): {e}"))?;
        if !built.success() {
            return Err(format!("{cxx} could not build {DRIVER}"));
        }
        Ok(binary)
    }
}

fn work_dir() -> PathBuf {
    root().join("target/lab/cmg-instructions")
}

/// Whether the driver has `technique` (the reference has it, and the
/// driver can call it without AVX-512).
pub fn has(technique: &str) -> bool {
    SAME_TECHNIQUE.iter().any(|(n, _)| *n == technique) && !NOT_COUNTED.contains(&technique)
}

/// Builds the driver from `sources` and counts every technique of
/// `techniques` that the reference also has.
pub fn measure(sources: &Sources, techniques: &[String]) -> Result<ReferenceInstructions> {
    let binary = sources.build(FLAGS, "cmg-instructions")?;
    let cxx = compiler();
    let driver = root().join(DRIVER);
    let mut per_lookup = BTreeMap::new();
    for (name, _) in SAME_TECHNIQUE {
        if !has(name) || !techniques.iter().any(|t| t == name) {
            continue;
        }
        // The driver's passes are those of `quince lookups --mode grouped`.
        let args = |passes: u64| vec![name.to_string(), passes.to_string()];
        let value = per_lookup_under_callgrind(&binary, args, GROUPED_INPUTS)?;
        eprintln!("[atlas] callgrind reference {name}: {value:.1} instructions per grouped lookup");
        per_lookup.insert(name.to_string(), value);
    }
    Ok(ReferenceInstructions {
        source_commit: sources.commit.clone(),
        compiler: version_line(&cxx, "--version"),
        flags: FLAGS.iter().map(|f| f.to_string()).collect(),
        driver: DRIVER.into(),
        driver_sha256: sha256(&driver)?,
        harness_loop: Some(HARNESS_LOOP.into()),
        per_lookup,
    })
}
