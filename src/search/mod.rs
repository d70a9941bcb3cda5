//! The search: iterative deepening with aspiration windows over a
//! principal-variation alpha-beta search, quiescence search at the leaves.
//! This file holds the searcher's state and what every part shares (making
//! moves, counting nodes, draws); the parts live next to it:
//!
//! * `iterate`: root moves, iterative deepening, aspiration windows, the
//!   root search, when to stop, the reported lines.
//! * `negamax`: the main search. `pruning`: its selective decisions
//!   (singular extensions, futility and late-move pruning, null move, the
//!   reduction table). `quiescence`: the capture search at the leaves.
//! * [`tt`]: transposition table (depth-preferred with aging), shared
//!   without locks by the threads of `smp` (Lazy SMP).
//! * [`ordering`]: hash move, SEE/MVV-LVA captures, killers, history
//!   (the tables in `history`: butterfly and continuation).
//! * `correction`: correction history, the static evaluation's recent
//!   error by pawn structure and by each side's other pieces.
//! * [`see`]: static exchange evaluation.
//! * [`params`]: the selectivity's tunable constants (margins, depths,
//!   reduction coefficients), UCI options in a `--features tune` build.
//! * [`limits`]: depth/node/time limits, the time budget, stop signals.
//! * [`draw`], [`score`]: draw rules and mate-score encoding.
//!
//! The static evaluation every pruning decision reads is corrected by the
//! correction history first.
//!
//! Selectivity, from the root down: mate-distance pruning, transposition
//! cut-offs (not at PV nodes), internal iterative reduction without a hash
//! move, reverse futility pruning and null-move pruning (not in check, not
//! at PV nodes, null move only with non-pawn material), then per move: SEE
//! pruning near the leaves, singular extension of the hash move (or a
//! multi-cut), late-move and futility pruning of quiet moves, one ply of
//! extension for moves that give check, and late-move reductions with a
//! re-search when a reduced move beats alpha. Which of these earned their
//! place by a match is logged in `reports/strength.md`.
//!
//! With a depth or node limit the search is deterministic: time is only
//! consulted for time limits, so `quince bench` has a stable node count.

mod best_move;
mod correction;
pub mod draw;
mod history;
mod iterate;
pub mod limits;
mod negamax;
pub mod ordering;
pub mod params;
mod pruning;
mod quiescence;
pub mod score;
pub mod see;
mod smp;
#[cfg(feature = "syzygy")]
pub mod tablebase;
pub mod tt;
pub mod wdl;

#[cfg(feature = "hce")]
use crate::eval::evaluate;
#[cfg(not(feature = "hce"))]
use crate::eval::nnue::accumulator::AccumulatorStack;
use crate::eval::non_pawn_material;
use crate::movegen::legal::{fill_list, generate_tactical_into};
use crate::movegen::{MoveList, has_legal_move, legal_moves};
use crate::position::Position;
use crate::types::{Move, Piece};
pub use best_move::{SearchResult, UNBOUNDED_DEPTH, Value, best_move, best_move_with_history};
use correction::CorrectionHistory;
use limits::Budget;
pub use limits::{Limits, Signals};
use ordering::{Ordering, is_tactical, mvv_lva, pick};
use pruning::reduction_table;
use score::{DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY, Score, is_mate, mated_in};
use see::{SEE_VALUE, captured, see_at_least};
pub use smp::MAX_THREADS;
use smp::Role;
use std::time::{Duration, Instant};
use tt::{Bound, TranspositionTable};

/// One line of the search's progress, for the protocol to print.
#[derive(Clone, Debug)]
pub struct Report {
    /// The nominal depth of the iteration, in plies.
    pub depth: i32,
    /// The deepest ply this line's search reached (selective depth).
    pub seldepth: usize,
    /// 1-based index of the line (MultiPV).
    pub multi_pv: usize,
    /// The line's score for the side to move (see [`score`]).
    pub score: Score,
    /// `Some` if the score is only a bound (aspiration window failure).
    pub bound: Option<Bound>,
    /// Nodes searched so far in this search, quiescence included.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Transposition-table use in permille (see
    /// [`TranspositionTable::hashfull`]).
    pub hashfull: u32,
    /// The principal variation, starting with this line's root move.
    pub pv: Vec<Move>,
    /// Tablebase probes that answered, all threads together (0 without
    /// tablebases).
    pub tb_hits: u64,
}

/// The result of a search (the protocol's view; [`best_move`] gives the
/// everyday one, with `Option` and a typed [`Value`]).
#[derive(Clone, Debug)]
pub struct Outcome {
    /// `Move::NULL` when the root has no legal move.
    pub best: Move,
    /// The expected reply, if known and legal.
    pub ponder: Option<Move>,
    /// The best move's score for the side to move (mated or draw score
    /// when the root has no legal move).
    pub score: Score,
    /// The last completed depth.
    pub depth: i32,
    /// Nodes searched in total.
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
    search_threads(pos, history, tt, limits, signals, 1, report)
}

/// [`search`] on `threads` threads (Lazy SMP; 1 is the plain search, and
/// at most [`MAX_THREADS`] are used): helpers search beside the calling
/// thread, sharing `tt`, and the calling thread's result is returned once
/// every helper has stopped. The node counts reported cover all threads.
pub fn search_threads(
    pos: &Position,
    history: &[u64],
    tt: &mut TranspositionTable,
    limits: &Limits,
    signals: &Signals,
    threads: usize,
    report: &mut dyn FnMut(&Report),
) -> Outcome {
    tt.new_search();
    #[cfg(feature = "syzygy")]
    if let Some(tablebase) = &limits.tablebase {
        tablebase.reset_hits();
    }
    if threads > 1 {
        return smp::search_on_threads(pos, history, tt, limits, signals, threads, report);
    }
    let mut searcher = Searcher::new(pos, history, tt, limits, signals, report, Role::ALONE);
    let outcome = searcher.iterate();
    wait_for_stop(limits, signals);
    outcome
}

/// `go infinite` and `go ponder` must not answer before stop/ponderhit.
fn wait_for_stop(limits: &Limits, signals: &Signals) {
    while (limits.infinite || signals.pondering()) && !signals.stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// How often (in nodes) a search looks at the clock, `stop` and, in a
/// helper thread, whether the main thread is done.
const CHECK_EVERY: u64 = 1024;

struct Searcher<'a> {
    pos: Position,
    tt: &'a TranspositionTable,
    /// Main thread, helper or alone (see `smp`).
    role: Role<'a>,
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
    /// Probe tables below the root for positions with at most this many
    /// pieces (0: no probes; see `tablebase`).
    #[cfg(feature = "syzygy")]
    tb_cardinality: usize,
    /// The score to report when DTZ ranked the root moves and the search
    /// found no mate.
    tb_root_score: Option<Score>,
    lmr: Box<[[u8; 64]; 64]>,
    /// `move_scores[ply][singular]`: the ordering scores of the moves at
    /// `ply`, kept here rather than as a zeroed 1 KiB array in every node's
    /// frame. The singular-extension search runs at the same ply inside the
    /// node's move loop, so it has a second row (`singular` = 1).
    move_scores: Box<[[[i32; 256]; 2]; MAX_PLY + 1]>,
    /// The NNUE accumulators along the current line (one push per make).
    #[cfg(not(feature = "hce"))]
    nnue: AccumulatorStack,
}

impl<'a> Searcher<'a> {
    fn new(
        pos: &Position,
        history: &[u64],
        tt: &'a TranspositionTable,
        limits: &'a Limits,
        signals: &'a Signals,
        report: &'a mut dyn FnMut(&Report),
        role: Role<'a>,
    ) -> Searcher<'a> {
        // Room for the deepest line up front: no reallocation mid-search.
        let mut keys = Vec::with_capacity(history.len() + MAX_PLY + 2);
        keys.extend_from_slice(history);
        keys.push(pos.key());
        let mut null = Vec::with_capacity(keys.capacity());
        null.resize(keys.len(), false);
        Searcher {
            pos: pos.clone(),
            tt,
            role,
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
            #[cfg(feature = "syzygy")]
            tb_cardinality: 0,
            tb_root_score: None,
            lmr: reduction_table(),
            move_scores: Box::new([[[0; 256]; 2]; MAX_PLY + 1]),
            #[cfg(not(feature = "hce"))]
            nnue: AccumulatorStack::new(pos),
        }
    }

    /// Makes `mv` and records the new key.
    #[inline]
    fn push(&mut self, mv: Move) -> crate::position::Undo {
        let ply = self.keys.len() - 1 - self.root_index;
        self.ordering.record(&self.pos, mv, ply);
        #[cfg(not(feature = "hce"))]
        self.nnue.push(&self.pos, mv);
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
        #[cfg(not(feature = "hce"))]
        self.nnue.pop();
    }

    /// The current position's static evaluation, raw (what the table
    /// keeps, from `entry` if the position has one) and corrected by the
    /// correction history (what the search reads): the correction keeps
    /// learning, so it is added afresh on every use. Both `-INFINITY` in
    /// check, where no static evaluation stands. Always inlined: as a call
    /// of its own it cost 0.3 % more instructions in `quince bench -d 9`
    /// than written out in both callers (callgrind).
    #[inline(always)]
    fn static_evals(&mut self, entry: Option<tt::Entry>, in_check: bool) -> (Score, Score) {
        if in_check {
            return (-INFINITY, -INFINITY);
        }
        let raw = match entry {
            Some(e) => e.eval,
            None => self.evaluate(),
        };
        (raw, self.correction.correct(&self.pos, raw))
    }

    /// The static evaluation of the current position: the NNUE network,
    /// or with the `hce` feature the hand-written evaluation.
    #[inline]
    fn evaluate(&mut self) -> Score {
        #[cfg(not(feature = "hce"))]
        return self.nnue.evaluate(&self.pos);
        #[cfg(feature = "hce")]
        return evaluate(&self.pos);
    }

    /// Counts a node and checks the limits: the node limit at every node
    /// (for determinism), `stop` and the clock every [`CHECK_EVERY`] nodes.
    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.may_stop && self.limits.nodes.is_some_and(|n| self.total_nodes() >= n) {
            self.stopped = true;
        }
        if self.limits.node_cap.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        }
        if !self.nodes.is_multiple_of(CHECK_EVERY) {
            return;
        }
        if self.signals.stopped() {
            self.stopped = true;
        }
        if self.role.helper_batch_ends(CHECK_EVERY) {
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

    /// Tablebase probes that answered so far, all threads together.
    fn tb_hits(&self) -> u64 {
        #[cfg(feature = "syzygy")]
        if let Some(tablebase) = &self.limits.tablebase {
            return tablebase.hits();
        }
        0
    }

    /// Nodes searched by every thread so far: this one's, plus the
    /// helpers' for the main thread of a threaded search (the helpers add
    /// theirs every [`CHECK_EVERY`] nodes).
    #[inline]
    fn total_nodes(&self) -> u64 {
        self.nodes + self.role.helper_nodes()
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(fen: &str, depth: i32) -> Outcome {
        let pos = Position::from_fen(fen).unwrap();
        let mut tt = TranspositionTable::new(1).unwrap();
        let limits = Limits::depth(depth);
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
            node_cap: Some(3),
            ..Limits::depth(20)
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
    fn threaded_searches_find_the_same_mate_and_stop_at_a_node_limit() {
        let pos = Position::from_fen(MATE_IN_TWO).unwrap();
        let mut tt = TranspositionTable::new(4).unwrap();
        for threads in [2, 3, 5] {
            tt.clear();
            let outcome = search_threads(
                &pos,
                &[],
                &mut tt,
                &Limits::depth(6),
                &Signals::default(),
                threads,
                &mut |_| {},
            );
            assert_eq!(outcome.score, MATE - 3, "{threads} threads");
            assert!(legal_moves(&pos).contains(&outcome.best));
        }
        // A node limit counts every thread's nodes: the main thread stops
        // once the total passes it (after its first iteration, so that
        // there is a best move; on a loaded machine the helpers may have
        // searched far more by then, so no tight upper bound holds), and
        // the helpers within their next batch: the search returns long
        // before its depth limit.
        let start = Position::startpos();
        let limit = 50_000;
        let threads = 4;
        let outcome = search_threads(
            &start,
            &[],
            &mut tt,
            &Limits {
                nodes: Some(limit),
                ..Limits::depth(60)
            },
            &Signals::default(),
            threads,
            &mut |_| {},
        );
        assert!(legal_moves(&start).contains(&outcome.best));
        assert!(outcome.nodes >= limit, "{}", outcome.nodes);
        assert!(outcome.depth < 30, "{}", outcome.depth);
    }

    /// Mate in two by checks: 1. Re8+ Rxe8 2. Rxe8#. (Morphy's mate in
    /// two, 1. Ra6, is a zugzwang that null-move pruning hides from the
    /// search; see reports/strength.md, "Still to do".)
    const MATE_IN_TWO: &str = "3r2k1/5ppp/8/8/8/8/4R3/4R1K1 w - - 0 1";

    #[test]
    fn mate_scores_count_moves_from_the_root() {
        let mated = run("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 3);
        assert_eq!((mated.best, mated.score), (Move::NULL, mated_in(0)));
        let two = run(MATE_IN_TWO, 6);
        assert_eq!(two.score, MATE - 3);
    }
}
