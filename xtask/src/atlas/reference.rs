//! The field's reference comparison on the same CPU: Gigantua/Chess_Movegen
//! (`movegen_compare`, built by `../shared/chess-movegen/build.sh`), run
//! once, its single-threaded table parsed, and its figure set beside
//! Quince's for every technique both have ([`SAME_TECHNIQUE`]).
//!
//! Its figure is million queen lookups per second over random squares and
//! occupancies with a simulated hash-table cache pressure, its own
//! workload, not Quince's fixed set: the two rates compare the
//! implementations, each on its own harness, on one CPU.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde::{Deserialize, Serialize};

use crate::measure::host::sha256;
use crate::util::Result;

/// Quince's technique and the row of Chess_Movegen's table that is the
/// same technique (from each Quince file's header and Chess_Movegen's
/// names). A Quince technique absent here has no counterpart there.
pub const SAME_TECHNIQUE: &[(&str, &str)] = &[
    ("hq", "Hyperbola Quintessence o^(o-2r)"),
    ("magic", "Fancy Magic BB - Variable shift"),
    ("pext", "Pext constexpr"),
    ("pext-emulated", "Pext Emulated"),
    ("split-pext", "Split Pext"),
    ("sissy", "SISSY Bitboards"),
    (
        "kindergarten-super-sissy",
        "Kindergarten Super SISSY Bitboards",
    ),
    ("classical", "Classical Bob-Mike"),
    ("obstruction", "Obstruction Difference"),
    ("sbamg", "SBAMG o^(o-3cbn)"),
    ("slide-arithmetic", "Slide Arithmetic"),
    ("leorik", "Leorik"),
    ("qbb", "QBBEngine"),
    ("bitrotation", "Bitrotation"),
    ("genetic-obstruction", "Genetic Obstruction Difference"),
    ("kindergarten", "Kindergarten"),
    ("plain-magic", "Plain Magic BB"),
    ("black-magic", "Black Magic BB - Fixed shift"),
    ("kogge-stone", "Kogge-Stone"),
    ("dumb7", "Dumb7 Fill"),
    ("rotated", "Rotated Bitboards"),
    ("galois-field", "GaloisField - AVX512"),
    ("avx2-shift", "AVX Branchless Shift"),
    ("switch", "Reference (Switch Lookup)"),
    ("bob-mike", "Advanced Bob-Mike"),
    ("exploding", "Exploding Bitboards"),
    ("hypercube", "HyperCube"),
    ("folding-hash", "FoldingHash - 4x fancy magic"),
    ("spectral-magic", "Spectral Magic Switched"),
];

/// One run of the reference program.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct ReferenceRun {
    pub program: String,
    pub sha256: String,
    /// Its whole output, kept so the parse can be checked.
    pub output: String,
    pub seconds: f64,
    /// Its single-threaded table: row name -> MQueens/s.
    pub mqueens_per_s: BTreeMap<String, f64>,
    /// Quince's technique -> the reference's row name, for the rows found.
    pub same_technique: BTreeMap<String, String>,
}

/// Runs `bin` (in its own folder) and parses its first table.
pub fn run(bin: &Path) -> Result<ReferenceRun> {
    eprintln!(
        "[atlas] running the reference {} (a few minutes, one thread)",
        bin.display()
    );
    let started = std::time::Instant::now();
    let mut cmd = Command::new(bin);
    if let Some(dir) = bin.parent() {
        cmd.current_dir(dir);
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    let output = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        return Err(format!("{} failed ({})", bin.display(), out.status));
    }
    let rates = parse(&output);
    if rates.is_empty() {
        return Err(format!("no table in the output of {}", bin.display()));
    }
    let same_technique = SAME_TECHNIQUE
        .iter()
        .filter(|(_, theirs)| rates.contains_key(*theirs))
        .map(|(ours, theirs)| (ours.to_string(), theirs.to_string()))
        .collect();
    Ok(ReferenceRun {
        program: "Gigantua/Chess_Movegen movegen_compare".into(),
        sha256: sha256(bin)?,
        output,
        seconds,
        mqueens_per_s: rates,
        same_technique,
    })
}

/// The first table after a `Name  Performance` header: each row's name
/// (up to the first run of two spaces) and rate. Later tables (the
/// multithreaded run) are not read.
pub fn parse(output: &str) -> BTreeMap<String, f64> {
    let mut rates = BTreeMap::new();
    let mut in_table = false;
    for line in output.lines() {
        if line.starts_with("Name ") && line.contains("Performance") {
            if in_table {
                break;
            }
            in_table = true;
            continue;
        }
        if !in_table {
            continue;
        }
        let Some((name, rest)) = line.split_once("  ") else {
            if !rates.is_empty() && line.trim().is_empty() {
                break;
            }
            continue;
        };
        // A name as long as its column is followed by one space only:
        // then the rate is the name's last word.
        let (name, rate) = match name.rsplit_once(' ') {
            Some((head, last)) if last.parse::<f64>().is_ok() => (head, last.parse().ok()),
            _ => (
                name,
                rest.split_whitespace().next().and_then(|r| r.parse().ok()),
            ),
        };
        if let Some(rate) = rate {
            rates.insert(name.trim().to_string(), rate);
        } else if !rates.is_empty() {
            break;
        }
    }
    rates
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_first_table_only() {
        let text = "Verify Engines...OK!\n\nAMD EPYC\n\nMillion Lookups/s ...:\n\
            Name                               Performance [MQueens/s]       Tablesize\n\
            Hyperbola Quintessence o^(o-2r)    596.620467                    256     [2kb]\n\
            Kogge-Stone                        783.932888                    0       [0kb]\n\
            Kindergarten Super SISSY Bitboards 310.022199                    132    [1kb]\n\
            \n\
            Multithreaded:\n\
            Name                               Performance [MQueens/s]\n\
            Kogge-Stone                        9999.0\n";
        let rates = parse(text);
        assert_eq!(rates.len(), 3);
        assert_eq!(rates["Kindergarten Super SISSY Bitboards"], 310.022199);
        assert_eq!(rates["Kogge-Stone"], 783.932888);
        assert_eq!(rates["Hyperbola Quintessence o^(o-2r)"], 596.620467);
    }
}
