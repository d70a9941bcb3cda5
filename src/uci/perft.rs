//! `go perft N` in the UCI engine: Stockfish's divide format (one line
//! per root move, then `Nodes searched`), run on the engine's worker
//! thread and stoppable, unlike the core's perft, so that `stop`, `quit`
//! and `isready` are answered during a deep one.

use super::Output;
use crate::movegen::legal_moves;
use crate::position::Position;
use crate::search::limits::Signals;

/// The body of the perft thread: one line per root move as it finishes.
pub(super) fn run_perft(mut position: Position, depth: u32, signals: &Signals, out: &Output) {
    let mut total = 0;
    if depth == 0 {
        total = 1;
    }
    for mv in legal_moves(&position).iter().copied() {
        if depth == 0 {
            break;
        }
        let undo = position.make(mv);
        let nodes = stoppable_perft(&mut position, depth - 1, signals);
        position.unmake(mv, undo);
        let Some(nodes) = nodes else {
            out.line("info string perft stopped");
            break;
        };
        total += nodes;
        out.line(&format!("{}: {nodes}", position.uci(mv)));
    }
    out.line(&format!("\nNodes searched: {total}\n"));
}

/// Leaf count below `position` (bulk-counted last ply), or `None` once
/// `stop` is seen: the core's perft has no stop check, and a deep perft
/// must not keep `stop` or `quit` waiting.
fn stoppable_perft(position: &mut Position, depth: u32, signals: &Signals) -> Option<u64> {
    match depth {
        0 => return Some(1),
        1 => return Some(crate::movegen::count_legal(position)),
        _ => {}
    }
    if signals.stopped() {
        return None;
    }
    let mut total = 0;
    for mv in legal_moves(position).iter().copied() {
        let undo = position.make(mv);
        let nodes = stoppable_perft(position, depth - 1, signals);
        position.unmake(mv, undo);
        total += nodes?;
    }
    Some(total)
}
