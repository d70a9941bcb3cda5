//! The search: iterative deepening with aspiration windows over a
//! principal-variation alpha-beta search, quiescence search at the leaves.
//!
//! * [`tt`]: transposition table (depth-preferred with aging).
//! * [`ordering`]: hash move, SEE/MVV-LVA captures, killers, history.
//! * [`see`]: static exchange evaluation.
//! * [`limits`]: depth/node/time limits, the time budget, stop signals.
//! * [`draw`], [`score`]: draw rules and mate-score encoding.
//!
//! Selectivity, from the root down: mate-distance pruning, transposition
//! cut-offs (not at PV nodes), reverse futility pruning and null-move
//! pruning (not in check, not at PV nodes, null move only with non-pawn
//! material), then per move: late-move and futility pruning of quiet moves
//! near the leaves, one ply of extension for moves that give check, and
//! late-move reductions with a re-search when a reduced move beats alpha.
//!
//! With a depth or node limit the search is deterministic: time is only
//! consulted for time limits, so `quince bench` has a stable node count.

pub mod correction;
pub mod draw;
pub mod limits;
pub mod ordering;
pub mod score;
pub mod see;
pub mod tt;

use crate::eval::{evaluate, non_pawn_material};
use crate::movegen::{has_legal_move, legal_moves};
use crate::position::Position;
use crate::types::{Move, Piece};
use correction::CorrectionHistory;
use limits::{Budget, Limits, Signals};
use ordering::{Ordering, is_tactical, mvv_lva, pick};
use score::{DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY, Score, is_mate, mated_in};
use see::{SEE_VALUE, captured, see as static_exchange};
use std::time::{Duration, Instant};
use tt::{Bound, TranspositionTable};

/// One line of the search's progress, for the protocol to print.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: i32,
    pub seldepth: usize,
    /// 1-based index of the line (MultiPV).
    pub multi_pv: usize,
    pub score: Score,
    /// `Some` if the score is only a bound (aspiration window failure).
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// `Move::NULL` when the root has no legal move.
    pub best: Move,
    /// The expected reply, if known and legal.
    pub ponder: Option<Move>,
    pub score: Score,
    /// The last completed depth.
    pub depth: i32,
    pub nodes: u64,
}

/// A root move and what the search has learnt about it.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: Score,
    previous: Score,
    seldepth: usize,
    pv: Vec<Move>,
    /// Nodes spent below this move, summed over the iterations.
    nodes: u64,
}

/// Searches `pos` within `limits`. `history` holds the keys of the game's
/// positions before `pos` (oldest first), for repetition detection.
/// `report` receives the lines to print; `signals` may stop the search.
pub fn search(
    pos: &Position,
    history: &[u64],
    tt: &mut TranspositionTable,
    limits: &Limits,
    signals: &Signals,
    report: &mut dyn FnMut(&Report),
) -> Outcome {
    tt.new_search();
    let mut searcher = Searcher::new(pos, history, tt, limits, signals, report);
    let outcome = searcher.iterate();
    // `go infinite` and `go ponder` must not answer before stop/ponderhit.
    while (limits.infinite || signals.pondering()) && !signals.stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
    outcome
}

struct Searcher<'a> {
    pos: Position,
    tt: &'a mut TranspositionTable,
    limits: &'a Limits,
    signals: &'a Signals,
    report: &'a mut dyn FnMut(&Report),
    start: Instant,
    budget: Option<Budget>,
    pondering: bool,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Whether limits other than `stop` may end the search yet (not before
    /// depth 1 has finished, so there is always a searched best move).
    may_stop: bool,
    /// Keys of the game and search path; `null[i]` marks entries reached by
    /// a null move, which repetition scans must not cross.
    keys: Vec<u64>,
    null: Vec<bool>,
    root_index: usize,
    ordering: Ordering,
    correction: CorrectionHistory,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    evals: [Score; MAX_PLY + 2],
    /// `excluded[ply]`: the move a singular-extension search at `ply`
    /// leaves out (`Move::NULL` otherwise).
    excluded: [Move; MAX_PLY + 2],
    root_moves: Vec<RootMove>,
    lmr: Box<[[u8; 64]; 64]>,
}

/// Late-move reduction in plies for `depth` and move number: grows with
/// the logarithm of both (the usual shape since Stockfish and Ethereal).
fn reduction_table() -> Box<[[u8; 64]; 64]> {
    let mut table = Box::new([[0u8; 64]; 64]);
    for (depth, row) in table.iter_mut().enumerate().skip(1) {
        for (count, cell) in row.iter_mut().enumerate().skip(1) {
            let r = 0.75 + (depth as f64).ln() * (count as f64).ln() / 2.25;
            *cell = r.clamp(0.0, 60.0) as u8;
        }
    }
    table
}

impl<'a> Searcher<'a> {
    fn new(
        pos: &Position,
        history: &[u64],
        tt: &'a mut TranspositionTable,
        limits: &'a Limits,
        signals: &'a Signals,
        report: &'a mut dyn FnMut(&Report),
    ) -> Searcher<'a> {
        let mut keys = history.to_vec();
        keys.push(pos.key());
        let null = vec![false; keys.len()];
        Searcher {
            pos: pos.clone(),
            tt,
            limits,
            signals,
            report,
            start: Instant::now(),
            budget: limits.budget(pos.side_to_move()),
            pondering: limits.ponder,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            may_stop: false,
            root_index: keys.len() - 1,
            keys,
            null,
            ordering: Ordering::default(),
            correction: CorrectionHistory::default(),
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            evals: [0; MAX_PLY + 2],
            excluded: [Move::NULL; MAX_PLY + 2],
            root_moves: Vec::new(),
            lmr: reduction_table(),
        }
    }

    /// The root moves allowed by `searchmoves`, hash move first, then by the
    /// usual ordering.
    fn init_root_moves(&mut self) {
        let moves = legal_moves(&self.pos);
        let allowed: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|mv| {
                self.limits.search_moves.is_empty() || self.limits.search_moves.contains(mv)
            })
            .collect();
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

    /// Iterative deepening: depth 1, 2, ... until a limit says stop.
    fn iterate(&mut self) -> Outcome {
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
        for depth in 1..=max_depth {
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
    fn terminal_score(&self) -> Score {
        if self.pos.in_check() {
            mated_in(0)
        } else {
            DRAW
        }
    }

    fn max_depth(&self) -> i32 {
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
    fn iteration_is_last(&mut self, depth: i32) -> bool {
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
    fn soft_scale(&self) -> f64 {
        if self.nodes == 0 {
            return 1.0;
        }
        let share = self.root_moves[0].nodes as f64 / self.nodes as f64;
        ((1.6 - share) * 1.25).clamp(0.5, 1.5)
    }

    /// The search of one line with a window around the previous score,
    /// widened on each failure.
    fn aspiration(&mut self, depth: i32, pv_index: usize) {
        let previous = self.root_moves[pv_index].previous;
        let mut delta = 20;
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
    fn root_search(&mut self, depth: i32, mut alpha: Score, beta: Score, pv_index: usize) -> Score {
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

    /// Makes `mv` and records the new key.
    #[inline]
    fn push(&mut self, mv: Move) -> crate::position::Undo {
        let undo = self.pos.make(mv);
        self.keys.push(self.pos.key());
        self.null.push(false);
        undo
    }

    #[inline]
    fn pop(&mut self, mv: Move, undo: crate::position::Undo) {
        self.pos.unmake(mv, undo);
        self.keys.pop();
        self.null.pop();
    }

    /// Counts a node and checks the limits: the node limit at every node
    /// (for determinism), `stop` and the clock every 1024 nodes.
    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.may_stop && self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        }
        if self.limits.node_cap.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        }
        if self.nodes & 1023 != 0 {
            return;
        }
        if self.signals.stopped() {
            self.stopped = true;
        }
        if self.pondering && !self.signals.pondering() {
            // `ponderhit`: the opponent played the expected move; our clock runs now.
            self.pondering = false;
            self.start = Instant::now();
        }
        if self.may_stop
            && !self.pondering
            && !self.limits.infinite
            && let Some(budget) = self.budget
            && self.start.elapsed() >= budget.hard
        {
            self.stopped = true;
        }
    }

    /// Whether the current node (`ply` > 0) is a draw by rule: insufficient
    /// material, the fifty-move rule, or a repetition. A position repeated
    /// inside the search counts at once; one from before the root must have
    /// occurred twice (threefold), since the game may not repeat it again.
    fn is_draw(&self, ply: usize, in_check: bool) -> bool {
        if draw::insufficient_material(&self.pos) {
            return true;
        }
        let halfmove = self.pos.halfmove_clock() as usize;
        if halfmove >= 100 && (!in_check || has_legal_move(&self.pos)) {
            return true;
        }
        let current = self.keys.len() - 1;
        let key = self.keys[current];
        let mut seen_before_root = 0;
        for back in 1..=halfmove.min(current) {
            let index = current - back;
            if self.null[index + 1] {
                break;
            }
            if back % 2 == 0 && self.keys[index] == key {
                if index >= self.root_index || ply == 0 {
                    return true;
                }
                seen_before_root += 1;
                if seen_before_root >= 2 {
                    return true;
                }
            }
        }
        false
    }

    /// Principal-variation alpha-beta search of the current position.
    fn negamax(
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
            return if in_check { DRAW } else { evaluate(&self.pos) };
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
        // Internal iterative reduction: without a hash move this node was
        // never searched deeply, so ordering is poor and a full-depth search
        // is mostly wasted; a shallower one finds a hash move for next time.
        let depth = if depth >= 4 && tt_move == Move::NULL {
            depth - 1
        } else {
            depth
        };
        // The table keeps the raw evaluation; the correction history's
        // current view is added on every use.
        let raw_eval = if in_check {
            -INFINITY
        } else {
            entry.map_or_else(|| evaluate(&self.pos), |e| e.eval)
        };
        let static_eval = if in_check {
            -INFINITY
        } else {
            self.correction.correct(&self.pos, raw_eval)
        };
        self.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];

        if !pv_node && !in_check && excluded == Move::NULL {
            // Reverse futility: far above beta near the leaves, assume it holds.
            if depth <= 6
                && !is_mate(beta)
                && static_eval - 90 * depth + 30 * i32::from(improving) >= beta
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
        let mut scores = [0i32; 256];
        for (i, &mv) in moves.iter().enumerate() {
            scores[i] = self.ordering.score(&self.pos, mv, tt_move, ply);
        }
        let count = moves.len();
        let moves = moves.as_mut_slice();
        let mut found = Found::NONE;
        let mut quiets_tried: Vec<Move> = Vec::new();
        let original_alpha = alpha;
        for i in 0..count {
            pick(moves, &mut scores[..count], i);
            let mv = moves[i];
            if mv == excluded {
                continue;
            }
            let quiet = !is_tactical(&self.pos, mv);
            let prunable = quiet && !pv_node && !in_check && found.score > -MATE_BOUND;
            // SEE pruning: near the leaves, once a move has a real score, a
            // move that loses material on its square is not worth a search;
            // the margin grows with depth, so deeper nodes keep sacrifices.
            if !in_check && found.score > -MATE_BOUND && depth <= 8 {
                let margin = if quiet { -60 * depth } else { -100 * depth };
                if static_exchange(&self.pos, mv) < margin {
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
            let undo = self.push(mv);
            let gives_check = self.pos.in_check();
            // Late-move pruning and futility pruning of quiet moves that do not check.
            if prunable
                && !gives_check
                && self.futile(depth, quiets_tried.len(), static_eval, alpha, improving)
            {
                self.pop(mv, undo);
                quiets_tried.push(mv);
                continue;
            }
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
                    let side = self.pos.side_to_move();
                    self.ordering.reward(side, mv, &quiets_tried, depth, ply);
                }
                break;
            }
            if quiet {
                quiets_tried.push(mv);
            }
        }
        let bound = bound_of(found.score, alpha, original_alpha, beta);
        let quiet_best = found.mv == Move::NULL || !is_tactical(&self.pos, found.mv);
        let informative = match bound {
            Bound::Lower => found.score > static_eval,
            Bound::Upper => found.score < static_eval,
            Bound::Exact => true,
        };
        if excluded != Move::NULL {
            // The result is about the node without its best move: not for the table.
            return found.score;
        }
        if !in_check && quiet_best && informative && !is_mate(found.score) {
            self.correction
                .update(&self.pos, raw_eval, found.score, depth);
        }
        self.tt
            .store(key, ply, found.mv, found.score, raw_eval, depth, bound);
        found.score
    }

    /// Singular extension: whether the hash move, which scored at least
    /// `entry.score` in an earlier search, is much better than every other
    /// move. A reduced search of the node without it, against a bound a
    /// little below that score, says so if it fails low: then the hash
    /// move is the only good one and is searched a ply deeper. If even
    /// without it the node reaches `beta`, several moves do (multi-cut): the node is cut at once.
    fn singular(&mut self, entry: tt::Entry, depth: i32, ply: usize, beta: Score) -> Singular {
        let trusted = matches!(entry.bound, Bound::Lower | Bound::Exact);
        if depth < 8 || !trusted || entry.depth < depth - 3 || is_mate(entry.score) {
            return Singular::No;
        }
        let singular_beta = entry.score - 2 * depth;
        self.excluded[ply] = entry.mv;
        let score = self.negamax(
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            false,
        );
        self.excluded[ply] = Move::NULL;
        if self.stopped {
            Singular::No
        } else if score < singular_beta {
            Singular::Extend
        } else if singular_beta >= beta {
            Singular::MultiCut(singular_beta)
        } else {
            Singular::No
        }
    }

    /// Whether a quiet move near the leaves is not worth searching: too many
    /// quiet moves tried already (late-move pruning), or the static
    /// evaluation too far below alpha for a quiet move to help (futility).
    #[inline]
    fn futile(
        &self,
        depth: i32,
        quiets: usize,
        eval: Score,
        alpha: Score,
        improving: bool,
    ) -> bool {
        let late = depth <= 4 && quiets as i32 >= 3 + depth * depth * (1 + i32::from(improving));
        late || (depth <= 5 && eval + 100 + 90 * depth <= alpha)
    }

    /// Null-move pruning: if passing still leaves us at or above beta after
    /// a reduced search, a real move will too. Not in pawn-only endings,
    /// where zugzwang makes passing a fantasy. Returns the cut-off score.
    fn null_move(
        &mut self,
        beta: Score,
        depth: i32,
        ply: usize,
        eval: Score,
        allow: bool,
    ) -> Option<Score> {
        let side = self.pos.side_to_move();
        if !allow || depth < 3 || eval < beta || non_pawn_material(&self.pos, side) == 0 {
            return None;
        }
        let reduction = 3 + depth / 4 + ((eval - beta) / 200).min(2);
        let ep = self.pos.make_null();
        self.keys.push(self.pos.key());
        self.null.push(true);
        let score = -self.negamax(-beta, -beta + 1, depth - 1 - reduction, ply + 1, false);
        self.keys.pop();
        self.null.pop();
        self.pos.unmake_null(ep);
        if self.stopped || score < beta {
            return None;
        }
        // An unproven mate from a null move is not trusted.
        Some(if score >= MATE_BOUND { beta } else { score })
    }

    /// Quiescence: only captures and promotions (all moves when in check),
    /// until the position is quiet, with the static evaluation as a
    /// stand-pat lower bound. Captures that lose material by SEE, and
    /// captures that cannot lift the score near alpha (delta pruning), are skipped.
    fn quiescence(&mut self, mut alpha: Score, beta: Score, ply: usize) -> Score {
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
            return if in_check { DRAW } else { evaluate(&self.pos) };
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
        let raw_eval = if in_check {
            -INFINITY
        } else {
            entry.map_or_else(|| evaluate(&self.pos), |e| e.eval)
        };
        let stand_pat = if in_check {
            -INFINITY
        } else {
            self.correction.correct(&self.pos, raw_eval)
        };
        if !in_check {
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            found.score = stand_pat;
        }
        let mut moves = legal_moves(&self.pos);
        if in_check && moves.is_empty() {
            return mated_in(ply);
        }
        let mut scores = [0i32; 256];
        let mut count = 0;
        for i in 0..moves.len() {
            let mv = moves[i];
            if in_check || is_tactical(&self.pos, mv) {
                moves.as_mut_slice()[count] = mv;
                scores[count] = mvv_lva(&self.pos, mv)
                    + if mv.promotion() == Some(Piece::Queen) {
                        8000
                    } else {
                        0
                    };
                count += 1;
            }
        }
        let moves = &mut moves.as_mut_slice()[..count];
        let original_alpha = alpha;
        for i in 0..count {
            pick(moves, &mut scores[..count], i);
            let mv = moves[i];
            if !in_check {
                if mv.promotion().is_some_and(|p| p != Piece::Queen) {
                    continue;
                }
                let gain = captured(&self.pos, mv).map_or(0, |p| SEE_VALUE[p.index()]);
                if mv.promotion().is_none() && stand_pat + gain + 200 <= alpha {
                    continue;
                }
                if static_exchange(&self.pos, mv) < 0 {
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

    /// Takes a child's `score` for `mv` into the node's state: a new best
    /// score, and above `alpha` a new alpha, best move and PV. Returns
    /// whether the score reaches `beta` (a cut-off: stop searching the
    /// node). Shared by negamax and quiescence.
    fn take_score(
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
    fn update_pv(&mut self, ply: usize, mv: Move) {
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

    fn report_line(&mut self, depth: i32, pv_index: usize, bound: Option<Bound>) {
        let rm = &self.root_moves[pv_index];
        let score = if rm.score == -INFINITY {
            rm.previous
        } else {
            rm.score
        };
        if score == -INFINITY {
            return;
        }
        let line = Report {
            depth,
            seldepth: rm.seldepth.max(1),
            multi_pv: pv_index + 1,
            score,
            bound,
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
            hashfull: self.tt.hashfull(),
            pv: rm.pv.clone(),
        };
        (self.report)(&line);
    }

    /// Bound lines only once a search is slow enough for them to inform.
    fn report_bound(&mut self, depth: i32, pv_index: usize, bound: Bound) {
        if self.start.elapsed() >= Duration::from_millis(1000) {
            self.report_line(depth, pv_index, Some(bound));
        }
    }

    /// The second move of the best line, or the hash move after the best
    /// move; checked for legality.
    fn ponder_move(&self) -> Option<Move> {
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

/// What a singular-extension search found out about the hash move.
enum Singular {
    /// Search it a ply deeper.
    Extend,
    /// Other moves also reach beta: the node fails high with this score.
    MultiCut(Score),
    No,
}

/// Whether a stored score with `bound` decides a node searched with (alpha, beta).
#[inline]
fn cuts(bound: Bound, score: Score, alpha: Score, beta: Score) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

/// The best score of a node so far and the move that raised alpha last
/// (`Move::NULL` while none has).
#[derive(Clone, Copy)]
struct Found {
    score: Score,
    mv: Move,
}

impl Found {
    const NONE: Found = Found {
        score: -INFINITY,
        mv: Move::NULL,
    };
}

/// The bound a node's best score gives the transposition table: at least
/// `beta` is a lower bound (cut-off), above the original alpha exact, else
/// an upper bound.
fn bound_of(best: Score, alpha: Score, original_alpha: Score, beta: Score) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if alpha > original_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(fen: &str, depth: i32) -> Outcome {
        let pos = Position::from_fen(fen).unwrap();
        let mut tt = TranspositionTable::new(1).unwrap();
        let limits = Limits {
            depth: Some(depth),
            multi_pv: 1,
            ..Limits::default()
        };
        search(
            &pos,
            &[],
            &mut tt,
            &limits,
            &Signals::default(),
            &mut |_| {},
        )
    }

    #[test]
    fn a_node_cap_stops_inside_the_first_iteration_with_a_legal_move() {
        let pos = Position::from_fen(crate::position::STARTPOS_FEN).unwrap();
        let mut tt = TranspositionTable::new(1).unwrap();
        let limits = Limits {
            depth: Some(20),
            node_cap: Some(3),
            multi_pv: 1,
            ..Limits::default()
        };
        let mut lines = 0;
        let outcome = search(
            &pos,
            &[],
            &mut tt,
            &limits,
            &Signals::default(),
            &mut |_| lines += 1,
        );
        assert!(crate::movegen::legal_moves(&pos).contains(&outcome.best));
        // Three nodes cannot finish depth 1 (twenty root moves): no iteration
        // completed, so nothing was reported as a finished depth.
        assert_eq!(lines, 0);
    }

    #[test]
    fn fifty_move_rule_draws_unless_the_last_move_mates() {
        // Qa8 mates on the hundredth half-move: mate beats the fifty-move rule.
        let mate = run("7k/8/6K1/8/8/8/Q7/8 w - - 99 80", 4);
        assert_eq!(score::mate_moves(mate.score), Some(1));
        // Without a mate, every move completes fifty moves: a draw despite the queen.
        let draw = run("7k/8/8/8/8/8/8/KQ6 w - - 99 80", 4);
        assert_eq!(draw.score, DRAW);
    }

    #[test]
    fn insufficient_material_and_stalemate_score_zero() {
        assert_eq!(run("8/8/4k3/8/8/3NK3/8/8 w - - 0 1", 6).score, DRAW);
        let stalemate = run("7k/8/6QK/8/8/8/8/8 b - - 0 1", 3);
        assert_eq!((stalemate.best, stalemate.score), (Move::NULL, DRAW));
    }

    #[test]
    fn mate_scores_count_moves_from_the_root() {
        let mated = run("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 3);
        assert_eq!((mated.best, mated.score), (Move::NULL, mated_in(0)));
        let two = run("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 6);
        assert_eq!(two.score, MATE - 3);
    }
}
