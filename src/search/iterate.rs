//! The driver: the root moves, iterative deepening with aspiration
//! windows, the root search, when to stop (the soft limit scaled by how
//! sure the search is), and the lines reported to the protocol.

use super::*;

impl Searcher<'_> {
    /// The root moves allowed by `searchmoves`, hash move first, then by the
    /// usual ordering.
    pub(super) fn init_root_moves(&mut self) {
        let moves = legal_moves(&self.pos);
        let allowed: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|mv| {
                self.limits.search_moves.is_empty() || self.limits.search_moves.contains(mv)
            })
            .collect();
        #[cfg(feature = "syzygy")]
        let allowed = self.tablebase_root(allowed);
        let tt_move = self
            .tt
            .probe(self.pos.key(), 0)
            .map_or(Move::NULL, |e| e.mv);
        let mut scored: Vec<(i32, Move)> = allowed
            .iter()
            .map(|&mv| (self.ordering.score(&self.pos, mv, tt_move, 0), mv))
            .collect();
        scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        self.root_moves = scored
            .into_iter()
            .map(|(_, mv)| RootMove {
                mv,
                score: -INFINITY,
                previous: -INFINITY,
                seldepth: 0,
                pv: vec![mv],
                nodes: 0,
            })
            .collect();
    }

    /// With tablebases: the root moves DTZ ranks best when the root is in
    /// the tables (and no probes below it), else every allowed move and
    /// probes below the root (see `tablebase`). With MultiPV above 1 every
    /// move stays, for the analysis to show.
    #[cfg(feature = "syzygy")]
    fn tablebase_root(&mut self, allowed: Vec<Move>) -> Vec<Move> {
        let Some(tablebase) = &self.limits.tablebase else {
            return allowed;
        };
        self.tb_cardinality = tablebase.cardinality();
        if self.limits.multi_pv > 1 || self.pos.occupied().len() as usize > self.tb_cardinality {
            return allowed;
        }
        match tablebase.rank_root(&self.pos, &allowed) {
            Some((kept, score)) => {
                self.tb_cardinality = 0;
                self.tb_root_score = Some(score);
                kept
            }
            None => allowed,
        }
    }

    /// Iterative deepening: depth 1, 2, ... until a limit says stop.
    pub(super) fn iterate(&mut self) -> Outcome {
        self.init_root_moves();
        if self.root_moves.is_empty() {
            return Outcome {
                best: Move::NULL,
                ponder: None,
                score: self.terminal_score(),
                depth: 0,
                nodes: 0,
            };
        }
        let max_depth = self.max_depth();
        let mut completed = 0;
        // A helper may start deeper, so that the threads do not all search
        // the same depth at the same time (`smp`).
        let first = (1 + self.role.depth_offset).min(max_depth);
        for depth in first..=max_depth {
            for rm in &mut self.root_moves {
                rm.previous = rm.score;
            }
            self.ordering.clear_killers();
            let lines = self.limits.multi_pv.clamp(1, self.root_moves.len());
            for pv_index in 0..lines {
                self.seldepth = 0;
                self.aspiration(depth, pv_index);
                self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            completed = depth;
            self.may_stop = true;
            for pv_index in 0..lines {
                self.report_line(depth, pv_index, None);
            }
            if self.iteration_is_last(depth) {
                break;
            }
        }
        let ponder = self.ponder_move();
        let best = &self.root_moves[0];
        Outcome {
            best: best.mv,
            ponder,
            score: best.score.max(best.previous),
            depth: completed,
            nodes: self.nodes,
        }
    }

    /// The score for a root without legal moves: mated or stalemate.
    pub(super) fn terminal_score(&self) -> Score {
        if self.pos.in_check() {
            mated_in(0)
        } else {
            DRAW
        }
    }

    pub(super) fn max_depth(&self) -> i32 {
        let cap = MAX_PLY as i32 - 8;
        let depth = self.limits.depth.unwrap_or(cap).clamp(1, cap);
        match self.limits.mate {
            // A mate in n needs 2n - 1 plies; leave room for pruning.
            Some(n) if self.limits.depth.is_none() && !self.limits.infinite => {
                (2 * n.min(60) as i32 + 2).min(depth)
            }
            _ => depth,
        }
    }

    /// Whether to stop after the iteration at `depth` completed.
    pub(super) fn iteration_is_last(&mut self, depth: i32) -> bool {
        let best = self.root_moves[0].score;
        if let Some(n) = self.limits.mate
            && score::mate_moves(best).is_some_and(|m| m > 0 && m <= n as i32)
        {
            return true;
        }
        if self.pondering || self.limits.infinite {
            return false;
        }
        if let Some(budget) = self.budget {
            // The next iteration would take longer than the one just done.
            if self.start.elapsed() >= budget.soft.mul_f64(self.soft_scale()) {
                return true;
            }
            // One legal move, or a mate already found with time to spare:
            // no reason to spend more clock.
            let clock = self.limits.movetime.is_none();
            if clock && (self.root_moves.len() == 1 || (is_mate(best) && depth >= 10)) {
                return true;
            }
        }
        false
    }

    /// How much of the soft time limit this search should use, from the
    /// share of all nodes that went into the best move: near 1 the choice
    /// is clear and time is saved (down to half the limit); when other
    /// moves needed as much work, the choice is close and the search goes
    /// on (up to 1.5 times the limit, still inside the hard limit).
    pub(super) fn soft_scale(&self) -> f64 {
        if self.nodes == 0 {
            return 1.0;
        }
        let share = self.root_moves[0].nodes as f64 / self.nodes as f64;
        ((1.6 - share) * 1.25).clamp(0.5, 1.5)
    }

    /// The search of one line with a window around the previous score,
    /// widened on each failure.
    pub(super) fn aspiration(&mut self, depth: i32, pv_index: usize) {
        let previous = self.root_moves[pv_index].previous;
        let mut delta = params::aspiration_delta();
        let (mut alpha, mut beta) = if depth >= 5 && !is_mate(previous) && previous > -INFINITY {
            (
                (previous - delta).max(-INFINITY),
                (previous + delta).min(INFINITY),
            )
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.root_search(depth, alpha, beta, pv_index);
            self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                return;
            }
            if score <= alpha {
                self.report_bound(depth, pv_index, Bound::Upper);
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                self.report_bound(depth, pv_index, Bound::Lower);
                beta = (score + delta).min(INFINITY);
            } else {
                return;
            }
            delta += delta / 2;
        }
    }

    /// Searches the root moves from `pv_index` on; lines before it are
    /// already reported (MultiPV). Returns the best score.
    pub(super) fn root_search(
        &mut self,
        depth: i32,
        mut alpha: Score,
        beta: Score,
        pv_index: usize,
    ) -> Score {
        let mut best = -INFINITY;
        for i in pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let nodes_before = self.nodes;
            let undo = self.push(mv);
            let extension = i32::from(self.pos.in_check());
            let new_depth = depth - 1 + extension;
            let score = if i == pv_index {
                -self.negamax(-beta, -alpha, new_depth, 1, true)
            } else {
                let mut s = -self.negamax(-alpha - 1, -alpha, new_depth, 1, true);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(-beta, -alpha, new_depth, 1, true);
                }
                s
            };
            self.pop(mv, undo);
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_index || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1][1..self.pv_len[1]]);
            } else {
                rm.score = -INFINITY;
            }
            best = best.max(score);
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    pub(super) fn report_line(&mut self, depth: i32, pv_index: usize, bound: Option<Bound>) {
        if self.role.helper {
            return;
        }
        let rm = &self.root_moves[pv_index];
        let score = if rm.score == -INFINITY {
            rm.previous
        } else {
            rm.score
        };
        if score == -INFINITY {
            return;
        }
        // DTZ ranked the moves: the table's verdict, unless a mate was found.
        let score = match self.tb_root_score {
            Some(tb) if !is_mate(score) => tb,
            _ => score,
        };
        let line = Report {
            depth,
            seldepth: rm.seldepth.max(1),
            multi_pv: pv_index + 1,
            score,
            bound,
            nodes: self.total_nodes(),
            elapsed: self.start.elapsed(),
            hashfull: self.tt.hashfull(),
            pv: rm.pv.clone(),
            tb_hits: self.tb_hits(),
        };
        (self.report)(&line);
    }

    /// Bound lines only once a search is slow enough for them to inform.
    pub(super) fn report_bound(&mut self, depth: i32, pv_index: usize, bound: Bound) {
        if self.start.elapsed() >= Duration::from_millis(1000) {
            self.report_line(depth, pv_index, Some(bound));
        }
    }

    /// The second move of the best line, or the hash move after the best
    /// move; checked for legality.
    pub(super) fn ponder_move(&self) -> Option<Move> {
        let best = &self.root_moves[0];
        let mut after = self.pos.clone();
        after.make(best.mv);
        let candidate = match best.pv.get(1) {
            Some(&mv) => mv,
            None => self.tt.probe(after.key(), 1)?.mv,
        };
        legal_moves(&after)
            .contains(&candidate)
            .then_some(candidate)
    }
}
