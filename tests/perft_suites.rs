//! Every count of the shared perft suites (copied into `tests/data/`).
//! Run in release mode: `cargo test --release`.

mod common;
use common::{load_suite, run_suite};
use quince::perft;

/// Counts above this are skipped in `standard.epd` to keep CI short; the
/// full file runs with `quince suite tests/data/standard.epd`.
const STANDARD_BUDGET: u64 = if cfg!(debug_assertions) {
    200_000
} else {
    200_000_000
};
/// `suite.epd` and `chess960.epd` run completely in release builds.
const SUITE_BUDGET: u64 = if cfg!(debug_assertions) {
    100_000
} else {
    u64::MAX
};

fn check(name: &str, budget: u64, bulk: bool, part: Option<(usize, usize)>) {
    let mut entries = load_suite(name);
    if let Some((index, parts)) = part {
        entries = entries
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % parts == index)
            .map(|(_, e)| e)
            .collect();
    }
    let (checked, failures) = run_suite(&entries, budget, |pos, depth| {
        perft::count(pos, depth, bulk)
    });
    assert!(checked > 0, "{name}: nothing checked");
    assert!(
        failures.is_empty(),
        "{name} ({}): {} mismatches:\n{}",
        quince::sliders::ACTIVE,
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn standard_positions() {
    check("standard.epd", STANDARD_BUDGET, true, None);
}

#[test]
fn standard_positions_without_bulk_counting() {
    check("standard.epd", STANDARD_BUDGET / 20, false, None);
}

// suite.epd is split in parts so the test harness can run them on all cores.
#[test]
fn suite_part_1() {
    check("suite.epd", SUITE_BUDGET, true, Some((0, 3)));
}

#[test]
fn suite_part_2() {
    check("suite.epd", SUITE_BUDGET, true, Some((1, 3)));
}

#[test]
fn suite_part_3() {
    check("suite.epd", SUITE_BUDGET, true, Some((2, 3)));
}

#[test]
fn chess960() {
    check("chess960.epd", SUITE_BUDGET, true, None);
}

#[test]
fn divide_sums_to_perft_and_names_every_legal_move() {
    let pos = quince::Position::from_fen(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    )
    .unwrap();
    let divide = perft::divide(&pos, 3, true);
    assert_eq!(divide.len(), 48);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 97862);
    let texts: Vec<String> = divide.iter().map(|(mv, _)| pos.uci(*mv)).collect();
    assert!(texts.contains(&"e1g1".to_string()) && texts.contains(&"e1c1".to_string()));
}
