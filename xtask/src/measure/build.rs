//! Building what a measurement runs: Quince's `quince` binary and the
//! lab harness (`examples/lab_perft.rs`) from the measured checkout, with
//! one set of flags, into `target/lab/<label>/`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{Result, cargo, has_bmi2, root, set_rustflags, status};

/// The flags every Rust build of a measurement uses: `x86-64-v3` (BMI2,
/// AVX2, POPCNT) where the CPU has BMI2. Not `native`: on a CPU with
/// AVX-512 that emits instructions valgrind 3.19 cannot decode, and the
/// instruction counts must come from the binaries that were timed. The C
/// peers keep their authors' `-march=native`, so Quince is, if anything,
/// held to the older instruction set.
pub fn rustflags() -> &'static str {
    if has_bmi2() {
        "-C target-cpu=x86-64-v3"
    } else {
        ""
    }
}

/// The binaries of one build.
pub struct Built {
    pub quince: PathBuf,
    pub lab_perft: PathBuf,
}

/// Builds `quince` and `lab_perft` from `checkout` with `features` (a
/// backend's feature among them) and copies both to `target/lab/<label>/`.
/// Every build shares one target directory, so the harness's
/// dev-dependencies (the peer crates, criterion, ...) compile once, not
/// once per backend.
pub fn build(checkout: &Path, label: &str, features: &str) -> Result<Built> {
    build_with(checkout, label, features, rustflags(), "build")
}

/// [`build`] with its own `RUSTFLAGS` and target directory
/// (`target/lab/<target>`): the atlas builds one commit twice, with
/// native flags and with x86-64-v3, and separate directories keep each
/// build incremental instead of one flag set invalidating the other.
pub fn build_with(
    checkout: &Path,
    label: &str,
    features: &str,
    flags: &str,
    target: &str,
) -> Result<Built> {
    let release = cargo_build(checkout, features, flags, target, true)?;
    Ok(Built {
        quince: copy_out(&release.join("quince"), label, "quince")?,
        lab_perft: copy_out(
            &release.join("examples").join("lab_perft"),
            label,
            "lab_perft",
        )?,
    })
}

/// [`build_with`] for the `quince` binary alone. Why: the harness is an
/// example, so building it compiles every dev-dependency (criterion,
/// pprof, gungraun, the peer crates); a build that only counts
/// instructions of `quince lookups` skips them (minutes of a cold run).
pub fn build_quince_with(
    checkout: &Path,
    label: &str,
    features: &str,
    flags: &str,
    target: &str,
) -> Result<PathBuf> {
    let release = cargo_build(checkout, features, flags, target, false)?;
    copy_out(&release.join("quince"), label, "quince")
}

/// `cargo build --release` of `quince` (and the harness if asked) into
/// `target/lab/<target>`; returns its `release` folder.
fn cargo_build(
    checkout: &Path,
    features: &str,
    flags: &str,
    target: &str,
    harness: bool,
) -> Result<PathBuf> {
    let target = root().join("target").join("lab").join(target);
    let mut cmd = Command::new(cargo());
    cmd.current_dir(checkout)
        .args(["build", "--release", "--quiet", "--bin", "quince"]);
    if harness {
        cmd.args(["--example", "lab_perft"]);
    }
    cmd.args(["--features", features])
        .env("CARGO_TARGET_DIR", &target);
    set_rustflags(&mut cmd, flags);
    status(&mut cmd)?;
    Ok(target.join("release"))
}

/// Copies a built binary to `target/lab/<label>/<name>`.
fn copy_out(from: &Path, label: &str, name: &str) -> Result<PathBuf> {
    let out = root().join("target").join("lab").join(label);
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let to = out.join(name);
    std::fs::copy(from, &to).map_err(|e| format!("{} -> {}: {e}", from.display(), to.display()))?;
    Ok(to)
}
