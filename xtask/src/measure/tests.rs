//! Tests of the paired protocol and of contenders' command lines.

use super::*;

#[test]
fn ratios_are_paired_round_by_round() {
    let w = |id: &str| Workload {
        id: id.into(),
        position: id.into(),
        fen: String::new(),
        kind: "bulk".into(),
        depth: 1,
        repeat: 1,
        nodes: 1,
    };
    let mut seconds = BTreeMap::new();
    let pair =
        |a: Vec<f64>, b: Vec<f64>| BTreeMap::from([("a".to_string(), a), ("b".to_string(), b)]);
    seconds.insert(
        "p".to_string(),
        pair(vec![1.0, 2.0, 1.0], vec![2.0, 4.0, 2.0]),
    );
    seconds.insert(
        "q".to_string(),
        pair(vec![1.0, 1.0, 1.0], vec![8.0, 8.0, 8.0]),
    );
    let t = Timings {
        rounds: 3,
        min_seconds: 0.5,
        order: String::new(),
        workloads: vec![w("p"), w("q")],
        seconds,
        failures: Vec::new(),
    };
    // A slow round (2 s against 4 s) is still a ratio of 2.
    assert_eq!(t.ratio("p", "a", "b").unwrap().rounds, vec![2.0, 2.0, 2.0]);
    let g = t.geomean_ratio("bulk", "a", "b").unwrap();
    assert!((g.interval.median - 4.0).abs() < 1e-12 && !g.tie);
    assert!(t.ratio("p", "a", "missing").is_none());
}

#[test]
fn commands_fill_the_placeholders() {
    let c = Contender {
        name: "x".into(),
        argv: vec![
            "echo".into(),
            "{fen}".into(),
            "{depth}".into(),
            "{repeat}".into(),
        ],
        cwd: None,
        sha256: String::new(),
        version: String::new(),
    };
    let w = Workload {
        id: "p".into(),
        position: "p".into(),
        fen: "8/8 w".into(),
        kind: "bulk".into(),
        depth: 3,
        repeat: 2,
        nodes: 5,
    };
    assert_eq!(c.command_line(&w), "echo '8/8 w' 3 2");
    // echo prints no leaf count: the run is refused.
    assert!(c.run(&w).is_err());
}

#[test]
fn a_program_without_repeat_runs_again_as_whole_processes() {
    // A shell that appends a line to a file and prints the leaf count:
    // the number of lines says how many processes ran.
    let dir = std::env::temp_dir().join(format!("quince-measure-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("runs");
    let _ = std::fs::remove_file(&log);
    let script = format!("echo run >> '{}'; echo 42", log.display());
    let c = Contender {
        name: "peer".into(),
        argv: vec!["sh".into(), "-c".into(), script, "{depth}".into()],
        cwd: None,
        sha256: String::new(),
        version: String::new(),
    };
    assert!(!c.repeats_in_process());
    let w = Workload {
        id: "p-bulk-d2x3".into(),
        position: "p".into(),
        fen: String::new(),
        kind: "bulk".into(),
        depth: 2,
        repeat: 3,
        nodes: 42,
    };
    let seconds = c.run(&w).unwrap();
    assert!(seconds > 0.0);
    let runs = std::fs::read_to_string(&log).unwrap();
    assert_eq!(runs.lines().count(), 3, "three whole processes");
    // A program that takes {repeat} is run once and repeats by itself.
    let in_process = Contender {
        argv: vec!["echo".into(), "42".into(), "{repeat}".into()],
        ..c.clone()
    };
    assert!(in_process.repeats_in_process());
    assert!(in_process.run(&w).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}
