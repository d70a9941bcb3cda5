//! Quince against the peer crates (cozy-chess, shakmaty, chess) at issue
//! 11's depths, side by side in one process: every round runs each engine
//! once per position, engines alternating, so a slow spell on a shared
//! machine hits all of them alike. Prints a Markdown table of median
//! Mnodes/s and Quince's ratio to the best peer, then the same ratio from
//! the fastest rounds and as a median of per-round ratios. The header
//! names the host CPU: the ratios differ between CPU generations (see
//! `reports/archive/speed-2026-11-23-evening.md`).
//!
//! ```sh
//! RUSTFLAGS='-C target-cpu=x86-64-v3' cargo run --release --no-default-features \
//!     --features pext,peers-pext --example versus -- --rounds 5
//! cargo run --release --example versus -- --full        # every leaf move made
//! ```
//!
//! Depths (bulk): start position 6, Kiwipete 5, position 3 7, position 4 6,
//! position 5 5, position 6 5, about 1.5 billion leaves per engine and
//! round. `--full` uses one ply less and repeats each run for at least
//! 0.5 s (`--min-time`). `--quick` two plies less (a smoke test).

#[path = "../benches/common/mod.rs"]
mod common;

use std::time::Instant;

use common::{Named, chess_board, chess_perft, cozy_board, cozy_perft, quince_board};
use common::{shakmaty_board, shakmaty_perft};

/// The positions of `benches/common` at issue 11's (deeper) depths.
const DEPTHS: [(&str, u32); 6] = [
    ("start", 6),
    ("kiwipete", 5),
    ("pos3", 7),
    ("pos4", 6),
    ("pos5", 5),
    ("pos6", 5),
];

const ENGINES: [&str; 4] = ["quince", "cozy-chess", "shakmaty", "chess"];

const USAGE: &str = "usage: versus [--rounds N] [--full] [--quick] [--min-time S]

Runs perft of Quince, cozy-chess, shakmaty and chess on the six standard
positions, engines alternating, and prints median Mnodes/s as Markdown.
  --rounds N   rounds to run (default 3); the median is reported
  --full       make every leaf move (one ply shallower; each measurement
               repeats the perft for at least 0.5 s unless --min-time says)
  --quick      two plies shallower (a smoke test)
  --min-time S repeat each engine's perft until S seconds have passed and
               report total nodes / total time (default 0: one run)";

struct Options {
    rounds: usize,
    bulk: bool,
    shallower: u32,
    min_time: Option<f64>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        rounds: 3,
        bulk: true,
        shallower: 0,
        min_time: None,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => {
                let value = args.next().ok_or("--rounds needs a number")?;
                options.rounds = value
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--rounds: not a positive number: {value}"))?;
            }
            "--min-time" => {
                let value = args.next().ok_or("--min-time needs seconds")?;
                options.min_time = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|&s: &f64| s >= 0.0 && s.is_finite())
                        .ok_or_else(|| format!("--min-time: not a number of seconds: {value}"))?,
                );
            }
            "--full" => options.bulk = false,
            "--quick" => options.shallower = 2,
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument: {other}\n\n{USAGE}")),
        }
    }
    if !options.bulk {
        options.shallower = options.shallower.max(1);
        // Full-make runs one ply shallower last tens of milliseconds, too
        // short to time on a shared machine: repeat them.
        options.min_time.get_or_insert(0.5);
    }
    Ok(options)
}

/// Runs `engine`'s perft on `named` at `depth`, again and again until
/// `min_time` seconds have passed (at least once); returns nodes per second.
fn run(engine: &str, named: &Named, depth: u32, bulk: bool, min_time: f64) -> f64 {
    let start = Instant::now();
    let mut total = 0u64;
    loop {
        let nodes = match engine {
            "quince" => quince::perft::count(&quince_board(&named.fen), depth, bulk),
            "cozy-chess" => cozy_perft(&cozy_board(&named.fen).expect("FEN"), depth, bulk),
            "shakmaty" => shakmaty_perft(&shakmaty_board(&named.fen).expect("FEN"), depth, bulk),
            _ => chess_perft(&chess_board(&named.fen).expect("FEN"), depth, bulk),
        };
        assert_eq!(
            nodes,
            named.nodes(depth),
            "{engine} perft({depth}) of {}",
            named.name
        );
        total += nodes;
        if start.elapsed().as_secs_f64() >= min_time {
            break;
        }
    }
    total as f64 / start.elapsed().as_secs_f64()
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    let positions: Vec<(Named, u32)> = common::standard()
        .into_iter()
        .map(|(named, _)| {
            let (_, depth) = DEPTHS
                .iter()
                .find(|(name, _)| *name == named.name)
                .expect("every standard position has a depth");
            (named, depth - options.shallower)
        })
        .collect();
    // rates[position][engine] = one Mnodes/s per round
    let mut rates = vec![vec![Vec::new(); ENGINES.len()]; positions.len()];
    for round in 1..=options.rounds {
        eprintln!("round {round}/{}", options.rounds);
        for (p, (named, depth)) in positions.iter().enumerate() {
            for (e, engine) in ENGINES.iter().enumerate() {
                let rate = run(
                    engine,
                    named,
                    *depth,
                    options.bulk,
                    options.min_time.unwrap_or(0.0),
                ) / 1e6;
                eprintln!(
                    "  {:<8} d{depth} {engine:<10} {rate:8.1} Mnodes/s",
                    named.name
                );
                rates[p][e].push(rate);
            }
        }
    }
    let kind = if options.bulk { "bulk" } else { "full make" };
    if options.shallower == 2 {
        println!(
            "(--quick: counts checked; the depths are too small for the rates to mean much)\n"
        );
    }
    println!(
        "Perft ({kind}), median Mnodes/s over {} alternating rounds, slider backend `{}`",
        options.rounds,
        quince::sliders::ACTIVE
    );
    println!("Host CPU: {}\n", common::host_cpu());
    println!(
        "| position | depth | quince | cozy-chess | shakmaty | chess | quince / best peer | quince / cozy-chess |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (p, (named, depth)) in positions.iter().enumerate() {
        let medians: Vec<f64> = rates[p].iter_mut().map(|r| median(r)).collect();
        let best_peer = medians[1..].iter().copied().fold(0.0, f64::max);
        println!(
            "| {} | {depth} | {:.0} | {:.0} | {:.0} | {:.0} | **{:.2}x** | {:.2}x |",
            named.name,
            medians[0],
            medians[1],
            medians[2],
            medians[3],
            medians[0] / best_peer,
            medians[0] / medians[1]
        );
    }
    print_paired(&positions, &rates);
}

/// Two steadier views of Quince's ratio to the best peer on a shared
/// machine, whose slow spells only ever slow a run down: the fastest round
/// of each engine against each other, and the median over rounds of the
/// ratio within the round (the engines of one round ran seconds apart).
fn print_paired(positions: &[(Named, u32)], rates: &[Vec<Vec<f64>>]) {
    println!("\nQuince / best peer, two more ways:\n");
    println!("| position | fastest round against fastest round | median of per-round ratios |");
    println!("| --- | ---: | ---: |");
    for (p, (named, _)) in positions.iter().enumerate() {
        let fastest = |e: usize| rates[p][e].iter().copied().fold(0.0, f64::max);
        let best_peer = (1..ENGINES.len()).map(fastest).fold(0.0, f64::max);
        let mut per_round: Vec<f64> = (0..rates[p][0].len())
            .map(|r| {
                let peer = (1..ENGINES.len())
                    .map(|e| rates[p][e][r])
                    .fold(0.0, f64::max);
                rates[p][0][r] / peer
            })
            .collect();
        println!(
            "| {} | {:.2}x | {:.2}x |",
            named.name,
            fastest(0) / best_peer,
            median(&mut per_round)
        );
    }
}
