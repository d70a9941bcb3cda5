//! Chess in play: repetition against the game's history, Chess960
//! castling, and tactics whose answers `tests/python/verify_tactics.py`
//! checks independently with python-chess.

use crate::harness::*;
use quince::Position;

#[test]
fn repetition_against_the_game_history_rescues_a_lost_position() {
    // Black is a queen down. The position after White's 1.Nc3 2.Nb1 ... has
    // occurred twice; Nc6-b8 repeats it a third time: a draw by rule.
    let mut engine = Engine::start();
    let fen = "1n2k3/8/8/8/8/8/8/QN2K3 w - - 0 1";
    engine.send(&format!(
        "position fen {fen} moves b1c3 b8c6 c3b1 c6b8 b1c3 b8c6 c3b1"
    ));
    let lines = engine.go("go depth 6");
    assert_eq!(best_of(lines.last().unwrap()).0, "c6b8", "{lines:#?}");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last.contains("score cp 0 "), "{last}");
    // Without the history the same position is simply lost.
    engine.send(&format!(
        "position fen {}",
        engine_fen_after(fen, &["b1c3", "b8c6", "c3b1"])
    ));
    let lines = engine.go("go depth 6");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let score: i32 = last
        .split(" score cp ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(score < -500, "{last}");
}

/// The FEN after playing `moves` from `fen` (with the library).
fn engine_fen_after(fen: &str, moves: &[&str]) -> String {
    let pos = Position::from_fen(fen).unwrap();
    moves
        .iter()
        .fold(pos, |p, m| p.play_unchecked(p.parse_uci(m).unwrap()))
        .fen()
}

#[test]
fn chess960_castling_both_ways() {
    let mut engine = Engine::start();
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    // Standard: castling is written king-to-destination, and both forms are read.
    engine.send(&format!("position fen {fen}"));
    let lines = engine.go("go depth 2 searchmoves e1g1");
    assert_eq!(best_of(lines.last().unwrap()).0, "e1g1");
    engine.send(&format!("position fen {fen} moves e1h1"));
    assert_eq!(
        engine.fen(),
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1"
    );
    // Chess960 on: king takes rook, both when reading and writing.
    engine.send("setoption name UCI_Chess960 value true");
    engine.send(&format!("position fen {fen}"));
    let lines = engine.go("go depth 2 searchmoves e1h1");
    assert_eq!(best_of(lines.last().unwrap()).0, "e1h1");
    let lines = engine.go("go depth 2 searchmoves e1a1");
    assert_eq!(best_of(lines.last().unwrap()).0, "e1a1");
    engine.send(&format!("position fen {fen} moves e1a1 e8h8"));
    assert_eq!(
        engine.fen(),
        "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/2KR3R w - - 2 2"
    );
    // An X-FEN Chess960 start position with castling rights read as KQkq.
    engine.send("position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    let fen = engine.fen();
    assert!(fen.contains(" HFhf "), "{fen}");
    engine.send("go perft 1");
    let lines = engine.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 21");
}

/// The positions and answers of `tests/python/tactics.json`.
fn tactics() -> Vec<serde_json::Value> {
    let text = include_str!("../python/tactics.json");
    serde_json::from_str::<serde_json::Value>(text)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn finds_mates_and_wins_material() {
    let mut engine = Engine::start();
    for case in tactics() {
        let fen = case["fen"].as_str().unwrap();
        let solutions: Vec<&str> = case["solutions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        engine.send("ucinewgame");
        engine.send(&format!("position fen {fen}"));
        let lines = engine.go("go depth 8");
        let best = assert_legal_answer(&Position::from_fen(fen).unwrap(), &lines);
        assert!(
            solutions.contains(&best.as_str()),
            "{}: {best} not in {solutions:?}",
            case["name"]
        );
        if case["kind"] == "mate" {
            let mate = format!("score mate {}", case["depth"]);
            let last = lines
                .iter()
                .rev()
                .find(|l| l.starts_with("info depth"))
                .unwrap();
            assert!(last.contains(&mate), "{}: {last}", case["name"]);
        }
    }
}

#[test]
fn go_mate_finds_the_mate_in_two() {
    let mut engine = Engine::start();
    engine.send("position fen 3r2k1/5ppp/8/8/8/8/4R3/4R1K1 w - - 0 1");
    let lines = engine.go("go mate 2");
    assert_eq!(best_of(lines.last().unwrap()).0, "e2e8");
    assert!(lines.iter().any(|l| l.contains("score mate 2")));
}
