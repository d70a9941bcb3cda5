//! Searching and stopping: `go` with every limit, `stop`, `ponderhit`,
//! `go infinite`, every `Threads` value, MultiPV, and answers that stay
//! legal and single whatever the `go` values are.

use crate::harness::*;
use quince::Position;
use std::time::{Duration, Instant};

#[test]
fn go_depth_reports_info_and_one_legal_bestmove() {
    let mut engine = Engine::start();
    engine.send("ucinewgame");
    engine.send("position startpos moves e2e4 e7e5 g1f3");
    let lines = engine.go("go depth 6");
    let pos = Position::startpos();
    let pos = ["e2e4", "e7e5", "g1f3"]
        .iter()
        .fold(pos, |p, m| p.play_unchecked(p.parse_uci(m).unwrap()));
    assert_legal_answer(&pos, &lines);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 6, "{lines:#?}");
    for (i, info) in infos.iter().enumerate() {
        assert!(
            info.starts_with(&format!("info depth {} ", i + 1)),
            "{info}"
        );
        for field in [
            " seldepth ",
            " score cp ",
            " nodes ",
            " nps ",
            " time ",
            " hashfull ",
            " pv ",
        ] {
            assert!(info.contains(field), "{field} missing in {info}");
        }
    }
    // The PV is legal from the position.
    let pv: Vec<&str> = infos[5]
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .collect();
    pv.iter().fold(pos.clone(), |p, m| {
        p.play_unchecked(p.parse_uci(m).unwrap_or_else(|e| panic!("pv {e}")))
    });
    assert!(engine.quiet_for(Duration::from_millis(200)).is_empty());
}

#[test]
fn stop_and_isready_during_go_infinite() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    // Answered while searching, and no bestmove before stop.
    let before = engine.sync();
    assert!(bestmoves(&before).is_empty(), "{before:#?}");
    engine.send("stop");
    let after = engine.until(|l| l.starts_with("bestmove"));
    assert_legal_answer(&Position::startpos(), &after);
    // A second stop, and ponderhit, when idle: nothing happens.
    engine.send("stop");
    engine.send("ponderhit");
    assert_eq!(engine.sync(), ["readyok"]);
    engine.close();
}

#[test]
fn go_infinite_waits_for_stop_even_after_a_mate_is_found() {
    let mut engine = Engine::start();
    engine.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    engine.send("go infinite");
    let early = engine.quiet_for(Duration::from_millis(500));
    assert!(bestmoves(&early).is_empty(), "{early:#?}");
    engine.send("stop");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert_eq!(best_of(lines.last().unwrap()).0, "d1d8");
}

/// Sends `go`, checks that no `bestmove` comes for `wait_ms`, sends
/// `release` (`stop` or `ponderhit`) and returns the lines up to the
/// `bestmove` it brings.
fn held_until(engine: &mut Engine, go: &str, wait_ms: u64, release: &str) -> Vec<String> {
    engine.send(go);
    let early = engine.quiet_for(Duration::from_millis(wait_ms));
    assert!(bestmoves(&early).is_empty(), "{go}: {early:#?}");
    engine.send(release);
    engine.until(|l| l.starts_with("bestmove"))
}

/// Lazy SMP: with every thread count the search answers `go depth`,
/// waits in `go infinite` and `go ponder` until `stop` or `ponderhit`, and
/// gives exactly one legal `bestmove`; `info nodes` counts the helpers.
#[test]
fn every_thread_count_searches_stops_and_ponders() {
    let mut engine = Engine::start();
    let mut after = Position::startpos();
    for text in ["e2e4", "e7e5"] {
        after = after.play_unchecked(after.parse_uci(text).unwrap());
    }
    for threads in [2, 3, 8] {
        engine.send(&format!("setoption name Threads value {threads}"));
        let set = engine.sync();
        assert!(set.iter().all(|l| !l.contains("error")), "{set:?}");
        engine.send("position startpos moves e2e4 e7e5");
        let lines = engine.go("go depth 8");
        assert_legal_answer(&after, &lines);
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 8")),
            "{lines:?}"
        );
        let lines = held_until(&mut engine, "go infinite", 300, "stop");
        assert_legal_answer(&after, &lines);
        let lines = held_until(
            &mut engine,
            "go ponder wtime 2000 btime 2000",
            200,
            "ponderhit",
        );
        assert_legal_answer(&after, &lines);
        assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
    }
    // Threads beyond the cores: allowed, and said (beyond 1024, clamped).
    engine.send("setoption name Threads value 5000");
    let lines = engine.sync();
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    if cores < 1024 {
        assert!(
            lines
                .iter()
                .any(|l| l.contains("more than the") && l.contains("cores")),
            "{lines:?}"
        );
    }
    engine.send("setoption name Threads value 1");
    engine.close();
}

#[test]
fn pondering_answers_after_ponderhit_or_stop() {
    let mut engine = Engine::start();
    engine.send("setoption name Ponder value true");
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go ponder wtime 2000 btime 2000");
    let early = engine.quiet_for(Duration::from_millis(300));
    assert!(
        bestmoves(&early).is_empty(),
        "no bestmove while pondering: {early:#?}"
    );
    engine.send("ponderhit");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert_eq!(bestmoves(&lines).len(), 1);
    engine.send("go ponder wtime 2000 btime 2000");
    engine.quiet_for(Duration::from_millis(100));
    engine.send("stop");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert_eq!(bestmoves(&lines).len(), 1);
    assert!(engine.sync().iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn time_limits_end_the_search() {
    let mut engine = Engine::start();
    engine.send("setoption name Move Overhead value 50");
    engine.send("position startpos");
    for go in [
        "go movetime 200",
        "go wtime 1000 btime 1000",
        "go wtime 300 btime 300 winc 5000 binc 5000",
        "go wtime 60 btime 60",
        "go wtime 0 btime 0",
        "go wtime 10000 btime 10000 movestogo 1",
        "go btime 100",
    ] {
        let start = Instant::now();
        let lines = engine.go(go);
        assert_legal_answer(&Position::startpos(), &lines);
        // A guard against ignoring the clock, far above any real budget.
        assert!(start.elapsed() < Duration::from_secs(20), "{go}");
    }
}

#[test]
fn odd_go_values_still_give_exactly_one_bestmove() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    for go in [
        "go depth 0",
        "go depth -3",
        "go depth",
        "go depth x movetime 100",
        "go movetime -1",
        "go movetime 0",
        "go nodes 0",
        "go nodes 1",
        "go nodes 5000",
        "go depth 99999999999999999999999999 nodes 3000",
        "go mate 1 depth 3",
        "go searchmoves a2a3 e9e9 h2h4 depth 3",
        "go wtime abc btime def",
    ] {
        let lines = engine.go(go);
        let best = assert_legal_answer(&Position::startpos(), &lines);
        if go.contains("searchmoves") {
            assert!(["a2a3", "h2h4"].contains(&best.as_str()), "{best}");
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with("info string error") && l.contains("e9e9"))
            );
        }
        assert!(
            engine.quiet_for(Duration::from_millis(50)).is_empty(),
            "{go}"
        );
    }
}

/// The output of a search without its timing fields (`nps`, `time`).
fn without_timing(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|line| {
            let mut words = line.split_whitespace();
            let mut kept = Vec::new();
            while let Some(word) = words.next() {
                if word == "nps" || word == "time" {
                    words.next();
                } else {
                    kept.push(word);
                }
            }
            kept.join(" ")
        })
        .collect()
}

#[test]
fn node_limited_searches_are_deterministic() {
    let mut runs = Vec::new();
    for _ in 0..2 {
        let mut engine = Engine::start();
        engine.send("position startpos moves d2d4 g8f6");
        runs.push(without_timing(&engine.go("go nodes 20000")));
    }
    assert!(runs[0].len() > 3, "{:#?}", runs[0]);
    assert_eq!(runs[0], runs[1]);
}

#[test]
fn no_legal_move_answers_0000() {
    let mut engine = Engine::start();
    for (fen, score) in [
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "score mate 0"),
        ("7k/8/6QK/8/8/8/8/8 b - - 0 1", "score cp 0"),
    ] {
        engine.send(&format!("position fen {fen}"));
        let lines = engine.go("go depth 5");
        assert!(lines.iter().any(|l| l.contains(score)), "{lines:#?}");
        assert_eq!(lines.last().unwrap(), "bestmove 0000");
    }
    engine.send("position fen 7k/8/6QK/8/8/8/8/8 b - - 0 1");
    engine.send("go infinite");
    assert!(
        engine
            .quiet_for(Duration::from_millis(200))
            .iter()
            .all(|l| !l.starts_with("bestmove"))
    );
    engine.send("stop");
    assert_eq!(
        engine.until(|l| l.starts_with("bestmove")).last().unwrap(),
        "bestmove 0000"
    );
}

#[test]
fn multipv_reports_several_lines() {
    let mut engine = Engine::start();
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos");
    let lines = engine.go("go depth 5");
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 5 ") && l.contains(&format!(" multipv {k} "))),
            "{k}"
        );
    }
    let firsts: std::collections::HashSet<String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 5 "))
        .map(|l| {
            l.split(" pv ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(firsts.len(), 3, "three different first moves");
}

#[test]
fn show_wdl_adds_win_draw_and_loss_per_mille_to_every_info_line() {
    let mut engine = Engine::start();
    // Off by default: no wdl.
    engine.send("position startpos");
    let lines = engine.go("go depth 3");
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:#?}");
    engine.send("setoption name UCI_ShowWDL value true");
    // A queen up: the side to move's wins dominate.
    engine.send("position fen 4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    let lines = engine.go("go depth 4");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty(), "{lines:#?}");
    for info in infos {
        let wdl: Vec<u32> = info
            .split(" wdl ")
            .nth(1)
            .unwrap_or_else(|| panic!("no wdl in {info}"))
            .split_whitespace()
            .take(3)
            .map(|n| n.parse().unwrap())
            .collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{info}");
        assert!(wdl[0] > wdl[2], "{info}");
    }
    engine.send("setoption name UCI_ShowWDL value maybe");
    let reply = engine.quiet_for(Duration::from_millis(200));
    assert!(
        reply.iter().any(|l| l.starts_with("info string")),
        "{reply:#?}"
    );
}
