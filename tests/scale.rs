//! Perft at scale: threaded, hashed and split/work/merge counts must equal
//! the reference counts on every shared suite (under a node budget that
//! keeps this file to a few seconds in release mode).

mod common;
use common::{load_suite, run_suite};
use quince::Position;
use quince::perft::hash::{CountTable, StatsTable};
use quince::perft::stats::perft_stats_by_name;
use quince::perft::threads::{Divide, Progress, Settings, StatsJob, dispatch};
use std::process::{Command, Output};

/// Expected counts above this are skipped (per position and depth).
const BUDGET: u64 = if cfg!(debug_assertions) {
    20_000
} else {
    2_000_000
};

fn quiet(_: Progress) {}

/// Perft through the threaded/hashed path (`Divide`, then summed).
fn count(pos: &Position, depth: u32, threads: usize, table: Option<&CountTable>) -> u64 {
    let job = Divide {
        position: pos,
        depth,
        table,
        settings: Settings {
            threads,
            bulk: true,
            progress: &quiet,
        },
    };
    let divide = dispatch("legal", "unmake", job).unwrap();
    if depth == 0 {
        1
    } else {
        divide.iter().map(|&(_, n)| n).sum()
    }
}

fn check_suite(name: &str, threads: usize, hash_mb: usize) {
    // One table for the whole suite: entries from earlier positions must
    // never be mistaken for later ones.
    let table = (hash_mb > 0).then(|| CountTable::new(hash_mb).unwrap());
    let entries = load_suite(name);
    let (checked, failures) = run_suite(&entries, BUDGET, |pos, depth| {
        count(pos, depth, threads, table.as_ref())
    });
    assert!(checked > 0, "{name}: nothing checked");
    assert!(
        failures.is_empty(),
        "{name} (threads {threads}, hash {hash_mb} MB): {} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn hashed_counts_agree_on_every_suite() {
    for name in ["standard.epd", "suite.epd", "chess960.epd"] {
        check_suite(name, 1, 16);
    }
}

#[test]
fn threaded_counts_agree_on_every_suite() {
    for name in ["standard.epd", "suite.epd", "chess960.epd"] {
        check_suite(name, 2, 0);
    }
}

#[test]
fn threaded_and_hashed_counts_agree_on_every_suite() {
    for name in ["standard.epd", "suite.epd", "chess960.epd"] {
        check_suite(name, 3, 8);
    }
}

/// A one-bucket table forces constant replacement and collisions of the
/// bucket index, which the two keys must catch.
#[test]
fn a_tiny_table_still_counts_exactly() {
    let table = CountTable::new(0).unwrap();
    assert_eq!(table.entries(), 4); // one bucket of four entries
    let kiwipete =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    assert_eq!(count(&kiwipete, 4, 2, Some(&table)), 4_085_603);
}

#[test]
fn every_strategy_divides_the_same_with_threads_and_hash() {
    let pos = Position::from_fen("r3k2r/8/8/8/3pPp2/8/8/R3K1RR b KQkq e3 0 1").unwrap();
    let mut reference = None;
    for legality in ["legal", "pseudo", "king-capture"] {
        for make in ["unmake", "copy"] {
            for bulk in [true, false] {
                let table = CountTable::new(4).unwrap();
                let job = Divide {
                    position: &pos,
                    depth: 3,
                    table: Some(&table),
                    settings: Settings {
                        threads: 2,
                        bulk,
                        progress: &quiet,
                    },
                };
                let got = dispatch(legality, make, job).unwrap();
                let mut sorted = got.clone();
                sorted.sort_by_key(|&(mv, _)| pos.uci(mv));
                match &reference {
                    None => reference = Some(sorted),
                    Some(r) => assert_eq!(&sorted, r, "{legality} {make} bulk {bulk}"),
                }
            }
        }
    }
}

#[test]
fn threaded_and_hashed_statistics_equal_the_plain_ones() {
    let table = StatsTable::new(8).unwrap();
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        for depth in 1..=3 {
            let expected = perft_stats_by_name(&mut pos.clone(), depth, "legal", "unmake").unwrap();
            for (threads, table) in [(2, None), (1, Some(&table)), (2, Some(&table))] {
                let job = StatsJob {
                    position: &pos,
                    depth,
                    table,
                    settings: Settings {
                        threads,
                        bulk: false,
                        progress: &quiet,
                    },
                };
                let got = dispatch("legal", "unmake", job).unwrap();
                assert_eq!(got, expected, "{fen} depth {depth} threads {threads}");
            }
        }
    }
}

fn quince(args: &[&str], stdin: Option<&str>) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_quince"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("quince runs");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The unit lines of `quince perft split --fen FEN --depth DEPTH
/// --split-depth SPLIT_DEPTH`, which must succeed.
fn split_units(fen: &str, depth: u32, split_depth: u32) -> String {
    let (depth, split_depth) = (depth.to_string(), split_depth.to_string());
    let out = quince(
        &[
            "perft",
            "split",
            "--fen",
            fen,
            "--depth",
            &depth,
            "--split-depth",
            &split_depth,
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn cli_threads_and_hash_give_the_same_json_counts() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let plain = quince(
        &["perft", "--fen", fen, "--depth", "3", "--json", "--divide"],
        None,
    );
    let scaled = quince(
        &[
            "perft",
            "--fen",
            fen,
            "--depth",
            "3",
            "--json",
            "--divide",
            "--threads",
            "2",
            "--hash",
            "8",
        ],
        None,
    );
    assert!(scaled.status.success(), "{}", text(&scaled.stderr));
    let a: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    let b: serde_json::Value = serde_json::from_slice(&scaled.stdout).unwrap();
    assert_eq!(b["nodes"], 97862);
    assert_eq!(a["divide"], b["divide"]);
    assert_eq!(b["threads"], 2);
    assert_eq!(b["hash_mb"], 8);
    assert_eq!(a["threads"], 1);
    // Quiet under --json: nothing on stderr.
    assert!(scaled.stderr.is_empty(), "{}", text(&scaled.stderr));
}

#[test]
fn cli_split_work_merge_round_trip() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let units = split_units(fen, 4, 2);
    let lines: Vec<&str> = units.lines().collect();
    // 2039 paths at ply 2, fewer positions (transpositions merged).
    let paths: u64 = lines
        .iter()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["multiplicity"].as_u64())
        .map(Option::unwrap)
        .sum();
    assert_eq!(paths, 2039);
    assert!(lines.len() < 2039);

    // Work on two halves separately, as two machines would.
    let (a, b) = lines.split_at(lines.len() / 2);
    let work = |part: &[&str], extra: &[&str]| {
        let mut args = vec!["perft", "work", "-"];
        args.extend_from_slice(extra);
        let out = quince(&args, Some(&(part.join("\n") + "\n")));
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let results = work(a, &[]) + &work(b, &["--threads", "2", "--hash", "4"]);
    let units_file =
        std::env::temp_dir().join(format!("quince-units-{}.jsonl", std::process::id()));
    std::fs::write(&units_file, &units).unwrap();
    let units_path = units_file.to_str().unwrap();
    let merged = quince(
        &["perft", "merge", "-", "--units", units_path, "--json"],
        Some(&results),
    );
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    let value: serde_json::Value = serde_json::from_slice(&merged.stdout).unwrap();
    assert_eq!(value["nodes"], 4_085_603);
    assert_eq!(value["depth"], 4);

    // A missing unit and a duplicated unit are both refused.
    let result_lines: Vec<&str> = results.lines().collect();
    let missing = result_lines[1..].join("\n");
    let out = quince(&["perft", "merge", "-"], Some(&missing));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with("error: 1 of "),
        "{}",
        text(&out.stderr)
    );
    let twice = format!("{results}{}\n", result_lines[0]);
    let out = quince(&["perft", "merge", "-"], Some(&twice));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("appears twice"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_file(&units_file).ok();
}

/// `work --resume FILE`: an interrupted run (here: half the units done and
/// the last result line cut short) started again with the same command
/// counts only what is missing, and the file then merges to the exact total.
#[test]
fn cli_work_resume_goes_on_from_finished_units() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let units = split_units(fen, 4, 2);
    let lines: Vec<&str> = units.lines().collect();
    let dir = std::env::temp_dir().join(format!("quince-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let units_file = dir.join("units.jsonl");
    std::fs::write(&units_file, &units).unwrap();
    let half_file = dir.join("half.jsonl");
    std::fs::write(&half_file, lines[..lines.len() / 2].join("\n") + "\n").unwrap();
    let results_file = dir.join("results.jsonl");
    let (units_path, half_path, results_path) = (
        units_file.to_str().unwrap(),
        half_file.to_str().unwrap(),
        results_file.to_str().unwrap(),
    );

    // The first run stops after half the units; its last line is cut short.
    let first = quince(
        &["perft", "work", half_path, "--resume", results_path],
        None,
    );
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(
        first.stdout.is_empty(),
        "results go to the file, not stdout"
    );
    let written = std::fs::read_to_string(&results_file).unwrap();
    assert_eq!(written.lines().count(), lines.len() / 2);
    std::fs::write(&results_file, &written[..written.len() - 20]).unwrap();

    let again = quince(
        &["perft", "work", units_path, "--resume", results_path],
        None,
    );
    assert!(again.status.success(), "{}", text(&again.stderr));
    let note = text(&again.stderr);
    assert!(note.contains("unfinished"), "{note}");
    let skipped = lines.len() / 2 - 1;
    assert!(
        note.contains(&format!(
            "{skipped} of these {} units already counted",
            lines.len()
        )),
        "{note}"
    );
    let merged = quince(
        &[
            "perft",
            "merge",
            results_path,
            "--units",
            units_path,
            "--json",
        ],
        None,
    );
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    let value: serde_json::Value = serde_json::from_slice(&merged.stdout).unwrap();
    assert_eq!(value["nodes"], 4_085_603);

    // Nothing left: a third run counts nothing and leaves the file as is.
    let before = std::fs::read_to_string(&results_file).unwrap();
    let third = quince(
        &["perft", "work", units_path, "--resume", results_path],
        None,
    );
    assert!(third.status.success(), "{}", text(&third.stderr));
    assert_eq!(std::fs::read_to_string(&results_file).unwrap(), before);

    // The results of another split are refused, not mixed in.
    let other = split_units(fen, 3, 1);
    let out = quince(
        &["perft", "work", "-", "--resume", results_path],
        Some(&other),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("another split"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cli_split_work_merge_with_statistics() {
    let fen = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
    let units = split_units(fen, 3, 1);
    let results = quince(&["perft", "work", "-", "--stats"], Some(&units));
    assert!(results.status.success(), "{}", text(&results.stderr));
    let merged = quince(
        &["perft", "merge", "-", "--json"],
        Some(&text(&results.stdout)),
    );
    let value: serde_json::Value = serde_json::from_slice(&merged.stdout).unwrap();
    let expected =
        perft_stats_by_name(&mut Position::from_fen(fen).unwrap(), 3, "legal", "unmake").unwrap();
    assert_eq!(value["nodes"], expected.nodes);
    assert_eq!(value["stats"]["checkmates"], expected.checkmates);
    assert_eq!(value["stats"]["captures"], expected.captures);
    assert_eq!(value["stats"]["promotions"], expected.promotions);
}

#[test]
fn cli_bad_input_is_an_error_not_a_panic() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["perft", "split", "--depth", "3", "--split-depth", "3"],
            "",
        ),
        (
            &[
                "perft",
                "split",
                "--depth",
                "3",
                "--split-depth",
                "1",
                "--fen",
                "8/8 w",
            ],
            "",
        ),
        (&["perft", "work", "-"], "not json\n"),
        (&["perft", "work", "-"], "{\"unit\":0}\n"),
        (&["perft", "work", "/nonexistent/units"], ""),
        (
            &["perft", "work", "-", "--stats"],
            "{\"unit\":0,\"of\":1,\"fen\":\"8/8/8/8/8/8/8/K6k w - - 0 1\",\"depth\":0,\"multiplicity\":1}\n",
        ),
        (&["perft", "merge", "-"], ""),
        (
            &["perft", "merge", "-"],
            "{\"unit\":5,\"of\":2,\"split\":\"x\",\"nodes\":1,\"multiplicity\":1,\"total\":1}\n",
        ),
        (&["perft", "--depth", "3", "--threads", "99999"], ""),
        (
            &[
                "perft",
                "--depth",
                "2",
                "split",
                "--depth",
                "2",
                "--split-depth",
                "1",
            ],
            "",
        ),
        (&["perft", "--depth", "2", "--hash", "x"], ""),
    ];
    for (args, stdin) in cases {
        let out = quince(args, Some(stdin));
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).starts_with("error: "),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}
