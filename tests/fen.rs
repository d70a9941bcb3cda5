//! FEN reading and writing, driven by the shared `bad-fens.txt`.

use quince::Position;

struct BadFen {
    fen: String,
    verdict: String,
    reason: String,
}

fn bad_fens() -> Vec<BadFen> {
    let path = format!("{}/tests/data/bad-fens.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("bad-fens.txt is readable");
    text.lines()
        .filter(|line| !line.is_empty())
        .map(|line| {
            let (fen, rest) = line.split_once(" ; ").expect("FEN ; verdict ; reason");
            let (verdict, reason) = rest.split_once(" ; ").expect("verdict ; reason");
            BadFen {
                fen: fen.to_string(),
                verdict: verdict.to_string(),
                reason: reason.to_string(),
            }
        })
        .collect()
}

#[test]
fn every_reject_line_is_rejected_with_a_reason() {
    let lines = bad_fens();
    let rejects: Vec<_> = lines.iter().filter(|b| b.verdict == "reject").collect();
    assert!(rejects.len() > 50);
    for bad in rejects {
        match Position::from_fen(&bad.fen) {
            Ok(pos) => panic!("accepted '{}' ({}) as {}", bad.fen, bad.reason, pos.fen()),
            Err(e) => assert!(
                e.to_string().len() > 10,
                "vague error '{e}' for {}",
                bad.reason
            ),
        }
    }
}

#[test]
fn every_lenient_line_is_accepted_as_described() {
    let lines = bad_fens();
    let lenient: Vec<_> = lines
        .iter()
        .filter(|b| b.verdict == "accept-lenient")
        .collect();
    assert!(lenient.len() > 10);
    for bad in lenient {
        let pos = Position::from_fen(&bad.fen)
            .unwrap_or_else(|e| panic!("rejected '{}' ({}): {e}", bad.fen, bad.reason));
        if let Some((_, expected)) = bad.reason.split_once("read as ") {
            assert_eq!(pos.fen(), expected, "{}", bad.reason);
        }
    }
}

#[test]
fn lenient_specials_keep_their_meaning() {
    let clock =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 200 1").unwrap();
    assert_eq!(clock.halfmove_clock(), 200);
    let huge = Position::from_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999999999999",
    )
    .unwrap();
    assert!(huge.fullmove_number() >= 1 << 30);
    // The impossible-check perftsuite position, with its published counts.
    let bishops = Position::from_fen("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1").unwrap();
    for (depth, expected) in [(1, 6), (2, 106), (3, 1829), (4, 31151), (5, 530585)] {
        assert_eq!(quince::perft::perft(&bishops, depth), expected);
    }
}

#[test]
fn fen_round_trips_on_every_suite_position() {
    for name in ["standard.epd", "suite.epd", "chess960.epd"] {
        let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
        for line in std::fs::read_to_string(path).unwrap().lines() {
            let fen = line.split(';').next().unwrap().trim();
            let pos = Position::from_fen(fen).unwrap();
            let again = Position::from_fen_with(&pos.fen(), pos.is_chess960()).unwrap();
            assert_eq!(pos, again, "{fen}");
            assert_eq!(pos.key(), pos.compute_key());
        }
    }
}

#[test]
fn castling_notations() {
    // Shredder-FEN in a standard game reads as KQkq.
    let shredder = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").unwrap();
    assert_eq!(shredder.fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    // Chess960 squares switch to Shredder output.
    let c960 =
        Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
            .unwrap();
    assert!(c960.is_chess960());
    assert!(c960.fen().contains(" HFhf "));
    // X-FEN: KQkq mean the outermost rooks in Chess960 mode.
    let xfen = Position::from_fen_with(
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
        true,
    )
    .unwrap();
    assert_eq!(xfen, c960);
    // In standard mode KQkq with the king off e1 is an error.
    assert!(
        Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9")
            .is_err()
    );
}

#[test]
fn en_passant_square_is_kept_only_when_a_capture_is_possible() {
    let no_capturer =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    assert_eq!(no_capturer.en_passant(), None);
    let capturer =
        Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    assert_eq!(
        capturer.en_passant().map(|s| s.to_string()),
        Some("e3".to_string())
    );
}

/// A word is not a FEN with a bad board: it is not a FEN at all (it was
/// reported as a board error).
#[test]
fn a_word_is_a_syntax_error() {
    for text in ["hello", "hello w - - 0 1", "rnbqkbnr"] {
        let error = Position::from_fen(text).unwrap_err();
        assert_eq!(
            error.kind(),
            quince::FenErrorKind::Syntax,
            "{text}: {error}"
        );
    }
}
