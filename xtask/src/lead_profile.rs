//! `cargo run -p xtask -- lead-profile --gigantua BIN`: what Quince's lead
//! over Gigantua is made of, position by position: instructions, branches
//! and mispredicted branches per leaf of bulk perft, counted by valgrind's
//! cachegrind, written as `reports/data/lead-profile-<date>-<commit>.json`
//! and rendered on `reports/atlas.md` beside the lead.
//!
//! Why: the atlas times the lead per CPU, and where it falls short of the
//! issue's target the page must say why. Time alone cannot: it is
//! instructions over instructions per cycle, and a CPU's stalls are its
//! own. Counts under valgrind are exact and repeatable; the branch
//! predictor is cachegrind's model, a stand-in for a CPU's, which is what
//! the record can say about the second term. Both programs are built for
//! `x86-64-v3` (valgrind 3.19 cannot decode AVX-512), Gigantua by
//! `tools/gigantua-for-valgrind.sh`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::measure::build::{build_quince_with, rustflags};
use crate::measure::host::{Checkout, host, now_utc, peer_version, sha256, version_line};
use crate::record::Toolchain;
use crate::record::lead_profile::{
    Counts, FORMAT_VERSION, LeadProfileRecord, ProfiledPosition, ProfiledProgram,
};
use crate::util::{Result, existing_file, has_bmi2, standard_positions, valgrind};

const HELP: &str = "\
usage: cargo run -p xtask -- lead-profile --gigantua BIN [--allow-dirty]

Counts, under valgrind's cachegrind (--branch-sim=yes), the instructions,
branches and mispredicted branches of Quince's bulk perft (the pext backend,
RUSTFLAGS='-C target-cpu=x86-64-v3') and of Gigantua on the six standard
positions, each at two depths, and writes the per-leaf difference's inputs
to reports/data/lead-profile-<date>-<commit>.json; then renders the pages
(reports/atlas.md shows it under the lead). About three minutes; the counts
do not depend on the host's load or CPU.

  --gigantua BIN  a Gigantua that valgrind can run: built for x86-64-v3
                  (GIGANTUA_GIT=<git dir> tools/gigantua-for-valgrind.sh;
                  ../shared/gigantua/build.sh's -march=native binary has
                  AVX-512 on CPUs with it, which valgrind 3.19 cannot decode)
  --allow-dirty   count the working tree as it is (the record is marked
                  dirty and never quoted)

Needs a CPU with BMI2 (the pext backend) and valgrind.";

/// The two depths per position: the deep one a few million leaves at most
/// (seconds under cachegrind), the shallow one the ply before it.
const DEPTHS: [(&str, u32); 6] = [
    ("start", 5),
    ("kiwipete", 4),
    ("pos3", 6),
    ("pos4", 4),
    ("pos5", 4),
    ("pos6", 4),
];

/// Valgrind's tool and options for every count (the record quotes them).
const CACHEGRIND: [&str; 4] = [
    "--tool=cachegrind",
    "--cache-sim=no",
    "--branch-sim=yes",
    "--cachegrind-out-file=/dev/null",
];

pub fn run(args: &[String]) -> Result<bool> {
    let (mut gigantua, mut allow_dirty) = (None::<PathBuf>, false);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--gigantua" => gigantua = Some(existing_file(arg, it.next())?),
            "--allow-dirty" => allow_dirty = true,
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(true);
            }
            other => {
                return Err(format!(
                    "lead-profile: unknown option '{other}' (see --help)"
                ));
            }
        }
    }
    let gigantua = gigantua.ok_or("lead-profile: --gigantua BIN is required (see --help)")?;
    if !has_bmi2() {
        return Err("lead-profile: this CPU has no BMI2, so no pext build to count".into());
    }
    let started = Instant::now();
    let date_utc = now_utc();
    let checkout = Checkout::new(allow_dirty)?;
    eprintln!(
        "[lead-profile] building quince (pext) at {}",
        checkout.commit.short
    );
    let quince = build_quince_with(&checkout.dir, "lead-profile", "pext", rustflags(), "build")?;
    let programs = vec![
        ProfiledProgram {
            name: "quince".into(),
            version: format!("{} with the pext backend", checkout.commit.short),
            sha256: sha256(&quince)?,
            command: "quince perft --fen {fen} --depth {depth} --json".into(),
        },
        ProfiledProgram {
            name: "gigantua".into(),
            version: peer_version("gigantua", &gigantua),
            sha256: sha256(&gigantua)?,
            command: "gigantua {fen} {depth} {nodes}".into(),
        },
    ];

    let mut positions = Vec::new();
    for (name, fen, counts) in standard_positions()? {
        let deep = DEPTHS
            .iter()
            .find(|d| d.0 == name)
            .map(|d| d.1)
            .ok_or_else(|| format!("no depths for {name}"))?;
        let depths = [deep - 1, deep];
        let nodes = depths.map(|d| counts.get(d as usize - 1).copied());
        let [Some(shallow), Some(deep_nodes)] = nodes else {
            return Err(format!("{name}: no published count at depth {deep}"));
        };
        let mut by_program = BTreeMap::new();
        for program in ["quince", "gigantua"] {
            let mut pair = Vec::new();
            for (depth, expected) in depths.into_iter().zip([shallow, deep_nodes]) {
                eprintln!("[lead-profile] {program} {name} depth {depth}");
                pair.push(match program {
                    "quince" => count_quince(&quince, &fen, depth, expected)?,
                    _ => count_gigantua(&gigantua, &fen, depth, expected)?,
                });
            }
            by_program.insert(program.to_string(), [pair[0], pair[1]]);
        }
        positions.push(ProfiledPosition {
            position: name.into(),
            fen,
            depths,
            nodes: [shallow, deep_nodes],
            counts: by_program,
        });
    }

    let record = LeadProfileRecord {
        kind: "lead-profile".into(),
        format_version: FORMAT_VERSION,
        commit: checkout.commit.clone(),
        date_utc,
        host: host(),
        toolchain: Toolchain {
            rustc: version_line("rustc", "-V"),
            rustflags: rustflags().into(),
            features: "pext".into(),
            gcc: Some(version_line("g++", "--version")),
            valgrind: Some(version_line("valgrind", "--version")),
        },
        tool: format!("valgrind {}", CACHEGRIND.join(" ")),
        programs,
        positions,
        run_seconds: started.elapsed().as_secs_f64(),
    };
    let path = crate::record::write_json(&crate::record::data_dir(), &record.file_name(), &record)?;
    crate::render::announce(&path)?;
    Ok(true)
}

/// Quince's counts for one perft, its leaf count checked.
fn count_quince(quince: &Path, fen: &str, depth: u32, expected: u64) -> Result<Counts> {
    let depth_text = depth.to_string();
    let (counts, stdout) = cachegrind(
        quince,
        &["perft", "--fen", fen, "--depth", &depth_text, "--json"],
    )?;
    let value: serde_json::Value = serde_json::from_str(stdout.trim())
        .map_err(|e| format!("quince perft --json printed '{}': {e}", stdout.trim()))?;
    let nodes = value["nodes"].as_u64();
    if nodes != Some(expected) {
        return Err(format!(
            "quince perft {depth} of '{fen}' gave {nodes:?}, not {expected}"
        ));
    }
    Ok(counts)
}

/// Gigantua's counts for one perft: it exits 0 when its count is the one
/// given.
fn count_gigantua(gigantua: &Path, fen: &str, depth: u32, expected: u64) -> Result<Counts> {
    let (depth_text, expected_text) = (depth.to_string(), expected.to_string());
    cachegrind(gigantua, &[fen, &depth_text, &expected_text])
        .map(|(counts, _)| counts)
        .map_err(|e| {
            format!(
                "{e}\n(a Gigantua built with -march=native on a CPU with AVX-512 stops valgrind: \
                 build one with tools/gigantua-for-valgrind.sh)"
            )
        })
}

/// Runs `program args` under cachegrind's branch simulation: its counts
/// and its standard output.
fn cachegrind(program: &Path, args: &[&str]) -> Result<(Counts, String)> {
    let (stderr, stdout) = valgrind(&CACHEGRIND, program, args)?;
    Ok((parse_counts(&stderr)?, stdout))
}

/// The counts in cachegrind's summary (`==pid== I   refs:  1,234`,
/// `Branches:`, `Mispredicts:`; the first number of each line).
fn parse_counts(stderr: &str) -> Result<Counts> {
    let field = |label: &str| -> Result<u64> {
        stderr
            .lines()
            .find_map(|line| {
                let (_, rest) = line.split_once(label)?;
                let number = rest.split_whitespace().next()?;
                number.replace(',', "").parse().ok()
            })
            .ok_or_else(|| format!("no '{label}' line in cachegrind's output: {stderr}"))
    };
    Ok(Counts {
        instructions: field("I   refs:")?,
        branches: field("Branches:")?,
        mispredicts: field("Mispredicts:")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cachegrind_summary() {
        let text = "==28767== \n==28767== I   refs:      8,244,722\n\
            ==28767== Branches:        876,372  (866,073 cond + 10,299 ind)\n\
            ==28767== Mispredicts:      55,843  ( 52,971 cond +  2,872 ind)\n\
            ==28767== Mispred rate:        6.4% (    6.1%     +   27.9%   )\n";
        assert_eq!(
            parse_counts(text).unwrap(),
            Counts {
                instructions: 8_244_722,
                branches: 876_372,
                mispredicts: 55_843
            }
        );
        assert!(parse_counts("==1== I   refs: 5\n").is_err());
    }
}
