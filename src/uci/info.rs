//! Formatting `info` lines and moves for the GUI.

use crate::movegen::legal_moves;
use crate::position::Position;
use crate::search::Report;
use crate::search::score::mate_moves;
use crate::search::tt::Bound;
use crate::types::Move;

/// `move move ...` in UCI notation (Chess960 style if the position is),
/// stopping at the first move that is not legal in the line's position.
pub fn line_text(root: &Position, moves: &[Move]) -> String {
    let mut pos = root.clone();
    let mut words = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !legal_moves(&pos).contains(&mv) {
            break;
        }
        words.push(pos.uci(mv));
        pos.make(mv);
    }
    words.join(" ")
}

/// `score cp N` or `score mate N`, with `lowerbound`/`upperbound` for bounds.
pub fn score_text(score: i32, bound: Option<Bound>) -> String {
    let mut text = match mate_moves(score) {
        Some(moves) => format!("score mate {moves}"),
        None => format!("score cp {score}"),
    };
    match bound {
        Some(Bound::Lower) => text.push_str(" lowerbound"),
        Some(Bound::Upper) => text.push_str(" upperbound"),
        Some(Bound::Exact) | None => {}
    }
    text
}

/// The full `info depth ...` line of a search report; with `show_wdl`
/// (`UCI_ShowWDL`), the score's win, draw and loss chances after it
/// (`wdl W D L`, per mille, [`crate::search::wdl`]).
pub fn report_text(root: &Position, report: &Report, show_wdl: bool) -> String {
    let millis = report.elapsed.as_millis() as u64;
    let nps = report
        .nodes
        .saturating_mul(1000)
        .checked_div(millis)
        .unwrap_or(0);
    let mut score = score_text(report.score, report.bound);
    if show_wdl {
        let [w, d, l] = crate::search::wdl::MODEL.per_mille(report.score, root);
        score.push_str(&format!(" wdl {w} {d} {l}"));
    }
    let mut text = format!(
        "info depth {} seldepth {} multipv {} {} nodes {} nps {} hashfull {} time {}",
        report.depth,
        report.seldepth,
        report.multi_pv,
        score,
        report.nodes,
        nps,
        report.hashfull,
        millis
    );
    if report.tb_hits > 0 {
        text.push_str(&format!(" tbhits {}", report.tb_hits));
    }
    let pv = line_text(root, &report.pv);
    if !pv.is_empty() {
        text.push_str(" pv ");
        text.push_str(&pv);
    }
    text
}

/// `bestmove X [ponder Y]`; `bestmove 0000` without a legal move.
pub fn bestmove_text(root: &Position, best: Move, ponder: Option<Move>) -> String {
    if best == Move::NULL {
        return "bestmove 0000".to_string();
    }
    let mut text = format!("bestmove {}", root.uci(best));
    if let Some(reply) = ponder {
        let after = root.play_unchecked(best);
        if legal_moves(&after).contains(&reply) {
            text.push_str(&format!(" ponder {}", after.uci(reply)));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn scores_and_lines() {
        assert_eq!(score_text(35, None), "score cp 35");
        assert_eq!(
            score_text(MATE - 3, Some(Bound::Lower)),
            "score mate 2 lowerbound"
        );
        assert_eq!(
            score_text(-MATE + 2, Some(Bound::Upper)),
            "score mate -1 upperbound"
        );
        let pos = Position::startpos();
        let e4 = pos.parse_uci("e2e4").unwrap();
        let e5 = pos.play_unchecked(e4).parse_uci("e7e5").unwrap();
        assert_eq!(line_text(&pos, &[e4, e5, e5]), "e2e4 e7e5");
        assert_eq!(
            bestmove_text(&pos, e4, Some(e5)),
            "bestmove e2e4 ponder e7e5"
        );
        assert_eq!(bestmove_text(&pos, e4, Some(e4)), "bestmove e2e4");
        assert_eq!(bestmove_text(&pos, Move::NULL, None), "bestmove 0000");
    }
}
