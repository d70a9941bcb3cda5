//! Property tests (`proptest`) over positions reached by arbitrary legal
//! move sequences from the shared suites, and over random piece placements.
//!
//! * make/unmake restores the position bit for bit (`==` on every field, key
//!   and FEN) after any legal sequence, with unmakes interleaved;
//! * FEN write-then-read is the identity on every accepted position, and the
//!   written FEN is a fixed point;
//! * every generated move is legal by an independent slow check: the reference
//!   move generator of `tests/common/reference.rs`, written from the rules on a
//!   plain 64-square array with its own ray-walking attack test (none of the
//!   engine's attack tables, sliders or masks). Its legal moves must equal the
//!   engine's, and making a move must give the same position in both (pieces,
//!   rights, e.p., clocks). The `pseudo` and `king-capture` legality
//!   strategies must find the same moves and count them in perft(1).

mod common;

use common::reference::{assert_consistent, assert_fen_round_trip, assert_matches_reference};
use common::suite_starts;
use proptest::prelude::*;
use quince::movegen::legal_moves;
use quince::{Move, Position};

// ---------------------------------------------------------------------------
// Start positions and proptest strategies.

fn start_position(index: usize, chess960: bool) -> Position {
    let starts = suite_starts();
    let start = &starts[index % starts.len()];
    Position::from_fen_with(&start.fen, start.chess960 || chess960).expect("suite FEN")
}

/// Number of suite positions (the strategies pick an index below it).
fn start_count() -> usize {
    suite_starts().len()
}

/// A random piece placement with random state fields, as FEN text. Most are
/// refused; the accepted ones are positions no game from the suites reaches.
fn random_setup() -> impl Strategy<Value = String> {
    let cell = prop_oneof![
        24 => Just('.'),
        1 => prop::sample::select(vec!['P', 'N', 'B', 'R', 'Q', 'p', 'n', 'b', 'r', 'q']),
    ];
    (
        prop::collection::vec(cell, 64),
        0usize..64,
        0usize..64,
        any::<bool>(),
        prop_oneof![
            3 => Just(String::from("-")),
            1 => prop::sample::subsequence(
                vec!['K', 'Q', 'k', 'q', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
                1..4
            )
            .prop_map(|v| v.into_iter().collect()),
        ],
        prop_oneof![3 => Just(None), 1 => (0usize..8).prop_map(Some)],
        0u32..120,
        1u32..300,
    )
        .prop_map(|(mut cells, white_king, black_king, white, castling, ep_file, half, full)| {
            cells[white_king] = 'K';
            cells[black_king] = 'k';
            let board = common::placement(&cells);
            let ep = match ep_file {
                Some(file) => format!("{}{}", (b'a' + file as u8) as char, if white { 6 } else { 3 }),
                None => "-".to_string(),
            };
            format!("{board} {} {castling} {ep} {half} {full}", if white { 'w' } else { 'b' })
        })
}

/// Plays `choices` from `pos`: each picks a legal move, or (one time in six,
/// when a move was made) unmakes the last one. Calls `visit` at every position.
fn walk(pos: &mut Position, choices: &[u16], mut visit: impl FnMut(&mut Position)) {
    let mut stack: Vec<(Move, quince::position::Undo, Position)> = Vec::new();
    visit(pos);
    for &choice in choices {
        if choice % 6 == 5 && !stack.is_empty() {
            let (mv, undo, before) = stack.pop().unwrap();
            pos.unmake(mv, undo);
            assert_eq!(
                *pos, before,
                "unmake of {mv:?} does not restore the position"
            );
        } else {
            let moves = legal_moves(pos);
            if moves.is_empty() {
                continue;
            }
            let mv = moves[choice as usize % moves.len()];
            let before = pos.clone();
            let undo = pos.make(mv);
            stack.push((mv, undo, before));
        }
        visit(pos);
    }
    // Unwind everything: each unmake must restore the exact position.
    while let Some((mv, undo, before)) = stack.pop() {
        pos.unmake(mv, undo);
        assert_eq!(
            *pos, before,
            "unmake of {mv:?} does not restore the position"
        );
        assert_eq!(pos.fen(), before.fen());
        assert_eq!(pos.key(), before.key());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// make/unmake restores the position bit for bit after any legal sequence.
    #[test]
    fn make_unmake_restores(start in 0..start_count(), chess960 in any::<bool>(),
                            choices in prop::collection::vec(any::<u16>(), 0..200)) {
        let mut pos = start_position(start, chess960);
        let original = pos.clone();
        walk(&mut pos, &choices, |p| assert_consistent(p, "walk"));
        prop_assert_eq!(pos, original);
    }

    /// FEN write-then-read is the identity on every reached position.
    #[test]
    fn fen_round_trip_on_reached_positions(start in 0..start_count(), chess960 in any::<bool>(),
                                           choices in prop::collection::vec(any::<u16>(), 0..200)) {
        let mut pos = start_position(start, chess960);
        walk(&mut pos, &choices, |p| assert_fen_round_trip(p));
    }

    /// FEN write-then-read is the identity on every random placement the
    /// reader accepts, and such positions pass the slow reference too.
    #[test]
    fn fen_round_trip_on_random_setups(fen in random_setup(), chess960 in any::<bool>()) {
        if let Ok(pos) = Position::from_fen_with(&fen, chess960) {
            prop_assert!(pos.is_consistent());
            assert_fen_round_trip(&pos);
            assert_matches_reference(&pos);
        }
    }

    /// Every generated move is legal by the slow reference, and none is missing.
    #[test]
    fn generated_moves_are_legal(start in 0..start_count(), chess960 in any::<bool>(),
                                 choices in prop::collection::vec(any::<u16>(), 0..120)) {
        let mut pos = start_position(start, chess960);
        walk(&mut pos, &choices, |p| assert_matches_reference(p));
    }
}

/// The slow reference agrees with the engine on every suite position (this also
/// covers mates, stalemates and the Chess960 castling edge cases directly).
#[test]
fn slow_reference_agrees_on_every_suite_position() {
    for index in 0..start_count() {
        let pos = start_position(index, false);
        assert_matches_reference(&pos);
        assert_fen_round_trip(&pos);
    }
}

/// The random placements are not all refused: enough of them reach the
/// checks above for the property to mean something.
#[test]
fn random_setups_are_often_accepted() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = random_setup();
    let total = 2000;
    let accepted = (0..total)
        .filter(|_| {
            let fen = strategy.new_tree(&mut runner).expect("a value").current();
            Position::from_fen(&fen).is_ok()
        })
        .count();
    assert!(
        accepted * 10 > total,
        "only {accepted} of {total} random setups were accepted"
    );
}
