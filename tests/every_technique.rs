//! Every compiled sliding-attack technique through every perft suite, from
//! one build: the legal generator instantiated per technique
//! (`quince::perft::techniques`). With `--features all-sliders` (and
//! `RUSTFLAGS='-C target-cpu=native'` for the techniques that need BMI2,
//! AVX2, AVX-512 or GFNI) that is all of them; without, the active one and
//! `hq`. Run in release mode.
//!
//! Each technique runs the six standard positions (bulk up to the budget,
//! full make at a twentieth of it), the 197-position suite and the 64
//! Chess960 positions in bulk, and the Chess960 positions with every leaf
//! made up to a twentieth of the budget ([`budget`]: every count with
//! `QUINCE_TECHNIQUE_BUDGET=max`).

mod common;
use common::{load_suite, run_suite};
use quince::perft::techniques::{TECHNIQUES, Technique};
use quince::suite::SuiteEntry;

/// Counts above this are skipped to keep CI short (about half a minute
/// for all techniques on 2 cores); `QUINCE_TECHNIQUE_BUDGET=max` (or a
/// number) runs more, `max` every count of every suite:
/// `QUINCE_TECHNIQUE_BUDGET=max RUSTFLAGS='-C target-cpu=native' cargo test
/// --release --features all-sliders --test every_technique`.
fn budget() -> u64 {
    let default = if cfg!(debug_assertions) {
        100_000
    } else {
        20_000_000
    };
    match std::env::var("QUINCE_TECHNIQUE_BUDGET") {
        Ok(v) if v == "max" => u64::MAX,
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("QUINCE_TECHNIQUE_BUDGET: '{v}' is not a number or 'max'")),
        Err(_) => default,
    }
}

fn check(
    technique: &Technique,
    (name, entries): &(&str, Vec<SuiteEntry>),
    budget: u64,
    bulk: bool,
) -> Vec<String> {
    let (checked, failures) = run_suite(entries, budget, |pos, depth| {
        if bulk {
            (technique.bulk)(pos, depth)
        } else {
            (technique.full)(pos, depth)
        }
    });
    assert!(checked > 0, "{name}: nothing checked");
    failures
        .into_iter()
        .map(|f| format!("{} {name} (bulk {bulk}): {f}", technique.name))
        .collect()
}

/// The techniques whose index in [`TECHNIQUES`] is `part` modulo `parts`,
/// through every suite (split so the test harness uses every core).
fn part(part: usize, parts: usize) {
    let mut failures = Vec::new();
    let mut ran = 0;
    let budget = budget();
    let [standard, suite, chess960] =
        ["standard.epd", "suite.epd", "chess960.epd"].map(|name| (name, load_suite(name)));
    for technique in TECHNIQUES.iter().skip(part).step_by(parts) {
        failures.extend(check(technique, &standard, budget, true));
        failures.extend(check(technique, &standard, budget / 20, false));
        failures.extend(check(technique, &suite, budget, true));
        failures.extend(check(technique, &chess960, budget, true));
        failures.extend(check(technique, &chess960, budget / 20, false));
        ran += 1;
    }
    assert!(ran > 0 || part >= TECHNIQUES.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn techniques_part_1() {
    part(0, 4);
}

#[test]
fn techniques_part_2() {
    part(1, 4);
}

#[test]
fn techniques_part_3() {
    part(2, 4);
}

#[test]
fn techniques_part_4() {
    part(3, 4);
}

/// `all-sliders` compiles every technique the target can run into the
/// perft table, in the order of the slider table.
#[test]
fn the_perft_table_holds_every_compiled_technique() {
    let perft: Vec<_> = TECHNIQUES.iter().map(|t| t.name).collect();
    let sliders: Vec<_> = quince::sliders::COMPILED.iter().map(|c| c.name).collect();
    assert_eq!(perft, sliders);
    assert!(perft.contains(&quince::sliders::ACTIVE));
    // What this build compiled and left out, for CI's log (it runs this
    // test with --show-output): as `quince lookups --list` says it, without
    // building the binary for it.
    for c in quince::sliders::COMPILED {
        println!("{:<26} {:>9} table bytes", c.name, c.table_bytes);
    }
    for (name, missing) in quince::sliders::LEFT_OUT {
        println!("{name:<26} not compiled: needs {missing}");
    }
}
