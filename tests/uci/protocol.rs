//! The protocol itself: the handshake and its options, bad input of
//! every kind, `Hash` limits, end of input, `go perft` and `bench`.

use crate::harness::*;
use quince::Position;
use std::process::Command;
use std::time::Duration;

#[test]
fn handshake_with_and_without_uci_argument() {
    for args in [&[][..], &["uci"][..]] {
        let mut engine = Engine::start_with(args);
        engine.send("uci");
        let lines = engine.until(|l| l == "uciok");
        assert!(lines[0].starts_with("id name Quince"), "{lines:?}");
        assert!(lines.iter().any(|l| l.starts_with("id author ")));
        for option in [
            "Hash",
            "Clear Hash",
            "MultiPV",
            "UCI_Chess960",
            "Move Overhead",
            "Threads",
            "Ponder",
            "OwnBook",
            "BookFile",
        ] {
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("option name {option} type "))),
                "{option} missing: {lines:?}"
            );
        }
        assert_eq!(engine.sync(), ["readyok"]);
        engine.close();
    }
}

#[test]
fn bad_input_is_reported_and_harmless() {
    let mut engine = Engine::start();
    let start_fen = Position::startpos().fen();
    engine.send_bytes(b"\xff\xfe garbage \x00\x01\n");
    engine.send_bytes(b"isready\r\n");
    let lines = engine.until(|l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: unknown command")),
        "{lines:#?}"
    );
    engine.send("   position    startpos   moves   e2e4   ");
    let after_e4 = engine.fen();
    assert_eq!(
        after_e4,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    // Malformed FEN: an error, and the previous position stays.
    for bad in [
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen not a fen at all",
        "position fen",
        "position",
        "position sideways",
    ] {
        engine.send(bad);
        let lines = engine.sync();
        assert!(
            lines.iter().any(|l| l.starts_with("info string error: ")),
            "{bad}: {lines:#?}"
        );
        assert_eq!(engine.fen(), after_e4, "{bad}");
    }
    // Illegal or unparsable move: the position up to the move before it.
    engine.send("position startpos moves e2e4 e7e5 e1e3 g1f3");
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("error") && l.contains("e1e3")),
        "{lines:#?}"
    );
    assert_eq!(
        engine.fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    engine.send("position startpos moves e2e4 zz");
    engine.sync();
    assert_eq!(engine.fen(), after_e4);
    // Options with bad values.
    for bad in [
        "setoption name Hash value lots",
        "setoption name Nonsense value 3",
        "setoption name UCI_Chess960 value maybe",
    ] {
        engine.send(bad);
        assert!(
            engine
                .sync()
                .iter()
                .any(|l| l.starts_with("info string error")),
            "{bad}"
        );
    }
    // Not a number: an error. Out of range: clamped, as every spin option.
    engine.send("setoption name Threads value two");
    let lines = engine.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Threads must be a number from 1 to 1024")),
        "{lines:?}"
    );
    engine.send("setoption name Threads value 0");
    assert!(engine.sync().iter().all(|l| !l.contains("error")));
    // A very long line is refused without harm; a long but acceptable one works.
    let long = format!(
        "position startpos moves {}",
        "g1f3 g8f6 f3g1 f6g8 ".repeat(120_000)
    );
    engine.send(&long);
    assert!(
        engine
            .sync()
            .iter()
            .any(|l| l.contains("ignored an input line"))
    );
    let many = format!(
        "position startpos moves {}",
        "g1f3 g8f6 f3g1 f6g8 ".repeat(1000)
    );
    engine.send(&many);
    engine.sync();
    assert_eq!(engine.fen(), start_fen.replace(" 0 1", " 4000 2001"));
    let lines = engine.go("go depth 3");
    assert_legal_answer(&Position::startpos(), &lines);
    let rest = engine.close();
    assert!(bestmoves(&rest).is_empty());
}

#[test]
fn go_perft_prints_stockfish_divide() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go perft 3");
    let lines = engine.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
    let divide: Vec<&String> = lines.iter().filter(|l| l.contains(": ")).take(20).collect();
    assert_eq!(divide.len(), 20);
    assert!(lines.contains(&"e2e4: 600".to_string()), "{lines:#?}");
    assert_eq!(lines[lines.len() - 2], "");
}

#[test]
fn hash_options_resize_and_clear() {
    let mut engine = Engine::start();
    engine.send("setoption name Hash value 64");
    engine.send("setoption name Clear Hash");
    engine.send("setoption name hash value 1");
    assert!(engine.sync().iter().all(|l| !l.contains("error")));
    let lines = engine.go("go depth 5");
    assert_legal_answer(&Position::startpos(), &lines);
}

#[test]
fn a_hash_beyond_the_machine_is_refused_and_the_table_kept() {
    // 1 TiB: more than this machine has available, refused with the
    // figures (where the available memory is unknown, the allocator's
    // refusal halves it until granted, saying so); the table works.
    let mut engine = Engine::start();
    engine.send("setoption name Hash value 1048576");
    let lines = engine.sync();
    let note = lines
        .iter()
        .find(|l| l.starts_with("info string"))
        .unwrap_or_else(|| panic!("no note: {lines:?}"));
    assert!(
        note.contains("Hash 1048576 MiB is more than the")
            && note.contains("available here; Hash stays 16 MiB")
            || note.contains("refused 1048576 MiB; using"),
        "{note}"
    );
    engine.send("setoption name Hash value 2048");
    engine.send("setoption name Clear Hash");
    assert!(engine.sync().iter().all(|l| !l.contains("error")));
    let lines = engine.go("go depth 6");
    assert_legal_answer(&Position::startpos(), &lines);
}

#[test]
fn end_of_input_during_a_search_exits_cleanly() {
    let mut engine = Engine::start();
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let rest = engine.close();
    assert!(bestmoves(&rest).len() <= 1);
    let mut engine = Engine::start();
    engine.send("go depth 30");
    engine.send("quit");
    let rest = engine.close();
    assert!(bestmoves(&rest).len() <= 1);
}

#[test]
fn bench_is_deterministic() {
    let run = || {
        let output = Command::new(env!("CARGO_BIN_EXE_quince"))
            .args(["bench", "--depth", "6"])
            .output()
            .unwrap();
        assert!(output.status.success());
        let text = String::from_utf8(output.stdout).unwrap();
        text.lines()
            .find(|l| l.starts_with("Nodes searched"))
            .unwrap()
            .to_string()
    };
    assert_eq!(run(), run());
}

#[test]
fn a_deep_perft_answers_isready_and_stops() {
    let mut engine = Engine::start();
    engine
        .send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    engine.send("go perft 9");
    assert_eq!(engine.sync().last().unwrap(), "readyok");
    engine.send("stop");
    let lines = engine.until(|l| l.starts_with("Nodes searched"));
    assert!(
        lines.iter().any(|l| l == "info string perft stopped"),
        "{lines:#?}"
    );
    let lines = engine.go("go depth 3");
    assert_eq!(bestmoves(&lines).len(), 1);
}
