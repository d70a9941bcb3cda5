//! Arbitrary text to `Position::parse_san` in suite positions (and positions
//! a few moves from them): no panic; every move it accepts is legal and its
//! SAN reads back to the same move; a refusal leaves the position as it was;
//! and every legal move's SAN reads back to that move.
//!
//! Input: the first two bytes pick the start position (and Chess960 mode), the
//! third how many moves to play from it (0..8), one byte each picking a legal
//! move by index; the rest is text (lossy UTF-8), tried whole and word by word.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quince::Position;
use quince::movegen::legal_moves;
use std::sync::OnceLock;

const SUITES: [(&str, bool); 3] = [
    (include_str!("../../tests/data/standard.epd"), false),
    (include_str!("../../tests/data/suite.epd"), false),
    (include_str!("../../tests/data/chess960.epd"), true),
];

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

/// `parse_san(text)`: an accepted move is legal and round-trips through
/// `san`; a refused one changes nothing.
fn check_text(pos: &Position, text: &str) {
    let before = pos.clone();
    match pos.parse_san(text) {
        Ok(mv) => {
            assert!(
                legal_moves(pos).contains(&mv),
                "{text:?} read as illegal {mv:?} in {}",
                pos.fen()
            );
            let san = pos.san(mv);
            assert_eq!(
                pos.parse_san(&san),
                Ok(mv),
                "{text:?} read as {san}, which does not read back, in {}",
                pos.fen()
            );
        }
        Err(error) => {
            assert_eq!(error.text(), text);
            assert!(!error.to_string().is_empty());
        }
    }
    assert_eq!(*pos, before, "parse_san changed the position");
}

fuzz_target!(|data: &[u8]| {
    let starts = starts();
    let [a, b, plies, rest @ ..] = data else {
        return;
    };
    let index = (usize::from(*a) << 8 | usize::from(*b)) % (2 * starts.len());
    let (fen, file_is_960) = starts[index % starts.len()];
    let mut pos = Position::from_fen_with(fen, file_is_960 || index >= starts.len())
        .expect("suite FENs are valid");
    let plies = usize::from(*plies % 8).min(rest.len());
    let (picks, text) = rest.split_at(plies);
    for &pick in picks {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        pos = pos.play_unchecked(moves[usize::from(pick) % moves.len()]);
    }
    // Every legal move's SAN is unique and reads back.
    let moves = legal_moves(&pos);
    for &mv in moves.iter() {
        let san = pos.san(mv);
        assert_eq!(pos.parse_san(&san), Ok(mv), "{san} in {}", pos.fen());
    }
    let text = String::from_utf8_lossy(text);
    check_text(&pos, &text);
    for word in text.split_whitespace().take(64) {
        check_text(&pos, word);
    }
});
