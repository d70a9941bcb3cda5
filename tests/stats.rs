//! `--stats` against every row of the shared `stats.csv` (under a node
//! budget; `quince perft --stats` reproduces the deeper rows).

use quince::Position;
use quince::perft::stats::{Stats, perft_stats_by_name};

const BUDGET: u64 = if cfg!(debug_assertions) {
    50_000
} else {
    5_000_000
};

struct Row {
    name: String,
    fen: String,
    depth: u32,
    expected: Stats,
}

fn rows() -> Vec<Row> {
    let path = format!("{}/tests/data/stats.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            let n = |i: usize| f[i].parse::<u64>().unwrap();
            Row {
                name: f[0].to_string(),
                fen: f[1].to_string(),
                depth: f[2].parse().unwrap(),
                expected: Stats {
                    nodes: n(3),
                    captures: n(4),
                    en_passant: n(5),
                    castles: n(6),
                    promotions: n(7),
                    checks: n(8),
                    discovery_checks: n(9),
                    double_checks: n(10),
                    checkmates: n(11),
                },
            }
        })
        .collect()
}

fn check(strategy: &str, make: &str, budget: u64) {
    let all = rows();
    assert_eq!(all.len(), 40);
    let mut checked = 0;
    for row in all.iter().filter(|r| r.expected.nodes <= budget) {
        let mut pos = Position::from_fen(&row.fen).unwrap();
        let got = perft_stats_by_name(&mut pos, row.depth, strategy, make).unwrap();
        assert_eq!(
            got, row.expected,
            "{strategy}/{make} {} depth {}",
            row.name, row.depth
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} rows checked");
}

#[test]
fn legal_unmake_matches_stats_csv() {
    check("legal", "unmake", BUDGET);
}

#[test]
fn pseudo_copy_matches_stats_csv() {
    check("pseudo", "copy", BUDGET / 5);
}

#[test]
fn king_capture_matches_stats_csv() {
    check("king-capture", "unmake", BUDGET / 20);
}
