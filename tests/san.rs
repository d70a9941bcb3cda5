//! Standard Algebraic Notation through the public API: `Position::san`
//! writes what python-chess's `Board.san` writes (the expected texts below
//! are python-chess 1.11.2's; `tests/python/test_san.py` compares thousands
//! of random positions), and `Position::parse_san` reads it back, with the
//! lenient forms people write and typed errors for the rest.

use quince::{Move, Position, SanError, legal_moves};

fn position(fen: &str) -> Position {
    Position::from_fen(fen).expect("a valid test FEN")
}

fn chess960(fen: &str) -> Position {
    Position::from_fen_with(fen, true).expect("a valid Chess960 test FEN")
}

/// Each (UCI, SAN) pair: `san` writes the SAN, `parse_san` reads it back.
fn check(pos: &Position, pairs: &[(&str, &str)]) {
    for &(uci, san) in pairs {
        let mv = pos.parse_uci(uci).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(pos.san(mv), san, "{uci} in {}", pos.fen());
        assert_eq!(pos.parse_san(san), Ok(mv), "{san} in {}", pos.fen());
    }
}

/// What `parse_san` reads `text` as, in UCI.
fn read(pos: &Position, text: &str) -> String {
    match pos.parse_san(text) {
        Ok(mv) => pos.uci(mv),
        Err(e) => panic!("{text:?} in {}: {e}", pos.fen()),
    }
}

#[test]
fn pawn_and_piece_moves() {
    let pos = Position::startpos();
    check(&pos, &[("e2e4", "e4"), ("g1f3", "Nf3"), ("b1c3", "Nc3")]);
    let pos = position("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    check(&pos, &[("e4d5", "exd5"), ("e4e5", "e5"), ("d1h5", "Qh5")]);
}

#[test]
fn disambiguation_by_file_rank_or_square() {
    // Two knights reach d2: the file tells them apart.
    let pos = position("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    check(&pos, &[("b1d2", "Nbd2"), ("f3d2", "Nfd2"), ("f3e5", "Ne5")]);
    // Two rooks on one file: the rank.
    let pos = position("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    check(
        &pos,
        &[
            ("a1a3", "R1a3"),
            ("a5a3", "R5a3"),
            ("a1a2", "R1a2"),
            ("a5b5", "Rb5"),
        ],
    );
    // Four queens: a rival on the rank and one on the file need both.
    let pos = position("8/7k/8/8/Q1Q5/8/8/Q1Q1K3 w - - 0 1");
    check(
        &pos,
        &[
            ("a1a3", "Qa1a3"),
            ("c1c3", "Qc1c3"),
            ("a4a3", "Q4a3"),
            ("a1b2", "Qab2"),
            ("c4b3", "Qcb3"),
            ("a4b4", "Qab4"),
        ],
    );
    // A pinned knight is no rival: only legal moves count.
    let pos = position("4k3/4r3/8/8/8/2N3N1/8/4K3 w - - 0 1");
    let pinned = position("4k3/4r3/8/8/8/1N6/4N3/4K3 w - - 0 1");
    assert_eq!(read(&pos, "Nce4"), "c3e4");
    assert_eq!(pos.san(pos.parse_uci("c3e4").unwrap()), "Nce4");
    assert_eq!(pinned.san(pinned.parse_uci("b3d4").unwrap()), "Nd4");
    assert_eq!(read(&pinned, "Nd4"), "b3d4");
}

#[test]
fn checks_and_mates() {
    let pos = position("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    check(&pos, &[("f1b5", "Bb5+")]);
    let scholar = position("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    check(&scholar, &[("h5f7", "Qxf7#"), ("c4f7", "Bxf7+")]);
    let fools = position("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
    check(&fools, &[("d8h4", "Qh4#")]);
}

#[test]
fn promotions() {
    let pos = position("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    check(
        &pos,
        &[
            ("a7b8q", "axb8=Q+"),
            ("a7b8r", "axb8=R+"),
            ("a7b8n", "axb8=N"),
            ("a7a8q", "a8=Q"),
            ("a7a8n", "a8=N"),
        ],
    );
    let mate = position("1r4k1/P4ppp/8/8/8/8/8/4K3 w - - 0 1");
    check(&mate, &[("a7b8q", "axb8=Q#"), ("a7a8q", "a8=Q")]);
}

#[test]
fn en_passant_is_a_capture() {
    let pos = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    check(&pos, &[("e5d6", "exd6"), ("e5e6", "e6")]);
}

#[test]
fn castling_both_sides() {
    let pos = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    check(
        &pos,
        &[("e1g1", "O-O"), ("e1c1", "O-O-O"), ("a1a8", "Rxa8+")],
    );
    let black = position("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    check(&black, &[("e8g8", "O-O"), ("e8c8", "O-O-O")]);
    let check_by_rook = position("5k2/8/8/8/8/8/8/4K2R w K - 0 1");
    check(&check_by_rook, &[("e1g1", "O-O+")]);
}

#[test]
fn chess960_castling() {
    // The king stays on g1 for O-O; b1 rook and g1 king for O-O-O.
    let pos = chess960("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1");
    check(&pos, &[("g1h1", "O-O"), ("g1b1", "O-O-O")]);
    // The a1 rook stands next to the king; the king goes to c1.
    let pos = chess960("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1");
    check(&pos, &[("b1a1", "O-O-O"), ("b1h1", "O-O")]);
    // The f8 rook stays put for O-O.
    let pos = chess960("2r1kr2/2p2p2/8/8/8/8/2P2P2/2R1KR2 b CFcf - 0 1");
    check(&pos, &[("e8f8", "O-O"), ("e8c8", "O-O-O")]);
    assert_eq!(read(&pos, "0-0"), "e8f8");
}

#[test]
fn lenient_forms_are_read() {
    let pos = Position::startpos();
    for text in [
        "e4", " e4 ", "e4!", "e4!!", "e4?", "e4??", "e4!?", "e4?!", "e4+", "e4#", "e2e4", "e2-e4",
        "Pe4",
    ] {
        assert_eq!(read(&pos, text), "e2e4", "{text}");
    }
    for text in ["Nf3", "Ngf3", "N1f3", "Ng1f3", "Ng1-f3", "Nf3+", "Nf3#!"] {
        assert_eq!(read(&pos, text), "g1f3", "{text}");
    }
    let pos = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for (text, uci) in [
        ("O-O", "e1g1"),
        ("0-0", "e1g1"),
        ("O-O+", "e1g1"),
        ("O-O-O", "e1c1"),
        ("0-0-0!", "e1c1"),
        ("Ra8", "a1a8"),
        ("Rxa8", "a1a8"),
        ("Raxa8+", "a1a8"),
    ] {
        assert_eq!(read(&pos, text), uci, "{text}");
    }
    let pos = position("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    for (text, uci) in [
        ("a8=Q", "a7a8q"),
        ("a8Q", "a7a8q"),
        ("a8=q", "a7a8q"),
        ("a8q", "a7a8q"),
        ("axb8=Q+", "a7b8q"),
        ("axb8Q", "a7b8q"),
        ("ab8=N", "a7b8n"),
        ("axb8=n", "a7b8n"),
        ("a7b8=R", "a7b8r"),
    ] {
        assert_eq!(read(&pos, text), uci, "{text}");
    }
    // A missing x is fine for pieces and pawns alike.
    let pos = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert_eq!(read(&pos, "ed6"), "e5d6");
}

#[test]
fn ambiguous_moves_are_refused() {
    let pos = position("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    let error = pos.parse_san("Nd2").unwrap_err();
    assert_eq!(error, SanError::Ambiguous("Nd2".to_string()));
    assert!(
        error.to_string().contains("ambiguous move 'Nd2'"),
        "{error}"
    );
    let queens = position("8/7k/8/8/Q1Q5/8/8/Q1Q1K3 w - - 0 1");
    for text in ["Qa3", "Qaa3", "Q1a3"] {
        assert!(
            matches!(queens.parse_san(text), Err(SanError::Ambiguous(_))),
            "{text}"
        );
    }
    assert_eq!(read(&queens, "Qa1a3"), "a1a3");
}

#[test]
fn illegal_and_malformed_moves_are_refused() {
    let pos = Position::startpos();
    for text in [
        "e5", "Nf6", "Ke2", "O-O", "O-O-O", "Bb5", "exd5", "e4=Q", "Qd1d3", "Nb1d2",
    ] {
        assert_eq!(
            pos.parse_san(text),
            Err(SanError::Illegal(text.to_string())),
            "{text}"
        );
    }
    for text in [
        "", "   ", "hello", "Nf9", "Ni3", "e8=", "e8==Q", "O-O-O-O", "0-0-0-0", "Ng1f3f3", "nf3",
        "e", "4", "Zz9", "e2e4e5", "é4", "xe4", "-e4",
    ] {
        assert_eq!(
            pos.parse_san(text),
            Err(SanError::Syntax(text.to_string())),
            "{text}"
        );
    }
    // A promotion must name its piece, and only to N, B, R or Q.
    let promotion = position("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    for text in ["a8", "axb8", "a8=K", "a8=P"] {
        assert!(promotion.parse_san(text).is_err(), "{text}");
    }
    let error = pos.parse_san("Nf6").unwrap_err();
    assert_eq!(error.text(), "Nf6");
    assert_eq!(error.to_string(), "illegal move 'Nf6' in this position");
    let syntax: Box<dyn std::error::Error> = Box::new(pos.parse_san("Nf9").unwrap_err());
    assert!(syntax.to_string().contains("'Nf9'"), "{syntax}");
    assert_eq!(pos, Position::startpos());
}

#[test]
fn san_of_a_move_that_is_not_legal_does_not_panic() {
    let pos = Position::startpos();
    assert_eq!(pos.san(Move::NULL), "--");
    let e2 = quince::Square::parse("e2").unwrap();
    let e5 = quince::Square::parse("e5").unwrap();
    assert_eq!(pos.san(Move::new(e2, e5, None)), "e2e5");
    assert_eq!(pos, Position::startpos());
}

/// Every position of the suite files (standard and Chess960), with the
/// children of some of them: `san` then `parse_san` gives each legal move
/// back, and no two moves of a position share a text.
#[test]
fn round_trip_over_the_suites() {
    let files = [
        (include_str!("data/standard.epd"), false),
        (include_str!("data/suite.epd"), false),
        (include_str!("data/chess960.epd"), true),
    ];
    let mut moves_checked = 0;
    for (text, is_960) in files {
        let fens = text
            .lines()
            .filter_map(|line| line.split(';').next().map(str::trim))
            .filter(|fen| !fen.is_empty());
        for (index, fen) in fens.enumerate() {
            let root = Position::from_fen_with(fen, is_960).expect("suite FENs are valid");
            let mut positions = vec![root.clone()];
            // Children of every eighth position: debug builds stay quick.
            if index % 8 == 0 {
                positions.extend(legal_moves(&root).iter().map(|&mv| root.play_unchecked(mv)));
            }
            for pos in &positions {
                let mut texts = std::collections::HashSet::new();
                for &mv in legal_moves(pos).iter() {
                    let san = pos.san(mv);
                    assert_eq!(pos.parse_san(&san), Ok(mv), "{san} in {}", pos.fen());
                    assert!(texts.insert(san.clone()), "{san} twice in {}", pos.fen());
                    moves_checked += 1;
                }
            }
        }
    }
    assert!(moves_checked > 10_000, "{moves_checked}");
}

/// `quince moves`: the CLI lists every legal move in UCI and SAN.
#[cfg(feature = "cli")]
mod cli {
    use std::process::Command;

    fn quince(args: &[&str]) -> std::process::Output {
        Command::new(env!("CARGO_BIN_EXE_quince"))
            .args(args)
            .output()
            .expect("quince runs")
    }

    #[test]
    fn plain_lines_are_uci_then_san() {
        let out = quince(&["moves"]);
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(text.lines().count(), 20, "{text}");
        assert!(text.lines().any(|l| l == "e2e4 e4"), "{text}");
        assert!(text.lines().any(|l| l == "g1f3 Nf3"), "{text}");
    }

    #[test]
    fn json_is_one_object() {
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let out = quince(&["moves", "--fen", fen, "--json"]);
        assert!(out.status.success());
        let value: serde_json::Value =
            serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
        assert_eq!(value["fen"], fen);
        let moves = value["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 26);
        assert!(moves.contains(&serde_json::json!({"uci": "e1g1", "san": "O-O"})));
        assert!(moves.contains(&serde_json::json!({"uci": "a1a8", "san": "Rxa8+"})));
    }

    #[test]
    fn chess960_castling_is_king_takes_rook() {
        let fen = "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1";
        let out = quince(&["moves", "--chess960", "--fen", fen]);
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.lines().any(|l| l == "g1h1 O-O"), "{text}");
        assert!(text.lines().any(|l| l == "g1b1 O-O-O"), "{text}");
    }

    #[test]
    fn a_bad_fen_is_exit_2() {
        let out = quince(&["moves", "--fen", "not a fen"]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: invalid FEN"), "{err}");
        assert!(out.stdout.is_empty());
    }
}
