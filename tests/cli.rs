//! The `quince` CLI contract: output, JSON fields and exit codes.

use std::process::{Command, Output};

fn quince(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quince"))
        .args(args)
        .output()
        .expect("quince runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn perft_json_has_the_contract_fields() {
    let out = quince(&["perft", "--depth", "3", "--json"]);
    assert!(out.status.success());
    let value: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(value["nodes"], 8902);
    assert_eq!(value["depth"], 3);
    assert_eq!(value["slider"], quince::sliders::ACTIVE);
    assert_eq!(
        value["slider_table_bytes"],
        quince::sliders::ACTIVE_TABLE_BYTES as u64
    );
    assert!(value["fen"].as_str().unwrap().starts_with("rnbqkbnr/"));
    assert!(value["seconds"].as_f64().is_some() && value["nps"].as_u64().is_some());
}

#[test]
fn perft_with_moves_divide_and_no_bulk() {
    let out = quince(&[
        "perft",
        "--moves",
        "e2e4",
        "e7e5",
        "--depth",
        "2",
        "--divide",
        "--no-bulk",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // After 1.e4 e5 White has 29 legal moves.
    let rows: Vec<u64> = text
        .lines()
        .filter_map(|l| l.split_once(": ").and_then(|(_, n)| n.parse().ok()))
        .collect();
    assert_eq!(rows.len(), 29, "{text}");
    let total: u64 = rows.iter().sum();
    assert!(text.contains(&format!("perft 2 = {total} ")), "{text}");
    assert!(text.contains("g1f3: "), "{text}");
}

#[test]
fn perft_json_divide_lists_every_root_move() {
    let out = quince(&["perft", "--depth", "2", "--divide", "--json"]);
    let value: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let divide = value["divide"].as_array().unwrap();
    assert_eq!(divide.len(), 20);
    assert!(divide.iter().all(|d| d["nodes"] == 20));
}

#[test]
fn bad_input_exits_2_with_an_error_line() {
    for args in [
        vec![
            "perft",
            "--depth",
            "2",
            "--fen",
            "8/8/8/8/8/8/8/8 w - - 0 1",
        ],
        vec!["perft", "--depth", "2", "--moves", "e2e5"],
        vec!["perft", "--depth", "2", "--moves", "zz"],
        vec!["perft", "--depth", "x"],
        vec!["perft", "--bogus"],
        vec!["suite", "/nonexistent/file.epd"],
    ] {
        let out = quince(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("error:"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(!stderr(&out).contains("panicked"), "{args:?}");
    }
}

#[test]
fn suite_passes_and_fails_with_exit_codes() {
    let dir = std::env::temp_dir().join(format!("quince-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.epd");
    let bad = dir.join("bad.epd");
    std::fs::write(
        &good,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n",
    )
    .unwrap();
    std::fs::write(
        &bad,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n",
    )
    .unwrap();
    let ok = quince(&["suite", good.to_str().unwrap()]);
    assert_eq!(ok.status.code(), Some(0), "{}", stdout(&ok));
    let fail = quince(&["suite", bad.to_str().unwrap(), "--json"]);
    assert_eq!(fail.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = stdout(&fail)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["ok"], false);
    assert_eq!(lines[1]["expected"], 401);
    assert_eq!(lines[1]["nodes"], 400);
    let limited = quince(&["suite", bad.to_str().unwrap(), "--max-depth", "1"]);
    assert_eq!(limited.status.code(), Some(0));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn perft_with_a_named_technique_and_its_errors() {
    // `hq` is compiled into every build (the reference and the default).
    let out = quince(&["perft", "--technique", "hq", "--depth", "3", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let value: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(value["nodes"], 8902);
    assert_eq!(value["slider"], "hq");
    let out = quince(&["perft", "--technique", "hq", "--depth", "3", "--no-bulk"]);
    assert!(
        stdout(&out).starts_with("perft 3 = 8902 "),
        "{}",
        stdout(&out)
    );

    let out = quince(&["perft", "--technique", "no-such", "--depth", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--technique no-such: not compiled"),
        "{}",
        stderr(&out)
    );
    let out = quince(&[
        "perft",
        "--technique",
        "hq",
        "--depth",
        "3",
        "--threads",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--threads other than 1"),
        "{}",
        stderr(&out)
    );
}

/// `quince lookups --technique NAME --mode MODE --passes 2 --json`.
fn lookups_json(technique: &str, mode: &str) -> serde_json::Value {
    let out = quince(&[
        "lookups",
        "--technique",
        technique,
        "--mode",
        mode,
        "--passes",
        "2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(stdout(&out).trim()).unwrap()
}

#[test]
fn lookups_times_a_technique_and_lists_the_compiled_ones() {
    let out = quince(&["lookups", "--technique", "hq", "--passes", "2", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let value: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(value["technique"], "hq");
    assert_eq!(
        value["lookups"],
        2 * quince::sliders::lookups::INPUTS as u64
    );
    assert!(value["mqueens_per_s"].as_f64().unwrap() > 0.0);
    // The fold is the same for every compiled technique: they agree.
    let fold = value["fold"].clone();
    let grouped_fold = lookups_json("hq", "grouped")["fold"].clone();
    for compiled in quince::sliders::COMPILED {
        let out = quince(&[
            "lookups",
            "--technique",
            compiled.name,
            "--passes",
            "2",
            "--json",
        ]);
        let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(v["fold"], fold, "{}", compiled.name);
        // One lookup at a time computes the same attacks.
        let v = lookups_json(compiled.name, "one-at-a-time");
        assert_eq!(v["fold"], fold, "{} one at a time", compiled.name);
        assert_eq!(v["mode"], "one-at-a-time");
        // Grouped inputs are another set: every technique agrees there too.
        let v = lookups_json(compiled.name, "grouped");
        assert_eq!(v["fold"], grouped_fold, "{} grouped", compiled.name);
        assert_eq!(
            v["lookups"],
            2 * (quince::sliders::lookups::GROUPS * quince::sliders::lookups::PER_OCCUPANCY) as u64
        );
    }
    let out = quince(&["lookups", "--list"]);
    assert!(stdout(&out).lines().any(|l| l.starts_with("hq ")));
    let out = quince(&["lookups", "--technique", "bogus"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("known:"), "{}", stderr(&out));
}
