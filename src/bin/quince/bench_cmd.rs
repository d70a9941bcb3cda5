//! `quince bench`: a fixed set of positions searched to a fixed depth, as
//! Stockfish's `bench`. The total node count is a signature of the search:
//! it changes exactly when search or evaluation behaviour changes (searches
//! with a depth limit are deterministic), and nodes/s measure speed.
//!
//! `--threads N` runs the same positions with Lazy SMP on N threads, for
//! the nodes-per-second curve over thread counts. The node count is then
//! no signature: threads race, so it differs from run to run.

use crate::UserError;
use clap::Args;
use quince::Position;
use quince::search::limits::{Limits, Signals};
use quince::search::tt::TranspositionTable;
use quince::search::{self, score::mate_moves};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth in plies for every position.
    #[arg(long, short, default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Search threads (Lazy SMP). Above 1 the node count is no longer a
    /// signature (threads race); nodes/s count every thread.
    #[arg(long, short, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=search::MAX_THREADS as i64))]
    pub threads: u32,
}

const DEFAULT_DEPTH: u32 = 12;
const HASH_MB: usize = 16;

/// Opening, middlegame and endgame positions, including the usual perft
/// test positions and a few with checks, promotions and a mate.
const POSITIONS: [&str; 12] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "2r2rk1/pp3ppp/2n1bq2/3p4/3P4/2NB1N2/PP3PPP/R2Q1RK1 w - - 0 15",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/5pk1/6p1/8/3B4/1P6/r4PPK/4R3 b - - 0 40",
    "4r1k1/1q3ppp/8/8/8/8/5PPP/1Q2R1K1 w - - 0 1",
];

pub fn run(args: &BenchArgs) -> Result<ExitCode, UserError> {
    let mut tt = TranspositionTable::new(HASH_MB)
        .ok_or_else(|| UserError("cannot allocate the hash table".into()))?;
    let signals = Signals::default();
    let limits = Limits::depth(args.depth as i32);
    let start = Instant::now();
    let mut total = 0u64;
    for (index, fen) in POSITIONS.iter().enumerate() {
        let pos =
            Position::from_fen(fen).map_err(|e| UserError(format!("bench position {fen}: {e}")))?;
        tt.clear();
        let threads = args.threads as usize;
        let outcome =
            search::search_threads(&pos, &[], &mut tt, &limits, &signals, threads, &mut |_| {});
        total += outcome.nodes;
        let score = match mate_moves(outcome.score) {
            Some(moves) => format!("mate {moves}"),
            None => format!("cp {}", outcome.score),
        };
        println!(
            "Position {:>2}/{}: bestmove {:<6} {:<10} nodes {}",
            index + 1,
            POSITIONS.len(),
            pos.uci(outcome.best),
            score,
            outcome.nodes
        );
    }
    let millis = start.elapsed().as_millis().max(1) as u64;
    println!("===========================");
    println!("Depth           : {}", args.depth);
    if args.threads > 1 {
        println!("Threads         : {}", args.threads);
    }
    println!("Total time (ms) : {millis}");
    println!("Nodes searched  : {total}");
    println!("Nodes/second    : {}", total * 1000 / millis);
    Ok(ExitCode::SUCCESS)
}
