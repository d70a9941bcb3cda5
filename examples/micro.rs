//! Move generation alone and make alone, Quince against the peer crates
//! (cozy-chess, shakmaty, chess), in alternating rounds: the micro-benchmark
//! counterpart of `examples/versus.rs`.
//!
//! Why not criterion's `movegen/` and `make/` groups: they run one engine
//! for seconds, then the next, so a slow spell of a shared machine lands on
//! one engine only; three runs minutes apart on one host gave Quince 0.89x,
//! 2.0x and 1.2x cozy-chess in move generation (issue 27). Here every
//! round times each engine once for about `--slice` milliseconds, in an
//! order that rotates from round to round, and the ratio is taken within
//! each round (engines milliseconds apart) before the median over rounds.
//!
//! ```sh
//! RUSTFLAGS='-C target-cpu=x86-64-v3' cargo run --release --no-default-features \
//!     --features pext,peers-pext --example micro -- --rounds 31
//! ```
//!
//! Workloads, on the ~40 varied positions of `benches/common` (the same
//! set and the same per-engine code as the criterion and gungraun benches,
//! whose `instructions` bench gives the deterministic counterpart):
//! * `movegen`: every legal move of every position, each move handed out
//!   (not only counted);
//! * `make`: copy-make of every legal move of every position (the child
//!   made from a copy of the parent, one field of it read);
//! * `make + key`: the same, with shakmaty also bringing its Zobrist key
//!   up to date (`update_zobrist_hash`). Quince, cozy-chess and chess keep
//!   a key in every make, shakmaty's `Chess` has none, so `make` compares
//!   unequal work and this row the work an engine with a transposition
//!   table needs; the other engines run the same code in both rows.

#[path = "../benches/common/mod.rs"]
mod common;

use std::time::Instant;

use common::{
    chess_board, chess_copy_make, chess_movegen, chess_moves, cozy_board, cozy_copy_make,
    cozy_movegen, cozy_moves, quince_board, quince_copy_make, quince_movegen, quince_moves,
    shakmaty_board, shakmaty_copy_make, shakmaty_copy_make_keyed, shakmaty_keys, shakmaty_movegen,
    shakmaty_moves, varied_fens,
};

const ENGINES: [&str; 4] = ["quince", "cozy-chess", "shakmaty", "chess"];
const WORKLOADS: [&str; 3] = ["movegen", "make", "make + key"];

const USAGE: &str = "usage: micro [--rounds N] [--slice MS]

Times move generation alone, copy-make alone, and copy-make with a Zobrist
key (shakmaty's key updated too; the others keep one anyway) for Quince, cozy-chess,
shakmaty and chess on about 40 varied positions, engines alternating
within each round, and prints ns per move and Quince's ratio to the best
peer (median over rounds of the within-round ratio) as Markdown.
  --rounds N   rounds to run (default 21)
  --slice MS   milliseconds each engine runs per round (default 20)
  --once N     no timing: run every engine's function N times (for callgrind;
               tools/micro-instructions.sh prints instructions per move)
  --json       print one JSON object per workload and engine (median million
               moves per second, and Quince's per-round ratio to the best
               peer), as `cargo run -p xtask -- report` reads them";

/// Every engine's data, parsed once.
struct Set {
    quince: Vec<quince::Position>,
    cozy: Vec<cozy_chess::Board>,
    shakmaty: Vec<shakmaty::Chess>,
    chess: Vec<chess::Board>,
    quince_moves: Vec<Vec<quince::Move>>,
    cozy_moves: Vec<Vec<cozy_chess::Move>>,
    shakmaty_moves: Vec<Vec<shakmaty::Move>>,
    shakmaty_keys: Vec<shakmaty::zobrist::Zobrist64>,
    chess_moves: Vec<Vec<chess::ChessMove>>,
}

impl Set {
    fn new() -> Set {
        let fens = varied_fens();
        let quince: Vec<_> = fens.iter().map(|f| quince_board(f)).collect();
        let cozy: Vec<_> = fens.iter().filter_map(|f| cozy_board(f)).collect();
        let shakmaty: Vec<_> = fens.iter().filter_map(|f| shakmaty_board(f)).collect();
        let chess: Vec<_> = fens.iter().filter_map(|f| chess_board(f)).collect();
        Set {
            quince_moves: quince_moves(&quince),
            cozy_moves: cozy_moves(&cozy),
            shakmaty_moves: shakmaty_moves(&shakmaty),
            shakmaty_keys: shakmaty_keys(&shakmaty),
            chess_moves: chess_moves(&chess),
            quince,
            cozy,
            shakmaty,
            chess,
        }
    }

    /// Runs `workload` once for `engine`; returns the moves it handled
    /// (every engine must give the same number: checked at start-up).
    fn run(&self, workload: &str, engine: &str) -> u64 {
        match (workload, engine) {
            ("movegen", "quince") => self.quince_movegen(),
            ("movegen", "cozy-chess") => self.cozy_movegen(),
            ("movegen", "shakmaty") => self.shakmaty_movegen(),
            ("movegen", _) => self.chess_movegen(),
            (_, "quince") => self.quince_make(),
            (_, "cozy-chess") => self.cozy_make(),
            ("make", "shakmaty") => self.shakmaty_make(),
            (_, "shakmaty") => self.shakmaty_make_keyed(),
            _ => self.chess_make(),
        }
    }

    // One function per engine and workload, kept out of line so that
    // callgrind reports each under its own name (`--once`, and
    // `tools/micro-instructions.sh`, which turns them into instructions
    // per move).

    #[inline(never)]
    fn quince_movegen(&self) -> u64 {
        quince_movegen(&self.quince)
    }

    #[inline(never)]
    fn cozy_movegen(&self) -> u64 {
        cozy_movegen(&self.cozy)
    }

    #[inline(never)]
    fn shakmaty_movegen(&self) -> u64 {
        shakmaty_movegen(&self.shakmaty)
    }

    #[inline(never)]
    fn chess_movegen(&self) -> u64 {
        chess_movegen(&self.chess)
    }

    #[inline(never)]
    fn quince_make(&self) -> u64 {
        std::hint::black_box(quince_copy_make(&self.quince, &self.quince_moves));
        total(&self.quince_moves)
    }

    #[inline(never)]
    fn cozy_make(&self) -> u64 {
        std::hint::black_box(cozy_copy_make(&self.cozy, &self.cozy_moves));
        total(&self.cozy_moves)
    }

    #[inline(never)]
    fn shakmaty_make(&self) -> u64 {
        std::hint::black_box(shakmaty_copy_make(&self.shakmaty, &self.shakmaty_moves));
        total(&self.shakmaty_moves)
    }

    #[inline(never)]
    fn shakmaty_make_keyed(&self) -> u64 {
        std::hint::black_box(shakmaty_copy_make_keyed(
            &self.shakmaty,
            &self.shakmaty_keys,
            &self.shakmaty_moves,
        ));
        total(&self.shakmaty_moves)
    }

    #[inline(never)]
    fn chess_make(&self) -> u64 {
        std::hint::black_box(chess_copy_make(&self.chess, &self.chess_moves));
        total(&self.chess_moves)
    }
}

/// The number of moves in `lists`.
fn total<T>(lists: &[Vec<T>]) -> u64 {
    lists.iter().map(|list| list.len() as u64).sum()
}

/// What the command line asks for.
struct Options {
    rounds: usize,
    slice_ms: f64,
    /// Untimed passes for callgrind instead of timed rounds.
    once: Option<u32>,
    /// JSON lines for the lab's report instead of Markdown.
    json: bool,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let (mut rounds, mut slice_ms, mut once, mut json) = (21usize, 20.0f64, None, false);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => {
                let value = args.next().ok_or("--rounds needs a number")?;
                rounds = value
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--rounds: not a positive number: {value}"))?;
            }
            "--slice" => {
                let value = args.next().ok_or("--slice needs milliseconds")?;
                slice_ms = value
                    .parse()
                    .ok()
                    .filter(|&ms: &f64| ms > 0.0 && ms.is_finite())
                    .ok_or_else(|| format!("--slice: not a positive number: {value}"))?;
            }
            "--once" => {
                let value = args.next().ok_or("--once needs a number of passes")?;
                once = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|&n: &u32| n > 0)
                        .ok_or_else(|| format!("--once: not a positive number: {value}"))?,
                );
            }
            "--json" => json = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument: {other}\n\n{USAGE}")),
        }
    }
    Ok(Options {
        rounds,
        slice_ms,
        once,
        json,
    })
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Options {
        rounds,
        slice_ms,
        once,
        json,
    } = match parse(&args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    let set = Set::new();
    if let Some(passes) = once {
        // For callgrind: every engine's function `passes` times, untimed;
        // the moves of one pass are printed to divide by.
        // `make + key` differs from `make` only for shakmaty, so only its
        // function runs again: each function runs exactly `passes` times.
        for workload in WORKLOADS {
            let mut moves = None;
            for engine in ENGINES {
                if workload == "make + key" && engine != "shakmaty" {
                    continue;
                }
                for _ in 0..passes {
                    let n = set.run(workload, engine);
                    assert_eq!(*moves.get_or_insert(n), n, "{engine} {workload}");
                }
            }
            println!(
                "{workload}: {} moves per pass, {passes} passes",
                moves.unwrap_or(0)
            );
        }
        return;
    }
    // Repetitions per slice, per workload and engine, so each slice lasts
    // about `slice_ms`: calibrated on a first timed run of each.
    let mut reps = [[1u32; ENGINES.len()]; WORKLOADS.len()];
    for (w, workload) in WORKLOADS.iter().enumerate() {
        let expected = set.run(workload, "quince");
        for (e, engine) in ENGINES.iter().enumerate() {
            let moves = set.run(workload, engine);
            assert_eq!(moves, expected, "{engine} {workload}: moves disagree");
            let start = Instant::now();
            set.run(workload, engine);
            let once = start.elapsed().as_secs_f64().max(1e-7);
            reps[w][e] = ((slice_ms / 1e3 / once).ceil() as u32).max(1);
        }
    }
    // ns[workload][engine] = ns per move, one per round
    let mut ns = vec![vec![Vec::with_capacity(rounds); ENGINES.len()]; WORKLOADS.len()];
    for round in 0..rounds {
        eprint!("\rround {}/{rounds}", round + 1);
        for (w, workload) in WORKLOADS.iter().enumerate() {
            for k in 0..ENGINES.len() {
                // Rotate the order, so no engine always runs first (or
                // always right after the same one).
                let e = (k + round) % ENGINES.len();
                let start = Instant::now();
                let mut moves = 0;
                for _ in 0..reps[w][e] {
                    moves += set.run(workload, ENGINES[e]);
                }
                ns[w][e].push(start.elapsed().as_secs_f64() * 1e9 / moves as f64);
            }
        }
    }
    eprintln!();
    // Per workload: each engine's median ns per move, and Quince's ratio to
    // the best peer (or to one peer) as the median of per-round ratios;
    // above 1, Quince takes less time per move.
    let per_round = |w: usize, peer: Option<usize>| {
        let mut ratios: Vec<f64> = (0..rounds)
            .map(|r| {
                let best = match peer {
                    Some(p) => ns[w][p][r],
                    None => (1..ENGINES.len())
                        .map(|p| ns[w][p][r])
                        .fold(f64::INFINITY, f64::min),
                };
                best / ns[w][0][r]
            })
            .collect();
        median(&mut ratios)
    };
    let medians: Vec<Vec<f64>> = ns
        .iter()
        .map(|w| w.iter().map(|v| median(&mut v.clone())).collect())
        .collect();
    if json {
        for (w, workload) in WORKLOADS.iter().enumerate() {
            for (e, engine) in ENGINES.iter().enumerate() {
                let ratio = if e == 0 {
                    format!(
                        ",\"per_round_ratio_to_best_peer\":{:.3}",
                        per_round(w, None)
                    )
                } else {
                    String::new()
                };
                println!(
                    "{{\"workload\":\"{workload}\",\"engine\":\"{engine}\",\"ns_per_move\":{:.3},\"mmoves_per_s\":{:.1},\"rounds\":{rounds}{ratio}}}",
                    medians[w][e],
                    1e3 / medians[w][e]
                );
            }
        }
        return;
    }
    println!(
        "Move generation and make alone: ns per move, median of {rounds} alternating rounds \
         ({slice_ms} ms per engine and round), slider backend `{}`",
        quince::sliders::ACTIVE
    );
    println!("Host CPU: {}\n", common::host_cpu());
    println!(
        "| workload | quince | cozy-chess | shakmaty | chess | quince / best peer (per-round median) | quince / cozy-chess | quince / shakmaty |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (w, workload) in WORKLOADS.iter().enumerate() {
        let m = &medians[w];
        println!(
            "| {workload} | {:.2} | {:.2} | {:.2} | {:.2} | **{:.2}x** | {:.2}x | {:.2}x |",
            m[0],
            m[1],
            m[2],
            m[3],
            per_round(w, None),
            per_round(w, Some(1)),
            per_round(w, Some(2)),
        );
    }
}
