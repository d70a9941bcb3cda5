//! `OwnBook` and `BookFile`: book moves without a search for a game-clock
//! `go` once the book is turned on, every analysis request searched even
//! with the default Debian book installed, and a bad book reported.

use crate::harness::*;
use quince::Position;
use std::time::{Duration, Instant};

/// Writes a Polyglot book with `(uci move, weight)` entries for the start
/// position into a fresh file, and returns its path.
fn start_book_file(name: &str, moves: &[(&str, u16)]) -> std::path::PathBuf {
    let start = Position::startpos();
    let mut bytes = Vec::new();
    for (text, weight) in moves {
        let mv = start.parse_uci(text).unwrap();
        bytes.extend(start.polyglot_key().to_be_bytes());
        bytes.extend(quince::book::encode_move(mv).to_be_bytes());
        bytes.extend(weight.to_be_bytes());
        bytes.extend(0u32.to_be_bytes());
    }
    let path = std::env::temp_dir().join(format!("quince-uci-{}-{name}", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn own_book_answers_from_the_book_without_searching() {
    let moves = [("e2e4", 5), ("d2d4", 3), ("c2c4", 1)];
    let path = start_book_file("book.bin", &moves);
    let mut engine = Engine::start();
    engine.send(&format!("setoption name BookFile value {}", path.display()));
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string BookFile") && l.ends_with(": 3 entries")),
        "{lines:?}"
    );
    // Loaded but OwnBook is off: a search.
    engine.send("position startpos");
    let lines = engine.go("go depth 2");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");

    engine.send("setoption name OwnBook value true");
    engine.send("position startpos");
    let mut seen = Vec::new();
    for _ in 0..12 {
        let started = Instant::now();
        let lines = engine.go("go wtime 60000 btime 60000 winc 1000 binc 1000");
        assert!(started.elapsed() < Duration::from_secs(5), "{lines:?}");
        assert_eq!(lines.len(), 2, "a book move, no search: {lines:?}");
        let best = assert_legal_answer(&Position::startpos(), &lines);
        let (_, weight) = moves.iter().find(|(m, _)| *m == best).expect("a book move");
        assert_eq!(
            lines[0],
            format!("info string book move {best} (weight {weight} of 9)")
        );
        seen.push(best);
    }
    // The seed varies from one probe to the next.
    seen.sort();
    seen.dedup();
    assert!(seen.len() >= 2, "{seen:?}");

    // Out of the book: a search.
    engine.send("position startpos moves e2e4");
    let lines = engine.go("go depth 3");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3")),
        "{lines:?}"
    );
    // Analysis requests always search, in the book too.
    engine.send("position startpos");
    for go in [
        "go depth 3",
        "go nodes 5000",
        "go movetime 200",
        "go mate 2",
    ] {
        let lines = engine.go(go);
        assert!(
            lines.iter().any(|l| l.starts_with("info depth")),
            "{go}: {lines:?}"
        );
        assert!(
            !lines.iter().any(|l| l.contains("book move")),
            "{go}: {lines:?}"
        );
    }
    let lines = engine.go("go depth 2 searchmoves g1f3");
    assert_eq!(best_of(lines.last().unwrap()).0, "g1f3");
    engine.send("setoption name MultiPV value 2");
    let lines = engine.go("go depth 2");
    assert!(lines.iter().any(|l| l.contains(" multipv 2 ")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn own_book_is_off_by_default_so_every_go_searches_where_the_debian_book_is_installed() {
    let debian = "/usr/share/games/gnuchess/book.bin";
    let installed = std::path::Path::new(debian).is_file();
    let mut engine = Engine::start_with(&[]);
    engine.send("uci");
    let lines = engine.until(|l| l == "uciok");
    assert!(
        lines.contains(&"option name OwnBook type check default false".to_string()),
        "{lines:?}"
    );
    let book_file = format!(
        "option name BookFile type string default {}",
        if installed { debian } else { "<empty>" }
    );
    assert!(lines.contains(&book_file), "{lines:?}");
    assert_eq!(engine.sync(), ["readyok"]);
    // The start position is in the Debian book; with the defaults every
    // request, a game clock included, is searched.
    for go in [
        "go depth 3",
        "go nodes 5000",
        "go movetime 100",
        "go wtime 2000 btime 2000 winc 20 binc 20",
    ] {
        engine.send("position startpos");
        let lines = engine.go(go);
        assert_legal_answer(&Position::startpos(), &lines);
        assert!(
            lines.iter().any(|l| l.starts_with("info depth")),
            "{go}: {lines:?}"
        );
        assert!(
            !lines.iter().any(|l| l.contains("book move")),
            "{go}: {lines:?}"
        );
    }
    // With the book turned on, only the game clock is answered from it.
    if installed {
        engine.send("setoption name OwnBook value true");
        engine.send("position startpos");
        let lines = engine.go("go wtime 2000 btime 2000 winc 20 binc 20");
        let best = assert_legal_answer(&Position::startpos(), &lines);
        assert!(
            lines[0].starts_with(&format!("info string book move {best} (weight ")),
            "{lines:?}"
        );
        assert_eq!(lines.len(), 2, "no search: {lines:?}");
        let lines = engine.go("go depth 3");
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 3")),
            "{lines:?}"
        );
    }
    engine.close();
}

#[test]
fn a_bad_book_file_is_reported_and_the_engine_searches() {
    let malformed = start_book_file("bad.bin", &[("e2e4", 1)]);
    std::fs::write(&malformed, [0u8; 17]).unwrap();
    let missing = std::env::temp_dir().join("quince-uci-no-such-book.bin");
    let mut engine = Engine::start();
    engine.send("setoption name OwnBook value true");
    for (path, why) in [(&malformed, "17 bytes"), (&missing, "cannot read the book")] {
        engine.send(&format!("setoption name BookFile value {}", path.display()));
        let lines = engine.sync();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: BookFile") && l.contains(why)),
            "{lines:?}"
        );
        engine.send("position startpos");
        let lines = engine.go("go depth 3");
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 3")),
            "{lines:?}"
        );
        assert_legal_answer(&Position::startpos(), &lines);
    }
    engine.send("setoption name OwnBook value maybe");
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("OwnBook must be true or false")),
        "{lines:?}"
    );
    let _ = std::fs::remove_file(&malformed);
}
