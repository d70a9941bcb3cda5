//! Building what a measurement runs: Quince's `quince` binary and the
//! lab harness (`examples/lab_perft.rs`) from the measured checkout, with
//! one set of flags, into `target/lab/<label>/`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{Result, cargo, has_bmi2, root, set_rustflags, status};

/// The flags every Rust build of a measurement uses: the host's own CPU
/// where it has BMI2 (the C peers are built with `-march=native` too), so
/// no contender is held to an older instruction set than another.
pub fn rustflags() -> &'static str {
    if has_bmi2() {
        "-C target-cpu=native"
    } else {
        ""
    }
}

/// The binaries of one build.
pub struct Built {
    pub quince: PathBuf,
    pub lab_perft: PathBuf,
}

/// Builds `quince` and `lab_perft` from `checkout` with `features`
/// (a backend's feature among them), each set of features in its own
/// target directory so that builds do not overwrite each other.
pub fn build(checkout: &Path, label: &str, features: &str) -> Result<Built> {
    let target = root().join("target").join("lab").join(label);
    let mut cmd = Command::new(cargo());
    cmd.current_dir(checkout)
        .args([
            "build",
            "--release",
            "--quiet",
            "--bin",
            "quince",
            "--example",
            "lab_perft",
            "--features",
            features,
        ])
        .env("CARGO_TARGET_DIR", &target);
    set_rustflags(&mut cmd, rustflags());
    status(&mut cmd)?;
    let dir = target.join("release");
    Ok(Built {
        quince: dir.join("quince"),
        lab_perft: dir.join("examples").join("lab_perft"),
    })
}
