//! `quince perft`: one position, one depth (or the statistics table).

use crate::{PerftArgs, UserError, mnps};
use quince::Position;
use quince::perft::stats::{Stats, markdown_table, perft_stats_by_name};
use quince::perft::strategy::divide_by_name;
use quince::position::STARTPOS_FEN;
use quince::sliders::ACTIVE;
use serde_json::{Value, json};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;

pub fn run(args: &PerftArgs) -> Result<ExitCode, UserError> {
    let fen = args.fen.as_deref().unwrap_or(STARTPOS_FEN);
    let mut pos = Position::from_fen_with(fen, args.chess960)
        .map_err(|e| UserError(format!("invalid FEN '{fen}': {e}")))?;
    for text in &args.moves {
        let mv = pos.parse_uci(text)?;
        pos.make(mv);
    }
    if args.stats {
        return run_stats(args, &mut pos);
    }
    let bulk = !args.no_bulk;
    let progress = !args.json && std::io::stderr().is_terminal() && args.depth >= 6;
    let start = Instant::now();
    let mut report = |done: usize, total: usize, nodes: u64| {
        if progress {
            let elapsed = start.elapsed().as_secs_f64();
            let left = elapsed / done as f64 * (total - done) as f64;
            eprint!(
                "\r{done}/{total} root moves, {nodes} nodes, {:.1} Mnodes/s, ~{left:.0} s left   ",
                mnps(nodes, elapsed)
            );
        }
    };
    let divide = divide_by_name(
        &mut pos,
        args.depth,
        bulk,
        &args.legality,
        &args.make,
        &mut report,
    )
    .ok_or_else(|| {
        UserError(format!(
            "unknown legality '{}' or make '{}'",
            args.legality, args.make
        ))
    })?;
    if progress {
        eprint!("\r{:78}\r", "");
    }
    let nodes: u64 = if args.depth == 0 {
        1
    } else {
        divide.iter().map(|(_, n)| n).sum()
    };
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        let mut object = base_json(args, &pos, nodes, seconds, bulk);
        if args.divide {
            object["divide"] = divide
                .iter()
                .map(|(mv, n)| json!({"move": pos.uci(*mv), "nodes": n}))
                .collect();
        }
        println!("{object}");
    } else {
        if args.divide {
            for (mv, n) in &divide {
                println!("{}: {n}", pos.uci(*mv));
            }
            println!();
        }
        println!(
            "perft {} = {nodes}  ({seconds:.3} s, {:.1} Mnodes/s, slider {ACTIVE}, legality {}, make {}, {})",
            args.depth,
            mnps(nodes, seconds),
            args.legality,
            args.make,
            if bulk { "bulk" } else { "no-bulk" }
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn base_json(args: &PerftArgs, pos: &Position, nodes: u64, seconds: f64, bulk: bool) -> Value {
    let nps = nodes as f64 / seconds.max(1e-9);
    json!({
        "fen": pos.fen(),
        "depth": args.depth,
        "nodes": nodes,
        "seconds": seconds,
        "nps": nps.round() as u64,
        "mnps": (mnps(nodes, seconds) * 100.0).round() / 100.0,
        "slider": ACTIVE,
        "bulk": bulk,
        "legality": args.legality,
        "make": args.make,
    })
}

fn stats_json(stats: &Stats) -> Value {
    json!({
        "nodes": stats.nodes,
        "captures": stats.captures,
        "en_passant": stats.en_passant,
        "castles": stats.castles,
        "promotions": stats.promotions,
        "checks": stats.checks,
        "discovery_checks": stats.discovery_checks,
        "double_checks": stats.double_checks,
        "checkmates": stats.checkmates,
    })
}

/// `--stats`: the table for depths 1..=N (every leaf move is made).
fn run_stats(args: &PerftArgs, pos: &mut Position) -> Result<ExitCode, UserError> {
    let start = Instant::now();
    let mut rows = Vec::new();
    for depth in 1..=args.depth {
        let stats = perft_stats_by_name(pos, depth, &args.legality, &args.make)
            .ok_or_else(|| UserError(format!("unknown legality '{}'", args.legality)))?;
        if !args.json && std::io::stderr().is_terminal() {
            eprint!(
                "\rdepth {depth} done, {:.1} s   ",
                start.elapsed().as_secs_f64()
            );
        }
        rows.push((depth, stats));
    }
    let seconds = start.elapsed().as_secs_f64();
    let last = rows.last().map(|(_, s)| *s).unwrap_or(Stats {
        nodes: 1,
        ..Stats::default()
    });
    if args.json {
        let mut object = base_json(args, pos, last.nodes, seconds, false);
        if let (Value::Object(map), Value::Object(extra)) = (&mut object, stats_json(&last)) {
            map.extend(extra);
        }
        object["table"] = rows
            .iter()
            .map(|(d, s)| {
                let mut row = stats_json(s);
                row["depth"] = json!(d);
                row
            })
            .collect();
        println!("{object}");
    } else {
        if std::io::stderr().is_terminal() {
            eprint!("\r{:40}\r", "");
        }
        print!("{}", markdown_table(&rows));
        println!(
            "\n{seconds:.3} s for depths 1..{} (slider {ACTIVE}, legality {}, make {})",
            args.depth, args.legality, args.make
        );
    }
    Ok(ExitCode::SUCCESS)
}
