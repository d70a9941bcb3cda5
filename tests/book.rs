//! Polyglot opening books: keys against the format's published test
//! vectors and python-chess, a synthetic book written here (probing,
//! weighted and seeded choice, malformed files), and the real GNU Chess
//! book when `QUINCE_GNUCHESS_BOOK` names it (`.ci/stages/62-book.sh`
//! fetches it and sets `QUINCE_REQUIRE_BOOK=1`, which makes it compulsory).

use quince::book::{BookError, PolyglotBook, decode_move, encode_move};
use quince::{Move, Position, Square, legal_moves};
use std::collections::HashMap;
use std::path::PathBuf;

/// The position after `moves` (UCI) from the start.
fn after(moves: &[&str]) -> Position {
    let mut pos = Position::startpos();
    for text in moves {
        let mv = pos.parse_uci(text).expect("a legal move");
        pos.try_play(mv).expect("legal");
    }
    pos
}

#[test]
fn keys_match_the_polyglot_test_vectors() {
    // The test vectors of the Polyglot book format specification.
    let vectors: [(&[&str], u64); 9] = [
        (&[], 0x463b96181691fc9c),
        (&["e2e4"], 0x823c9b50fd114196),
        (&["e2e4", "d7d5"], 0x0756b94461c50fb0),
        (&["e2e4", "d7d5", "e4e5"], 0x662fafb965db29d4),
        // An e.p. capture possible: the f-file key counts.
        (&["e2e4", "d7d5", "e4e5", "f7f5"], 0x22a48b5a8e47ff78),
        // The white king moved: White's castling keys leave.
        (
            &["e2e4", "d7d5", "e4e5", "f7f5", "e1e2"],
            0x652a607ca3f242c1,
        ),
        (
            &["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"],
            0x00fdd303c946bdd9,
        ),
        (
            &["a2a4", "b7b5", "h2h4", "b5b4", "c2c4"],
            0x3c8123ea7b067637,
        ),
        // After bxc3 e.p. and Ra3: White's long castling gone.
        (
            &["a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"],
            0x5c3f9b829b279560,
        ),
    ];
    for (moves, key) in vectors {
        assert_eq!(
            after(moves).polyglot_key(),
            key,
            "after {moves:?}: {:016x} instead of {key:016x}",
            after(moves).polyglot_key()
        );
    }
}

#[test]
fn keys_match_python_chess() {
    // Random-game positions keyed by python-chess 1.11.2
    // (`chess.polyglot.zobrist_hash`): partial castling rights, e.p.
    // squares for either side, promoted pieces.
    let vectors = [
        (
            "4kb2/p4p1r/n1pr4/Q1npp1pP/1p1P1q2/1PP1N1RB/P2KPP2/R1BN4 w - - 0 24",
            0x390480d88c37e95a,
        ),
        (
            "2br4/3n3k/3P2pb/p3n2p/2Rp2PP/Nr2PP1B/P2K4/1R1Q2N1 w - - 2 40",
            0xac5a8014beb5d19d,
        ),
        (
            "b6Q/p3rkr1/P7/2p2p1n/4pp1b/1P2R3/4P3/1N1K1BN1 w - - 1 57",
            0xe2a4cc050237b949,
        ),
        (
            "rnb3nr/2kp1p1p/p1p4Q/1p1Bp1p1/q4PP1/2NPP2P/1PP4R/R1B1K1N1 b Q - 4 17",
            0xa9240258c357422b,
        ),
        (
            "1n2kbr1/rp2pp2/p1q2n1p/2pP2pb/7P/3PB3/PP2PPB1/RN1QK1NR b KQ - 2 15",
            0x17a84209ab9cb549,
        ),
        (
            "rnb1kbr1/3p1pp1/2B1pn1p/P1p3NP/pp6/P1KPP1P1/2P2P2/RNB2Q1R w q - 0 19",
            0xe1eae54aced54476,
        ),
        (
            "3k3N/3b3p/8/p1n2pP1/p4N2/3R2B1/1P1R2K1/6b1 w - - 2 54",
            0x749d2debd180ca0b,
        ),
        (
            "4k1nr/rb5p/p1nb4/qp1pPpp1/1P2P2P/2N2N2/P1P2BP1/R2QKB1R w KQk f6 0 15",
            0x3efab8301e9d04ba,
        ),
        (
            "r2b4/8/nk3pp1/3bp2P/1Pp1pP2/N5p1/K7/4RB2 b - f3 0 43",
            0xf3d24f86ea56afda,
        ),
        (
            "1b4n1/r6k/3p1np1/P1p4P/2B2PpP/1RN1P3/P1P2Rr1/2B1K3 b - h3 0 48",
            0xd02f042459db7e4c,
        ),
    ];
    for (fen, key) in vectors {
        let pos: Position = fen.parse().expect("a valid FEN");
        assert_eq!(pos.polyglot_key(), key, "{fen}");
    }
}

#[test]
fn en_passant_counts_when_a_pawn_stands_ready_even_if_pinned() {
    // exd6 e.p. would expose the king on a5 to the rook: illegal, but
    // Polyglot's rule is pseudo-legal (python-chess agrees).
    let pinned: Position = "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2".parse().unwrap();
    let without: Position = "8/8/8/K2pP2r/8/8/8/7k w - - 0 2".parse().unwrap();
    assert_eq!(without.polyglot_key(), 0xf9832db6e6bc8579);
    assert_eq!(pinned.polyglot_key(), 0xe51af365da0415d8);
    // No pawn beside the double-pushed one: no e.p. key.
    assert_eq!(
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
            .unwrap()
            .polyglot_key(),
        0x823c9b50fd114196
    );
}

// ---------------------------------------------------------------------------
// A synthetic book.

/// The bytes of a book with `(position, uci move, weight)` entries, sorted
/// by key as the format requires (stable, so a position's moves keep their
/// order).
fn book_bytes(entries: &[(&Position, &str, u16)]) -> Vec<u8> {
    let mut rows: Vec<(u64, u16, u16)> = entries
        .iter()
        .map(|(pos, text, weight)| {
            let mv = pos.parse_uci(text).expect("a legal move");
            (pos.polyglot_key(), encode_move(mv), *weight)
        })
        .collect();
    rows.sort_by_key(|row| row.0);
    let mut bytes = Vec::new();
    for (key, code, weight) in rows {
        bytes.extend(key.to_be_bytes());
        bytes.extend(code.to_be_bytes());
        bytes.extend(weight.to_be_bytes());
        bytes.extend(7u32.to_be_bytes());
    }
    bytes
}

fn synthetic_book() -> PolyglotBook {
    let start = Position::startpos();
    let e4 = after(&["e2e4"]);
    let castle = after(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]);
    let bytes = book_bytes(&[
        (&start, "e2e4", 60),
        (&start, "d2d4", 30),
        (&start, "c2c4", 10),
        (&e4, "c7c5", 5),
        (&castle, "e1g1", 1),
    ]);
    PolyglotBook::from_bytes(bytes).expect("a well-formed book")
}

#[test]
fn a_synthetic_book_is_probed_by_position() {
    let book = synthetic_book();
    assert_eq!(book.len(), 5);
    let start = Position::startpos();
    let entries = book.entries(&start);
    let moves: Vec<String> = entries.iter().map(|e| start.uci(e.mv)).collect();
    assert_eq!(moves, ["e2e4", "d2d4", "c2c4"]);
    assert_eq!(
        entries.iter().map(|e| e.weight).collect::<Vec<_>>(),
        [60, 30, 10]
    );
    assert!(
        entries
            .iter()
            .all(|e| e.learn == 7 && e.key == 0x463b96181691fc9c)
    );
    assert_eq!(
        book.best(&start).map(|e| e.mv),
        start.parse_uci("e2e4").ok()
    );

    let e4 = after(&["e2e4"]);
    assert_eq!(
        book.choose(&e4, 1).map(|m| e4.uci(m)).as_deref(),
        Some("c7c5")
    );
    // Not in the book.
    let d4 = after(&["d2d4"]);
    assert!(book.entries(&d4).is_empty());
    assert_eq!(book.choose(&d4, 1), None);
    assert_eq!(book.best(&d4), None);

    // Castling: Polyglot's e1h1, Quince's king-takes-rook move.
    let castle = after(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]);
    let entry = book.entries(&castle)[0];
    assert_eq!(entry.mv, Move::new(Square::E1, Square::H1, None));
    assert_eq!(entry.code, 0x0107);
    assert_eq!(castle.uci(entry.mv), "e1g1");
}

#[test]
fn choices_are_deterministic_per_seed_and_follow_the_weights() {
    let book = synthetic_book();
    let start = Position::startpos();
    let mut counts: HashMap<String, u32> = HashMap::new();
    for seed in 0..10_000u64 {
        let chosen = book.choose(&start, seed).expect("in the book");
        assert_eq!(book.choose(&start, seed), Some(chosen), "seed {seed}");
        *counts.entry(start.uci(chosen)).or_default() += 1;
    }
    // 60 : 30 : 10, within a wide margin (the draws are fixed anyway).
    assert!((5600..6400).contains(&counts["e2e4"]), "{counts:?}");
    assert!((2600..3400).contains(&counts["d2d4"]), "{counts:?}");
    assert!((700..1300).contains(&counts["c2c4"]), "{counts:?}");
}

#[test]
fn entries_that_are_not_legal_moves_are_skipped() {
    let start = Position::startpos();
    let key = start.polyglot_key();
    let mut bytes = Vec::new();
    let e2e4 = encode_move(start.parse_uci("e2e4").unwrap());
    // e2e5 (not legal), a promotion code 7 (no such piece), e2e4 (legal).
    let e2e5 = encode_move(Move::new(Square::E1, Square::E1, None)) | 12 << 6 | 36;
    for code in [e2e5, e2e4 | 7 << 12, e2e4] {
        bytes.extend(key.to_be_bytes());
        bytes.extend(code.to_be_bytes());
        bytes.extend(1u16.to_be_bytes());
        bytes.extend(0u32.to_be_bytes());
    }
    let book = PolyglotBook::from_bytes(bytes).unwrap();
    let entries = book.entries(&start);
    assert_eq!(entries.len(), 1);
    assert_eq!(start.uci(entries[0].mv), "e2e4");
    assert_eq!(decode_move(e2e4 | 7 << 12), None);
}

#[test]
fn every_move_round_trips_through_its_polyglot_code() {
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ] {
        let pos: Position = fen.parse().unwrap();
        for mv in legal_moves(&pos).iter().copied() {
            assert_eq!(decode_move(encode_move(mv)), Some(mv), "{fen} {mv:?}");
        }
    }
}

#[test]
fn malformed_books_are_errors() {
    let good = book_bytes(&[(&Position::startpos(), "e2e4", 1)]);

    let mut short = good.clone();
    short.pop();
    let error = PolyglotBook::from_bytes(short).unwrap_err();
    assert_eq!(error, BookError::Size { len: 15 });
    assert!(error.to_string().contains("16-byte entries"), "{error}");

    // Two entries, the larger key first.
    let mut unsorted = good.clone();
    unsorted.extend(&good);
    unsorted[16..24].copy_from_slice(&1u64.to_be_bytes());
    let error = PolyglotBook::from_bytes(unsorted).unwrap_err();
    assert_eq!(error, BookError::Unsorted { index: 1 });
    assert!(error.to_string().contains("not sorted"), "{error}");

    let missing = std::env::temp_dir().join("quince-no-such-book.bin");
    let error = PolyglotBook::open(&missing).unwrap_err();
    assert!(matches!(error, BookError::Io { .. }), "{error:?}");
    assert!(
        error.to_string().contains("quince-no-such-book.bin"),
        "{error}"
    );

    #[cfg(unix)]
    {
        let error = PolyglotBook::open(std::env::temp_dir()).unwrap_err();
        assert!(error.to_string().contains("not a regular file"), "{error}");
        let error = PolyglotBook::open("/dev/zero").unwrap_err();
        assert!(error.to_string().contains("not a regular file"), "{error}");
    }

    // An empty book is well formed and knows nothing.
    let empty = PolyglotBook::from_bytes(Vec::new()).unwrap();
    assert!(empty.is_empty());
    assert_eq!(empty.choose(&Position::startpos(), 0), None);
}

#[test]
fn a_book_file_is_read_from_disk() {
    let path = std::env::temp_dir().join(format!("quince-book-{}.bin", std::process::id()));
    std::fs::write(&path, book_bytes(&[(&Position::startpos(), "g1f3", 9)])).unwrap();
    let book = PolyglotBook::open(&path);
    let mut odd = book_bytes(&[(&Position::startpos(), "g1f3", 9)]);
    odd.push(0);
    std::fs::write(&path, odd).unwrap();
    assert_eq!(
        PolyglotBook::open(&path).unwrap_err(),
        BookError::Size { len: 17 }
    );
    let _ = std::fs::remove_file(&path);
    let book = book.expect("a well-formed book file");
    let start = Position::startpos();
    assert_eq!(
        book.choose(&start, 0).map(|m| start.uci(m)).as_deref(),
        Some("g1f3")
    );
}

// ---------------------------------------------------------------------------
// The real book: GNU Chess's book.bin (Debian's `gnuchess-book`).

/// The GNU Chess book's path from `QUINCE_GNUCHESS_BOOK`, or `None` (with a
/// note) when it is not set; with `QUINCE_REQUIRE_BOOK` set, a missing book
/// fails the test instead.
fn gnuchess_book() -> Option<PathBuf> {
    let required = std::env::var_os("QUINCE_REQUIRE_BOOK").is_some_and(|v| !v.is_empty());
    match std::env::var_os("QUINCE_GNUCHESS_BOOK").filter(|v| !v.is_empty()) {
        Some(path) => Some(PathBuf::from(path)),
        None if required => {
            panic!("QUINCE_REQUIRE_BOOK is set but QUINCE_GNUCHESS_BOOK does not name a book")
        }
        None => {
            eprintln!(
                "skipped: the GNU Chess book test needs QUINCE_GNUCHESS_BOOK=<path to book.bin> \
                 (Debian's gnuchess-book package; see .ci/stages/62-book.sh)"
            );
            None
        }
    }
}

#[test]
fn the_gnuchess_book() {
    let Some(path) = gnuchess_book() else {
        return;
    };
    let size = std::fs::metadata(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .len();
    let book = PolyglotBook::open(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(book.len() as u64, size / 16);
    assert!(book.len() > 100_000, "{} entries", book.len());

    let start = Position::startpos();
    let entries = book.entries(&start);
    let moves: Vec<String> = entries.iter().map(|e| start.uci(e.mv)).collect();
    assert_eq!(entries.len(), 13, "{moves:?}");
    for expected in ["e2e4", "d2d4", "g1f3", "c2c4", "g2g3", "b2b3", "f2f4"] {
        assert!(
            moves.iter().any(|m| m == expected),
            "{expected} in {moves:?}"
        );
    }
    let legal = legal_moves(&start);
    assert!(entries.iter().all(|e| legal.as_slice().contains(&e.mv)));
    assert_eq!(
        book.best(&start).map(|e| start.uci(e.mv)).as_deref(),
        Some("e2e4")
    );

    for (moves, count, top) in [
        (&["e2e4"][..], 13, "c7c5"),
        (&["d2d4"][..], 11, "g8f6"),
        // The Two Knights: castling is among the book's moves.
        (
            &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"][..],
            5,
            "d2d3",
        ),
    ] {
        let pos = after(moves);
        let entries = book.entries(&pos);
        assert_eq!(entries.len(), count, "after {moves:?}");
        assert_eq!(book.best(&pos).map(|e| pos.uci(e.mv)).as_deref(), Some(top));
        let chosen = book.choose(&pos, 2024).expect("a book move");
        assert!(entries.iter().any(|e| e.mv == chosen));
    }
    let two_knights = after(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]);
    assert!(
        book.entries(&two_knights)
            .iter()
            .any(|e| e.mv == Move::new(Square::E1, Square::H1, None))
    );

    // Following the book's best moves from the start stays in legal moves
    // for a while.
    let mut pos = Position::startpos();
    let mut plies = 0;
    while let Some(entry) = book.best(&pos) {
        pos.try_play(entry.mv).expect("a legal book move");
        plies += 1;
        if plies == 40 {
            break;
        }
    }
    assert!(plies >= 8, "the book's main line ends after {plies} plies");
}
