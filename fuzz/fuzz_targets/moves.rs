//! Bytes steer a sequence of legal moves, unmakes and null moves from a suite
//! position; the position must stay consistent with itself (bitboards, board
//! array, key) at every step, the mover's king must be safe after every move,
//! and every unmake must restore the exact earlier position.
//!
//! Input: the first two bytes pick the start position (and Chess960 mode); each
//! further byte is an action: 0xFF unmakes the last move, 0xFE plays a null
//! move when legal (not in check), anything else picks a legal move by index.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quince::Position;
use quince::movegen::legal_moves;
use quince::position::Undo;
use quince::{Move, Square};
use std::sync::OnceLock;

const SUITES: [(&str, bool); 3] = [
    (include_str!("../../tests/data/standard.epd"), false),
    (include_str!("../../tests/data/suite.epd"), false),
    (include_str!("../../tests/data/chess960.epd"), true),
];

enum Step {
    Move(Move, Undo),
    Null(Option<Square>),
}

/// The suite positions as (FEN, Chess960 file), split once.
fn starts() -> &'static [(&'static str, bool)] {
    static STARTS: OnceLock<Vec<(&'static str, bool)>> = OnceLock::new();
    STARTS.get_or_init(|| {
        SUITES
            .iter()
            .flat_map(|&(text, chess960)| {
                text.lines()
                    .filter(|l| !l.trim().is_empty())
                    .map(move |l| (l.split(';').next().unwrap_or("").trim(), chess960))
            })
            .collect()
    })
}

/// Bitboards, board array and key agree (`is_consistent` recomputes the key).
fn check(pos: &Position) {
    assert!(pos.is_consistent(), "inconsistent position {}", pos.fen());
}

/// `make` and `unmake` already assert `is_consistent()` when debug assertions
/// are on (cargo-fuzz's default); checking again after them would only halve
/// the speed. Null moves, and builds without debug assertions, are checked here.
fn check_unless_engine_did(pos: &Position, null_move: bool) {
    if null_move || !cfg!(debug_assertions) {
        check(pos);
    }
}

fuzz_target!(|data: &[u8]| {
    let starts = starts();
    let [a, b, actions @ ..] = data else { return };
    let index = (usize::from(*a) << 8 | usize::from(*b)) % (2 * starts.len());
    let (fen, file_is_960) = starts[index % starts.len()];
    let mut pos = Position::from_fen_with(fen, file_is_960 || index >= starts.len())
        .expect("suite FENs are valid");
    check(&pos);
    let mut stack: Vec<(Step, Position)> = Vec::new();
    for &action in actions {
        match action {
            0xFF => {
                let Some((step, before)) = stack.pop() else {
                    continue;
                };
                let null_move = matches!(step, Step::Null(_));
                match step {
                    Step::Move(mv, undo) => pos.unmake(mv, undo),
                    Step::Null(ep) => pos.unmake_null(ep),
                }
                assert_eq!(pos, before, "unmake does not restore {}", before.fen());
                check_unless_engine_did(&pos, null_move);
            }
            0xFE => {
                if pos.in_check() {
                    continue;
                }
                let before = pos.clone();
                let ep = pos.make_null();
                stack.push((Step::Null(ep), before));
                check(&pos);
            }
            _ => {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    continue;
                }
                let mv = moves[usize::from(action) % moves.len()];
                let before = pos.clone();
                let undo = pos.make(mv);
                check_unless_engine_did(&pos, false);
                let us = before.side_to_move();
                assert!(
                    !pos.is_attacked(pos.king(us), us.flip(), pos.occupied()),
                    "{mv:?} leaves the king in check in {}",
                    before.fen()
                );
                stack.push((Step::Move(mv, undo), before));
            }
        }
    }
    // Unwind the whole sequence.
    while let Some((step, before)) = stack.pop() {
        match step {
            Step::Move(mv, undo) => pos.unmake(mv, undo),
            Step::Null(ep) => pos.unmake_null(ep),
        }
        assert_eq!(pos, before, "unmake does not restore {}", before.fen());
    }
    check(&pos);
});
