//! `quince perft`: one position, one depth.

use crate::{PerftArgs, UserError, mnps};
use quince::perft;
use quince::position::STARTPOS_FEN;
use quince::sliders::ACTIVE;
use quince::{Move, Position};
use serde_json::json;
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
    let bulk = !args.no_bulk;
    let progress = !args.json && std::io::stderr().is_terminal() && args.depth >= 6;
    let start = Instant::now();
    let (nodes, divide) = if args.divide || progress {
        let per_move = divide_with_progress(&mut pos, args.depth, bulk, progress);
        (per_move.iter().map(|(_, n)| n).sum(), per_move)
    } else {
        (perft::count(&mut pos, args.depth, bulk), Vec::new())
    };
    let seconds = start.elapsed().as_secs_f64();
    let nps = nodes as f64 / seconds.max(1e-9);
    if args.json {
        let mut object = json!({
            "fen": pos.fen(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": seconds,
            "nps": nps.round() as u64,
            "mnps": (mnps(nodes, seconds) * 100.0).round() / 100.0,
            "slider": ACTIVE,
            "bulk": bulk,
            "legality": "legal",
        });
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
            "perft {} = {nodes}  ({:.3} s, {:.1} Mnodes/s, slider {ACTIVE}, {})",
            args.depth,
            seconds,
            mnps(nodes, seconds),
            if bulk { "bulk" } else { "no-bulk" }
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Divide, reporting root moves done on stderr when `progress` is set.
fn divide_with_progress(pos: &mut Position, depth: u32, bulk: bool, progress: bool) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = quince::movegen::legal_moves(pos);
    let start = Instant::now();
    let mut total = 0u64;
    let mut out = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let undo = pos.make(mv);
        let n = perft::count(pos, depth - 1, bulk);
        pos.unmake(mv, undo);
        total += n;
        out.push((mv, n));
        if progress {
            let elapsed = start.elapsed().as_secs_f64();
            let left = elapsed / (i + 1) as f64 * (moves.len() - i - 1) as f64;
            eprint!(
                "\r{}/{} root moves, {total} nodes, {:.1} Mnodes/s, ~{left:.0} s left   ",
                i + 1,
                moves.len(),
                mnps(total, elapsed)
            );
        }
    }
    if progress {
        eprint!("\r{:78}\r", "");
    }
    out
}

