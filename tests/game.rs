//! `Game`: legal play, undo, repetitions, the fifty- and seventy-five-move
//! rules, outcomes and results, and the history the search wants.

use quince::game::{GameResult, Outcome};
use quince::{Color, Game, Move, Position, Square};

fn game_from(fen: &str) -> Game {
    Game::new(Position::from_fen(fen).unwrap())
}

fn play(game: &mut Game, sans: &str) {
    for san in sans.split_whitespace() {
        game.play_san(san)
            .unwrap_or_else(|e| panic!("{san} in {}: {e}", game.position().fen()));
    }
}

#[test]
fn repetitions_count_to_three_and_five() {
    let mut game = Game::default();
    play(&mut game, "Nf3 Nf6 Ng1 Ng8");
    assert_eq!(game.repetitions(), 2);
    assert!(!game.is_threefold_repetition());
    play(&mut game, "Nf3 Nf6 Ng1 Ng8");
    assert_eq!(game.repetitions(), 3);
    assert!(game.is_threefold_repetition() && !game.is_fivefold_repetition());
    assert_eq!(game.claimable_draw(), Some(Outcome::ThreefoldRepetition));
    assert_eq!(game.outcome(), None);
    assert_eq!(game.result(), GameResult::Ongoing);
    // One ply on, the position after 1. Nf3 has occurred three times too.
    play(&mut game, "Nf3");
    assert_eq!(game.repetitions(), 3);
    play(&mut game, "Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    assert_eq!(game.repetitions(), 5);
    assert!(game.is_fivefold_repetition());
    assert_eq!(game.outcome(), Some(Outcome::FivefoldRepetition));
    assert_eq!(game.result(), GameResult::Draw);
}

#[test]
fn lost_castling_rights_make_a_different_position() {
    let mut game = Game::default();
    play(&mut game, "Nf3 Nf6 Rg1 Rg8 Rh1 Rh8 Ng1 Ng8");
    // The pieces stand as at the start, but neither side may castle short.
    assert_eq!(game.repetitions(), 1);
    play(&mut game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    assert_eq!(game.repetitions(), 3);
}

#[test]
fn an_en_passant_right_makes_a_different_position() {
    let mut game = game_from("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    play(&mut game, "d5"); // exd6 e.p. is possible here, and only here
    let with_ep = game.position().key();
    play(&mut game, "Ke2 Ke7 Ke1 Ke8");
    assert_ne!(game.position().key(), with_ep);
    assert_eq!(game.repetitions(), 1);
    play(&mut game, "Ke2 Ke7 Ke1 Ke8");
    assert_eq!(game.repetitions(), 2);
}

#[test]
fn repetitions_look_back_only_to_the_last_irreversible_move() {
    let mut game = Game::default();
    play(&mut game, "Nf3 Nf6 Ng1 Ng8 e4 e5 Nf3 Nf6 Ng1 Ng8");
    assert_eq!(game.repetitions(), 2);
    play(&mut game, "Nf3 Nf6 Ng1 Ng8");
    assert!(game.is_threefold_repetition());
}

#[test]
fn fifty_and_seventy_five_moves() {
    let mut game = game_from("4k3/8/8/8/8/8/8/3RK3 w - - 99 80");
    assert!(!game.can_claim_fifty_moves());
    play(&mut game, "Rd2");
    assert!(game.can_claim_fifty_moves());
    assert_eq!(game.claimable_draw(), Some(Outcome::FiftyMoves));
    assert_eq!(game.outcome(), None);
    game.set_result(GameResult::Draw); // claimed
    assert_eq!(game.outcome(), Some(Outcome::Declared(GameResult::Draw)));

    let mut game = game_from("4k3/8/8/8/8/8/8/3RK3 w - - 149 120");
    play(&mut game, "Rd2");
    assert_eq!(game.outcome(), Some(Outcome::SeventyFiveMoves));
    assert_eq!(game.result(), GameResult::Draw);

    // Mate on the 150th ply is mate.
    let mut game = game_from("6k1/5ppp/8/8/8/8/8/3RK3 w - - 149 120");
    play(&mut game, "Rd8#");
    let mate = Outcome::Checkmate {
        winner: Color::White,
    };
    assert_eq!(game.outcome(), Some(mate));
    assert_eq!(game.result(), GameResult::WhiteWins);
}

#[test]
fn outcomes_from_the_board_and_from_outside() {
    let mut game = Game::default();
    play(&mut game, "f3 e5 g4 Qh4#");
    let mate = Outcome::Checkmate {
        winner: Color::Black,
    };
    assert_eq!(game.outcome(), Some(mate));
    // The board decides over a declared result.
    game.set_result(GameResult::Draw);
    assert_eq!(game.result(), GameResult::BlackWins);

    let stalemate = game_from("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(stalemate.outcome(), Some(Outcome::Stalemate));
    assert_eq!(stalemate.result(), GameResult::Draw);
    let dead = game_from("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
    assert_eq!(dead.outcome(), Some(Outcome::InsufficientMaterial));

    let mut resigned = Game::default();
    play(&mut resigned, "e4");
    resigned.set_result(GameResult::WhiteWins);
    assert_eq!(
        resigned.outcome(),
        Some(Outcome::Declared(GameResult::WhiteWins))
    );
    assert_eq!(resigned.result().to_string(), "1-0");
    // Playing on, or undoing, withdraws a declared result.
    play(&mut resigned, "e5");
    assert_eq!(resigned.result(), GameResult::Ongoing);
    resigned.set_result(GameResult::BlackWins);
    resigned.undo();
    assert_eq!(resigned.outcome(), None);
    assert!(Outcome::FiftyMoves.is_claim() && !Outcome::Stalemate.is_claim());
}

#[test]
fn illegal_moves_leave_the_game_unchanged() {
    let mut game = Game::default();
    let before = game.clone();
    let illegal = Move::new(Square::E1, Square::E8, None);
    assert_eq!(game.play(illegal).unwrap_err().mv(), illegal);
    assert!(game.play_san("Ke2").is_err());
    assert!(game.play_san("Nf4").is_err());
    assert!(game.play_uci("e2e5").is_err());
    assert_eq!(game, before);
    assert_eq!(game.moves().len(), 0);
}

#[test]
fn undo_and_history_keys() {
    let mut game = Game::default();
    play(&mut game, "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6");
    // What `quince::search::search` wants: the positions before the
    // current one, oldest first (as the UCI front end builds it).
    let mut pos = Position::startpos();
    let mut expected = Vec::new();
    for &mv in game.moves() {
        expected.push(pos.key());
        pos = pos.play(mv).unwrap();
    }
    assert_eq!(game.history_keys(), expected);
    assert_eq!(game.position(), &pos);

    let played = game.moves().to_vec();
    let mut positions = vec![game.position().clone()];
    while let Some(mv) = game.undo() {
        assert_eq!(Some(&mv), played.get(game.moves().len()));
        assert_eq!(game.history_keys().len(), game.moves().len());
        positions.push(game.position().clone());
    }
    assert_eq!(positions.len(), 11);
    assert_eq!(game, Game::default());
    assert_eq!(game.position(), &Position::startpos());
    assert_eq!(game.undo(), None);
}

#[test]
fn castling_may_be_given_as_the_kings_destination() {
    let mut game = Game::default();
    play(&mut game, "e4 e5 Nf3 Nc6 Bc4 Bc5");
    game.play(Move::new(Square::E1, Square::G1, None)).unwrap();
    // Recorded as the generator encodes it: the king takes its rook.
    assert_eq!(
        game.moves().last(),
        Some(&Move::new(Square::E1, Square::H1, None))
    );
    assert!(game.to_pgn().contains("4. O-O *"));
}

#[test]
fn tags_keep_their_order() {
    let mut game = Game::default();
    game.set_tag("White", "A");
    game.set_tag("Black", "B");
    game.set_tag("White", "C");
    assert_eq!(
        game.tags(),
        [
            ("White".to_string(), "C".to_string()),
            ("Black".to_string(), "B".to_string())
        ]
    );
    assert_eq!(game.tag("Black"), Some("B"));
    assert_eq!(game.tag("Event"), None);
    assert_eq!(game.start(), &Position::startpos());
}

/// FIDE's article 9.2: an e.p. right counts only when the capture is legal.
/// After ...c5 White's b5 pawn could take e.p., but it is pinned to its
/// king on a5 by the rook on h5, so the position after ...c5 and the two
/// after the kings' shuffles are the same position (python-chess agrees;
/// Quince missed it).
#[test]
fn a_pinned_en_passant_capture_does_not_break_a_repetition() {
    let mut game = game_from("8/2p5/8/KP5r/8/8/8/7k b - - 0 1");
    play(&mut game, "c5 Ka6 Kh2 Ka5 Kh1 Ka6 Kh2 Ka5 Kh1");
    assert_eq!(game.repetitions(), 3);
    assert!(game.is_threefold_repetition());
    // A legal e.p. capture does make the positions differ.
    let mut open = game_from("8/2p5/8/1P5r/8/8/8/K6k b - - 0 1");
    play(&mut open, "c5 Kb1 Kh2 Ka1 Kh1 Kb1 Kh2 Ka1 Kh1");
    assert_eq!(open.repetitions(), 2);
}
