//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod reference;

use quince::Position;
use quince::suite::{self, SuiteEntry};

/// A suite position as FEN text, and whether its file is read in Chess960 mode.
pub struct Start {
    pub fen: String,
    pub chess960: bool,
}

/// Every position of the three shared suites (`standard.epd`, `suite.epd`,
/// `chess960.epd`), in file order; those of `chess960.epd` are flagged Chess960.
pub fn suite_starts() -> Vec<Start> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
    let mut starts = Vec::new();
    for (file, chess960) in [
        ("standard.epd", false),
        ("suite.epd", false),
        ("chess960.epd", true),
    ] {
        let text = std::fs::read_to_string(format!("{dir}{file}")).expect("suite file is readable");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let fen = line.split(';').next().unwrap_or("").trim().to_string();
            starts.push(Start { fen, chess960 });
        }
    }
    assert!(
        starts.len() > 250,
        "expected the three suites, found {} positions",
        starts.len()
    );
    starts
}

/// Reads a suite from `tests/data/`.
pub fn load_suite(name: &str) -> Vec<SuiteEntry> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    suite::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Runs every (position, depth) with an expected count up to `max_nodes`
/// through `count`, and returns the mismatches as readable lines.
pub fn run_suite(
    entries: &[SuiteEntry],
    max_nodes: u64,
    count: impl Fn(&mut Position, u32) -> u64,
) -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut failures = Vec::new();
    for entry in entries {
        let mut pos = Position::from_fen(&entry.fen)
            .unwrap_or_else(|e| panic!("line {}: {e}: {}", entry.line, entry.fen));
        for &(depth, expected) in &entry.expected {
            if expected > max_nodes {
                continue;
            }
            let nodes = count(&mut pos, depth);
            checked += 1;
            if nodes != expected {
                failures.push(format!(
                    "line {} D{depth}: expected {expected}, got {nodes}: {}",
                    entry.line, entry.fen
                ));
            }
        }
    }
    (checked, failures)
}

/// A small deterministic PRNG (xorshift64*) for random games.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The piece-placement field of a FEN from 64 cells (a1 = 0 .. h8 = 63),
/// each a FEN piece letter or '.' for an empty square.
pub fn placement(cells: &[char]) -> String {
    let mut board = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match cells[rank * 8 + file] {
                '.' => empty += 1,
                c => {
                    if empty > 0 {
                        board.push_str(&empty.to_string());
                        empty = 0;
                    }
                    board.push(c);
                }
            }
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
        if rank > 0 {
            board.push('/');
        }
    }
    board
}
