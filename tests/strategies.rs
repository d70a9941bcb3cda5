//! Every legality strategy and make style gives the same counts on the
//! shared suites (under a node budget here; the full suites run with
//! `quince suite tests/data/*.epd --legality <strategy> --make <style>`).

mod common;
use common::{load_suite, run_suite};
use quince::Position;
use quince::perft::strategy::perft_by_name;

const FAST: u64 = if cfg!(debug_assertions) {
    20_000
} else {
    5_000_000
};
const SLOW: u64 = if cfg!(debug_assertions) {
    5_000
} else {
    500_000
};

fn check(strategy: &str, make: &str, budget: u64, bulk: bool) {
    for name in ["standard.epd", "suite.epd", "chess960.epd"] {
        let entries = load_suite(name);
        let (checked, failures) = run_suite(&entries, budget, |pos: &mut Position, depth| {
            perft_by_name(pos, depth, bulk, strategy, make).expect("known strategy")
        });
        assert!(checked >= 20, "{name}: only {checked} counts");
        assert!(
            failures.is_empty(),
            "{strategy}/{make} {name}:\n{}",
            failures.join("\n")
        );
    }
}

#[test]
fn legal_copy_make() {
    check("legal", "copy", FAST, true);
}

#[test]
fn legal_full_make() {
    check("legal", "unmake", SLOW, false);
}

#[test]
fn pseudo_unmake() {
    check("pseudo", "unmake", FAST, true);
}

#[test]
fn pseudo_copy_make_full() {
    check("pseudo", "copy", SLOW, false);
}

#[test]
fn king_capture_unmake() {
    check("king-capture", "unmake", SLOW, true);
}

#[test]
fn king_capture_copy_make() {
    check("king-capture", "copy", SLOW, true);
}

#[test]
fn unknown_names_are_refused() {
    let mut pos = Position::startpos();
    assert_eq!(
        perft_by_name(&mut pos, 2, true, "magic-wand", "unmake"),
        None
    );
    assert_eq!(perft_by_name(&mut pos, 2, true, "legal", "teleport"), None);
}
