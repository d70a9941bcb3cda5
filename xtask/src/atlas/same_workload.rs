//! The reference's own code timed in Quince's own workload: where Quince's
//! grouped rate trails the reference's figure, is it the code or the
//! harness?
//!
//! The reference's figure comes from its own harness (its random inputs,
//! a simulated hash-table cache pressure, every technique in one process)
//! and Quince's from `quince lookups --mode grouped`. Their ratio mixes two
//! codes with two harnesses. Here the driver `tools/cmg-instructions.cpp`
//! (the one callgrind counts) is built as the reference builds itself
//! (`-march=native`, its Makefile's other flags, clang's vectorisers off as
//! in the like-for-like build) and runs one technique of the reference's
//! headers over exactly Quince's grouped inputs, timed by its own steady
//! clock around the passes. Each run follows Quince's grouped run of the
//! same technique in the same isolated round, so a slow minute of a noisy
//! host hits both: the ratio is taken round by round.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde::{Deserialize, Serialize};

use super::GROUPED_INPUTS;
use super::reference_instructions::{self, DRIVER, HARNESS_LOOP, Sources, compiler};
use crate::measure::host::{sha256, version_line};
use crate::util::{Result, output, root};

/// The reference's Makefile flags as it builds itself: the counted
/// build's ([`reference_instructions::FLAGS`], vectorisers off) with its
/// own `-march=native` back.
pub fn flags() -> Vec<&'static str> {
    reference_instructions::FLAGS
        .iter()
        .map(|f| {
            if f.starts_with("-march=") {
                "-march=native"
            } else {
                f
            }
        })
        .collect()
}

/// The timed runs of one record.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct SameWorkload {
    /// The Chess_Movegen commit the headers came from.
    pub source_commit: String,
    pub compiler: String,
    pub flags: Vec<String>,
    pub driver: String,
    pub driver_sha256: String,
    /// How the driver's loops ran (`reference_instructions::HARNESS_LOOP`);
    /// `None` in older records, whose loops `-funroll-loops` could unroll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness_loop: Option<String>,
    /// One run, `{technique}` standing for the name.
    pub command: String,
    /// Quince's technique name -> the reference's MQueens/s per isolated
    /// round, each run right after Quince's grouped run in that round.
    pub mqueens_per_s: BTreeMap<String, Vec<f64>>,
}

/// The built driver, ready to time.
pub struct Timed {
    binary: std::path::PathBuf,
    passes: u64,
    record: SameWorkload,
}

impl Timed {
    /// Builds the timed driver from `sources`; each run makes `passes`
    /// passes (those of Quince's grouped runs).
    pub fn build(sources: &Sources, passes: u64) -> Result<Timed> {
        let flags = flags();
        let binary = sources.build(&flags, "cmg-timed")?;
        Ok(Timed {
            record: SameWorkload {
                source_commit: sources.commit.clone(),
                compiler: version_line(&compiler(), "--version"),
                flags: flags.iter().map(|f| f.to_string()).collect(),
                driver: DRIVER.into(),
                driver_sha256: sha256(&root().join(DRIVER))?,
                harness_loop: Some(HARNESS_LOOP.into()),
                command: format!("{} {{technique}} {passes} --time", binary.display()),
                mqueens_per_s: BTreeMap::new(),
            },
            binary,
            passes,
        })
    }

    /// Times `technique` once and keeps its rate.
    pub fn run(&mut self, technique: &str) -> Result<()> {
        let rate = rate(&self.binary, technique, self.passes)?;
        self.record
            .mqueens_per_s
            .entry(technique.to_string())
            .or_default()
            .push(rate);
        Ok(())
    }

    pub fn into_record(self) -> SameWorkload {
        self.record
    }
}

/// One timed run of the driver: MQueens/s.
fn rate(binary: &Path, technique: &str, passes: u64) -> Result<f64> {
    let text = output(Command::new(binary).args([technique, &passes.to_string(), "--time"]))?;
    parse_rate(&text, passes)
        .ok_or_else(|| format!("{DRIVER} {technique} {passes} --time printed '{text}'"))
}

/// The rate from the driver's two lines (the folded result, the seconds).
fn parse_rate(text: &str, passes: u64) -> Option<f64> {
    let mut lines = text.lines();
    lines.next()?.trim().parse::<u64>().ok()?;
    let seconds: f64 = lines.next()?.trim().parse().ok()?;
    (seconds > 0.0).then(|| (passes * GROUPED_INPUTS) as f64 / seconds / 1e6)
}

#[cfg(test)]
mod tests {
    use super::{flags, parse_rate};

    #[test]
    fn the_timed_build_is_the_counted_one_at_native() {
        let f = flags();
        assert!(f.contains(&"-march=native") && !f.contains(&"-march=x86-64-v3"));
        assert!(f.contains(&"-fno-vectorize") && f.contains(&"-fno-slp-vectorize"));
        assert_eq!(f.len(), super::reference_instructions::FLAGS.len());
    }

    #[test]
    fn the_rate_comes_from_the_seconds_line() {
        // 10 passes of 4092 lookups in 0.0004092 s: 100 million a second.
        let r = parse_rate("123456\n0.000409200\n", 10).unwrap();
        assert!((r - 100.0).abs() < 1e-9, "{r}");
        assert_eq!(parse_rate("123456\n", 10), None);
        assert_eq!(parse_rate("oops\n0.1\n", 10), None);
        assert_eq!(parse_rate("1\n0\n", 10), None);
    }
}
