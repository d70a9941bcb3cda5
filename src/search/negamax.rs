//! The main search: principal-variation alpha-beta with its pruning,
//! extensions and reductions, and the bookkeeping of a node's best score,
//! PV and transposition-table bound.

use super::pruning::Singular;
use super::*;

impl Searcher<'_> {
    /// Principal-variation alpha-beta search of the current position.
    pub(super) fn negamax(
        &mut self,
        mut alpha: Score,
        mut beta: Score,
        depth: i32,
        ply: usize,
        allow_null: bool,
    ) -> Score {
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply);
        }
        self.pv_len[ply] = ply;
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        let in_check = self.pos.in_check();
        if self.is_draw(ply, in_check) {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.evaluate() };
        }
        // Mate-distance pruning: no line from here beats a mate already found closer to the root.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(MATE - ply as Score - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = self.pos.key();
        let excluded = self.excluded[ply];
        // A search without the hash move must not see the hash entry, which
        // is about the node with it.
        let entry = if excluded == Move::NULL {
            self.tt.probe(key, ply)
        } else {
            None
        };
        let tt_move = entry.map_or(Move::NULL, |e| e.mv);
        if let Some(e) = entry
            && !pv_node
            && e.depth >= depth
            && cuts(e.bound, e.score, alpha, beta)
        {
            return e.score;
        }
        #[cfg(feature = "syzygy")]
        if excluded == Move::NULL
            && let Some(score) = self.probe_tablebase(ply, depth, alpha, beta)
        {
            return score;
        }
        // Internal iterative reduction: without a hash move this node was
        // never searched deeply, so ordering is poor and a full-depth search
        // is mostly wasted; a shallower one finds a hash move for next time.
        let depth = if depth >= params::iir_depth() && tt_move == Move::NULL {
            depth - 1
        } else {
            depth
        };
        let (raw_eval, static_eval) = self.static_evals(entry, in_check);
        self.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];

        if !pv_node && !in_check && excluded == Move::NULL {
            // Reverse futility: far above beta near the leaves, assume it holds.
            if depth <= params::rfp_depth()
                && !is_mate(beta)
                && static_eval - params::rfp_margin() * depth
                    + params::rfp_improving() * i32::from(improving)
                    >= beta
            {
                return static_eval;
            }
            if let Some(score) = self.null_move(beta, depth, ply, static_eval, allow_null) {
                return score;
            }
        }

        let mut moves = legal_moves(&self.pos);
        if moves.is_empty() {
            return if in_check { mated_in(ply) } else { DRAW };
        }
        let row = usize::from(excluded != Move::NULL);
        for (i, &mv) in moves.iter().enumerate() {
            self.move_scores[ply][row][i] = self
                .ordering
                .score_deferring_quiets(&self.pos, mv, tt_move, ply);
        }
        let count = moves.len();
        let moves = moves.as_mut_slice();
        let mut found = Found::NONE;
        // On the stack: a `Vec` here was a heap allocation in most nodes.
        let mut quiets_tried = MoveList::new();
        let original_alpha = alpha;
        for i in 0..count {
            let scores = &mut self.move_scores[ply][row][..count];
            pick(moves, scores, i);
            if scores[i] == ordering::UNSCORED_QUIET {
                // The quiet moves' turn: their history scores now.
                self.ordering
                    .score_quiets(&self.pos, &moves[i..], &mut scores[i..], ply);
                pick(moves, scores, i);
            }
            let mv = moves[i];
            if mv == excluded {
                continue;
            }
            let quiet = !is_tactical(&self.pos, mv);
            let prunable = quiet && !pv_node && !in_check && found.score > -MATE_BOUND;
            // SEE pruning: near the leaves, once a move has a real score, a
            // move that loses material on its square is not worth a search;
            // the margin grows with depth, so deeper nodes keep sacrifices.
            if !in_check && found.score > -MATE_BOUND && depth <= params::see_depth() {
                let margin = -depth
                    * if quiet {
                        params::see_quiet_margin()
                    } else {
                        params::see_capture_margin()
                    };
                if !see_at_least(&self.pos, mv, margin) {
                    continue;
                }
            }
            let mut singular = false;
            if mv == tt_move
                && let Some(e) = entry
            {
                match self.singular(e, depth, ply, beta) {
                    Singular::Extend => singular = true,
                    Singular::MultiCut(score) => return score,
                    Singular::No => {}
                }
            }
            // Late-move pruning and futility pruning of quiet moves that do
            // not check, decided before the move is made: most moves pushed
            // used to be these, made (with their network update) only to be
            // unmade. The check test makes a bitboard-only child instead.
            if prunable
                && self.futile(depth, quiets_tried.len(), static_eval, alpha, improving)
                && !self.pos.gives_check(mv)
            {
                quiets_tried.push(mv);
                continue;
            }
            // The quiet move's history (butterfly and continuation) is its
            // ordering score, unless it is the hash move or a killer, which
            // have scores of their own (and 0 here): it adjusts the
            // reduction below. Looking the four entries up again cost 0.6 %
            // more instructions per node (callgrind, `quince bench -d 9`).
            let history = if quiet {
                ordering::history_in(self.move_scores[ply][row][i])
            } else {
                0
            };
            let undo = self.push(mv);
            let gives_check = self.pos.in_check();
            let extension = i32::from((gives_check || singular) && ply < MAX_PLY / 2);
            let new_depth = depth - 1 + extension;
            let score = if i == 0 {
                -self.negamax(-beta, -alpha, new_depth, ply + 1, true)
            } else {
                let mut reduction = 0;
                if depth >= 3 && i >= 2 && quiet && !in_check && !gives_check {
                    reduction = i32::from(self.lmr[depth.min(63) as usize][i.min(63)]);
                    reduction -= i32::from(pv_node) + i32::from(self.ordering.is_killer(mv, ply));
                    reduction += i32::from(!improving);
                    // History-adjusted: a move that keeps cutting off here
                    // (after these moves) is reduced up to two plies less,
                    // one that keeps failing up to two plies more.
                    reduction -= (history / params::lmr_history_divisor()).clamp(-2, 2);
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                let mut s = -self.negamax(-alpha - 1, -alpha, new_depth - reduction, ply + 1, true);
                if s > alpha && reduction > 0 {
                    s = -self.negamax(-alpha - 1, -alpha, new_depth, ply + 1, true);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(-beta, -alpha, new_depth, ply + 1, true);
                }
                s
            };
            self.pop(mv, undo);
            if self.stopped {
                return 0;
            }
            if self.take_score(ply, mv, score, &mut found, &mut alpha, beta) {
                if quiet {
                    self.ordering
                        .reward(&self.pos, mv, quiets_tried.as_slice(), depth, ply);
                }
                break;
            }
            if quiet {
                quiets_tried.push(mv);
            }
        }
        let bound = bound_of(found.score, alpha, original_alpha, beta);
        if excluded != Move::NULL {
            // The result is about the node without its best move: not for the table.
            return found.score;
        }
        // The evaluation's error, where the result shows it: a bound on the
        // evaluation's far side says nothing, a capture's result is about
        // the capture more than the position, and mates are not errors.
        let shows_error = match bound {
            Bound::Lower => found.score > static_eval,
            Bound::Upper => found.score < static_eval,
            Bound::Exact => true,
        };
        let quiet_best = found.mv == Move::NULL || !is_tactical(&self.pos, found.mv);
        if !in_check && quiet_best && shows_error && !is_mate(found.score) {
            self.correction
                .update(&self.pos, static_eval, found.score, depth);
        }
        self.tt
            .store(key, ply, found.mv, found.score, raw_eval, depth, bound);
        found.score
    }

    /// Takes a child's `score` for `mv` into the node's state: a new best
    /// score, and above `alpha` a new alpha, best move and PV. Returns
    /// whether the score reaches `beta` (a cut-off: stop searching the
    /// node). Shared by negamax and quiescence.
    pub(super) fn take_score(
        &mut self,
        ply: usize,
        mv: Move,
        score: Score,
        found: &mut Found,
        alpha: &mut Score,
        beta: Score,
    ) -> bool {
        if score <= found.score {
            return false;
        }
        found.score = score;
        if score <= *alpha {
            return false;
        }
        *alpha = score;
        found.mv = mv;
        self.update_pv(ply, mv);
        score >= beta
    }

    /// The PV at `ply` becomes `mv` followed by the child's PV.
    #[inline]
    pub(super) fn update_pv(&mut self, ply: usize, mv: Move) {
        if ply + 1 > MAX_PLY {
            return;
        }
        self.pv[ply][ply] = mv;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for j in ply + 1..child_len {
            self.pv[ply][j] = self.pv[ply + 1][j];
        }
        self.pv_len[ply] = child_len;
    }
}

/// Whether a stored score with `bound` decides a node searched with (alpha, beta).
#[inline]
pub(super) fn cuts(bound: Bound, score: Score, alpha: Score, beta: Score) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

/// The best score of a node so far and the move that raised alpha last
/// (`Move::NULL` while none has).
#[derive(Clone, Copy)]
pub(super) struct Found {
    pub(super) score: Score,
    pub(super) mv: Move,
}

impl Found {
    pub(super) const NONE: Found = Found {
        score: -INFINITY,
        mv: Move::NULL,
    };
}

/// The bound a node's best score gives the transposition table: at least
/// `beta` is a lower bound (cut-off), above the original alpha exact, else
/// an upper bound.
pub(super) fn bound_of(best: Score, alpha: Score, original_alpha: Score, beta: Score) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if alpha > original_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}
