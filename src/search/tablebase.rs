//! Syzygy tablebases in the search: WDL probes below the root, DTZ at it.
//!
//! Below the root, a position with few enough pieces, just after a capture
//! or pawn move (WDL assumes a fresh fifty-move counter), is scored from
//! its table instead of searched: a win as [`TB_WIN`] less the ply (so
//! that nearer wins score higher, below every mate), a loss as its
//! negation, a draw as a draw. A decisive value is only a bound, since a
//! mate may still be found; the search stops at it when the bound cuts.
//!
//! At the root, when the position itself is in the tables, DTZ ranks the
//! moves and the search only considers the best ones: a win keeps the
//! moves that win soonest to a zeroing move, so every move makes progress
//! and a won ending is converted under the fifty-move rule; a draw keeps
//! every drawing move (the search picks the one that gives the opponent
//! most chances to go wrong); a loss keeps the longest resistance. The
//! search then runs without probes (they would only hide the mates it
//! can find among those moves).

use super::score::{DRAW, MAX_PLY, Score};
use super::tt::Bound;
use crate::position::Position;
use crate::syzygy::{Dtz, Tablebase, Wdl};
use crate::types::Move;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A tablebase win `ply` plies from the root scores `TB_WIN - ply`: far
/// above any evaluation, below every mate score.
pub const TB_WIN: Score = 20_000;

/// How the search uses tablebases (UCI's `SyzygyPath`, `SyzygyProbeDepth`,
/// `SyzygyProbeLimit`, `Syzygy50MoveRule`), and its `tbhits` count.
#[derive(Clone)]
pub struct TablebaseUse {
    /// The tables.
    pub tables: Arc<Tablebase>,
    /// Probe below the root only at this remaining depth or more (positions
    /// with fewer pieces than the limit are probed at any depth).
    pub probe_depth: i32,
    /// Probe positions with at most this many pieces (and at most the
    /// largest table's).
    pub probe_limit: usize,
    /// Whether a win the fifty-move rule spoils counts as a draw (a cursed
    /// win, a blessed loss): true by the rules of chess.
    pub fifty_move_rule: bool,
    hits: Arc<AtomicU64>,
}

impl fmt::Debug for TablebaseUse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TablebaseUse")
            .field("files", &self.tables.files())
            .field("max_pieces", &self.tables.max_pieces())
            .field("probe_depth", &self.probe_depth)
            .field("probe_limit", &self.probe_limit)
            .field("fifty_move_rule", &self.fifty_move_rule)
            .finish()
    }
}

impl TablebaseUse {
    /// Every table probed at any depth, the fifty-move rule on.
    pub fn new(tables: Arc<Tablebase>) -> TablebaseUse {
        TablebaseUse {
            tables,
            probe_depth: 1,
            probe_limit: crate::syzygy::MAX_PIECES,
            fifty_move_rule: true,
            hits: Arc::default(),
        }
    }

    /// Successful probes since the search started, all threads together.
    pub fn hits(&self) -> u64 {
        self.hits.load(Relaxed)
    }

    pub(super) fn reset_hits(&self) {
        self.hits.store(0, Relaxed);
    }

    /// The most pieces a probe below the root may see.
    pub(super) fn cardinality(&self) -> usize {
        self.probe_limit.min(self.tables.max_pieces())
    }

    /// The table's score of `position` at `ply`, if a table answers.
    pub(super) fn probe(&self, position: &Position, ply: usize) -> Option<Score> {
        let wdl = self.tables.search_wdl(position)?;
        self.hits.fetch_add(1, Relaxed);
        let win = TB_WIN - ply as Score;
        Some(match wdl {
            Wdl::Win => win,
            Wdl::Loss => -win,
            Wdl::CursedWin if !self.fifty_move_rule => win,
            Wdl::BlessedLoss if !self.fifty_move_rule => -win,
            // A spoilt win is still better than a dead draw.
            Wdl::CursedWin => DRAW + 1,
            Wdl::BlessedLoss => DRAW - 1,
            Wdl::Draw => DRAW,
        })
    }

    /// The root moves DTZ ranks best among `allowed`, and the score to
    /// report for them; `None` when the root is not in the tables.
    pub(super) fn rank_root(
        &self,
        position: &Position,
        allowed: &[Move],
    ) -> Option<(Vec<Move>, Score)> {
        let moves = self.tables.root_moves(position).ok()?;
        self.hits.fetch_add(moves.len() as u64, Relaxed);
        let counter = position.halfmove_clock() as i32;
        let ranked: Vec<(Move, i32, Dtz)> = moves
            .into_iter()
            .filter(|(mv, _)| allowed.contains(mv))
            .map(|(mv, dtz)| (mv, self.rank(dtz, counter), dtz))
            .collect();
        let best = ranked.iter().map(|&(_, rank, _)| rank).max()?;
        let kept: Vec<Move> = ranked
            .iter()
            .filter(|&&(_, rank, _)| rank == best)
            .map(|&(mv, _, _)| mv)
            .collect();
        let dtz = ranked
            .iter()
            .find(|&&(_, rank, _)| rank == best)
            .map(|&(_, _, dtz)| dtz.0)?;
        let decisive = TB_WIN - dtz.abs().min(MAX_PLY as i32);
        let score = match best {
            r if r > SPOILT_RANK => decisive,
            r if r > 0 => DRAW + 1,
            0 => DRAW,
            r if r >= -SPOILT_RANK => DRAW - 1,
            _ => -decisive,
        };
        Some((kept, score))
    }

    /// A root move's rank (higher is better) from its DTZ after the move
    /// and the fifty-move counter before it: wins that fit in the counter,
    /// soonest first; then spoilt wins; draws; spoilt losses; losses,
    /// longest first.
    fn rank(&self, dtz: Dtz, counter: i32) -> i32 {
        let d = dtz.0;
        let spoilt = |plies: i32| self.fifty_move_rule && plies + counter > 100;
        if d > 0 {
            if spoilt(d) {
                SPOILT_RANK - d
            } else {
                WIN_RANK - d
            }
        } else if d < 0 {
            if spoilt(-d) {
                -SPOILT_RANK - d
            } else {
                -WIN_RANK - d
            }
        } else {
            0
        }
    }
}

const WIN_RANK: i32 = 100_000;
const SPOILT_RANK: i32 = 50_000;

impl super::Searcher<'_> {
    /// The table's score for the current node (below the root) when a
    /// table answers and decides the node, as the node's result; `None`
    /// to search it. Probed only just after a capture or pawn move (WDL's
    /// assumption), and at the largest tables' piece count only from
    /// `SyzygyProbeDepth` on.
    pub(super) fn probe_tablebase(
        &mut self,
        ply: usize,
        depth: i32,
        alpha: Score,
        beta: Score,
    ) -> Option<Score> {
        let pieces = self.pos.occupied().len() as usize;
        if ply == 0
            || pieces > self.tb_cardinality
            || self.pos.halfmove_clock() != 0
            || !self.pos.castling().is_empty()
        {
            return None;
        }
        let limits = self.limits;
        let tablebase = limits.tablebase.as_ref()?;
        if pieces == self.tb_cardinality && depth < tablebase.probe_depth {
            return None;
        }
        let score = tablebase.probe(&self.pos, ply)?;
        // A win is a lower bound (a mate may still be found), a loss an
        // upper bound; a draw, spoilt results included, is exact.
        let bound = if score > DRAW + 1 {
            Bound::Lower
        } else if score < DRAW - 1 {
            Bound::Upper
        } else {
            Bound::Exact
        };
        let decides = match bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
        if !decides {
            return None;
        }
        let eval = self.evaluate();
        let depth = (depth + 6).min(MAX_PLY as i32 - 1);
        self.tt
            .store(self.pos.key(), ply, Move::NULL, score, eval, depth, bound);
        Some(score)
    }
}
