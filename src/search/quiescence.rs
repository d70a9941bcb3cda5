//! Quiescence search: captures and promotions (all moves in check) until
//! the position is quiet.

use super::negamax::{Found, bound_of, cuts};
use super::*;

impl Searcher<'_> {
    /// Quiescence: only captures and promotions (all moves when in check),
    /// until the position is quiet, with the static evaluation as a
    /// stand-pat lower bound. Captures that lose material by SEE, and
    /// captures that cannot lift the score near alpha (delta pruning), are skipped.
    pub(super) fn quiescence(&mut self, mut alpha: Score, beta: Score, ply: usize) -> Score {
        self.pv_len[ply] = ply;
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if draw::insufficient_material(&self.pos) {
            return DRAW;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.evaluate() };
        }
        let key = self.pos.key();
        let entry = self.tt.probe(key, ply);
        let pv_node = beta - alpha > 1;
        if let Some(e) = entry
            && !pv_node
            && cuts(e.bound, e.score, alpha, beta)
        {
            return e.score;
        }
        let mut found = Found::NONE;
        let (raw_eval, stand_pat) = self.static_evals(entry, in_check);
        if !in_check {
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            found.score = stand_pat;
        }
        // In check every evasion; otherwise only captures and promotions
        // are generated: listing every move and keeping these cost 6 % more
        // instructions in `quince bench` (callgrind, same nodes).
        // Filled in place: a returned list is copied.
        let mut moves = MoveList::new();
        if in_check {
            fill_list(&self.pos, &mut moves);
        } else {
            generate_tactical_into(&self.pos, &mut moves);
        }
        if in_check && moves.is_empty() {
            return mated_in(ply);
        }
        let count = moves.len();
        for (i, &mv) in moves.iter().enumerate() {
            self.move_scores[ply][0][i] = mvv_lva(&self.pos, mv)
                + if mv.promotion() == Some(Piece::Queen) {
                    8000
                } else {
                    0
                };
        }
        let moves = moves.as_mut_slice();
        let original_alpha = alpha;
        for i in 0..count {
            pick(moves, &mut self.move_scores[ply][0][..count], i);
            let mv = moves[i];
            if !in_check {
                if mv.promotion().is_some_and(|p| p != Piece::Queen) {
                    continue;
                }
                let gain = captured(&self.pos, mv).map_or(0, |p| SEE_VALUE[p.index()]);
                if mv.promotion().is_none() && stand_pat + gain + params::qs_delta_margin() <= alpha
                {
                    continue;
                }
                if !see_at_least(&self.pos, mv, 0) {
                    continue;
                }
            }
            let undo = self.push(mv);
            let score = -self.quiescence(-beta, -alpha, ply + 1);
            self.pop(mv, undo);
            if self.stopped {
                return 0;
            }
            if self.take_score(ply, mv, score, &mut found, &mut alpha, beta) {
                break;
            }
        }
        let bound = bound_of(found.score, alpha, original_alpha, beta);
        let eval = if in_check { 0 } else { raw_eval };
        self.tt
            .store(key, ply, found.mv, found.score, eval, 0, bound);
        found.score
    }
}
