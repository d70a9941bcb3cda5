//! `quince pgn`: output, JSON fields and exit codes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pgn/sample.pgn");

fn quince(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quince"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("quince runs");
    // Quince may exit before reading stdin (a bad flag): ignore a closed pipe.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect()
}

#[test]
fn json_reports_every_game_and_exits_2_for_a_broken_one() {
    let out = quince(&["pgn", SAMPLE, "--json"], "");
    assert_eq!(out.status.code(), Some(2));
    let games = json_lines(&out);
    assert_eq!(games.len(), 5);
    let first = &games[0];
    assert_eq!(first["index"], 1);
    assert_eq!(first["plies"], 33);
    assert_eq!(first["result"], "1-0");
    assert_eq!(
        first["fen"],
        "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17"
    );
    assert_eq!(first["tags"]["White"], "Morphy, Paul");
    assert_eq!(games[2]["index"], 3);
    assert_eq!(
        games[2]["error"],
        "game 3, line 43: move 6. Ke3: illegal move 'Ke3' in this position"
    );
    assert!(games[2].get("fen").is_none());
    assert_eq!(
        games[3]["fen"],
        "2kr2rn/bppbpppp/p1n2q2/8/3PP3/2N5/PPPB2PP/RB2QRKN w - - 1 10"
    );
    assert_eq!(games[4]["result"], "*");
}

#[test]
fn text_output_and_stdin() {
    let out = quince(
        &["pgn", "-"],
        "[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n1. d4 *\n",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text,
        "1: 7 plies, 1-0, r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4\n\
         2: 1 plies, *, rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n"
    );
    let out = quince(&["pgn", "-"], "1. e4 e5 2. Ke3 *\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("1: error: game 1, line 1: move 2. Ke3")
    );
}

#[test]
fn json_for_good_games_exits_0() {
    let out = quince(
        &["pgn", "--json", "-"],
        "[White \"A\"]\n1. f3 e5 2. g4 Qh4# 0-1\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let games = json_lines(&out);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["result"], "0-1");
    assert_eq!(games[0]["tags"]["White"], "A");
    let empty = quince(&["pgn", "--json", "-"], "");
    assert_eq!(empty.status.code(), Some(0));
    assert!(empty.stdout.is_empty());
}

#[test]
fn unreadable_files_and_bad_flags_exit_2() {
    let out = quince(&["pgn", "/no/such/file.pgn"], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("error: cannot read /no/such/file.pgn"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    assert_eq!(quince(&["pgn"], "").status.code(), Some(2));
    assert_eq!(
        quince(&["pgn", SAMPLE, "--bogus"], "").status.code(),
        Some(2)
    );
    // A directory: opening works on Linux, reading fails.
    let dir = quince(&["pgn", env!("CARGO_MANIFEST_DIR")], "");
    assert_eq!(dir.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&dir.stderr).starts_with("error: "));
}
