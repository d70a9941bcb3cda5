//! The search as one call, for library code that wants a move and its
//! score without the protocol's machinery (hash table, signals, progress
//! callback): [`best_move`] and [`best_move_with_history`].

use super::limits::{Limits, Signals};
use super::score::{Score, mate_moves};
use super::tt::TranspositionTable;
use super::{Report, search};
use crate::position::Position;
use crate::types::Move;
use std::fmt;

/// The transposition table of a one-call search, in MB: enough for
/// searches of a few seconds, small enough to allocate per call.
const TABLE_MB: usize = 16;

/// The depth searched when the limits given to [`best_move`] would never
/// end by themselves (`infinite`, `ponder`, or no limit): this call has
/// no `stop` to wait for.
pub const UNBOUNDED_DEPTH: i32 = 12;

/// A score as people read it, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Centipawns: 100 is about a pawn ahead.
    Cp(i32),
    /// Mate in this many moves: positive when the side to move mates,
    /// negative (or zero, mated now) when it is mated.
    Mate(i32),
}

impl Value {
    /// The typed value of a raw search score ([`super::score`]).
    pub fn from_score(score: Score) -> Value {
        match mate_moves(score) {
            Some(moves) => Value::Mate(moves),
            None => Value::Cp(score),
        }
    }
}

/// Prints the value as UCI does: `cp 35`, `mate 3`, `mate -2`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Cp(cp) => write!(f, "cp {cp}"),
            Value::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

/// What a one-call search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (a legal move of the searched position).
    pub best: Move,
    /// The score of `best` for the side to move.
    pub value: Value,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// The expected reply, if the search knows one.
    pub ponder: Option<Move>,
    /// The last completed depth.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Searches `pos` within `limits` and returns the best move, its value and
/// the principal variation; `None` when the side to move has no legal move
/// (checkmate or stalemate).
///
/// Each call has its own small transposition table; a program that
/// searches many positions in a row, or needs `stop`, calls
/// [`super::search`] with its own table and [`Signals`].
///
/// ```
/// use quince::Position;
/// use quince::search::{Limits, Value, best_move};
/// let pos: Position = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1".parse().unwrap();
/// let found = best_move(&pos, Limits::depth(4)).expect("White has moves");
/// assert_eq!(pos.uci(found.best), "d1d8");
/// assert_eq!(found.value, Value::Mate(1));
/// ```
pub fn best_move(pos: &Position, limits: Limits) -> Option<SearchResult> {
    best_move_with_history(pos, &[], limits)
}

/// [`best_move`] in a game: `history` holds the Zobrist keys of the
/// positions before `pos`, oldest first (what
/// [`crate::Game::history_keys`] gives; [`crate::Game::best_move`] calls
/// this), so that the search sees repetitions.
pub fn best_move_with_history(
    pos: &Position,
    history: &[u64],
    mut limits: Limits,
) -> Option<SearchResult> {
    if !crate::movegen::has_legal_move(pos) {
        return None;
    }
    limits.infinite = false;
    limits.ponder = false;
    if !limits.is_bounded() {
        limits.depth = Some(UNBOUNDED_DEPTH);
    }
    let mut table = TranspositionTable::new(TABLE_MB)?;
    let mut line: Vec<Move> = Vec::new();
    let mut keep_line = |report: &Report| {
        if report.multi_pv == 1 && report.bound.is_none() {
            line = report.pv.clone();
        }
    };
    let outcome = search(
        pos,
        history,
        &mut table,
        &limits,
        &Signals::default(),
        &mut keep_line,
    );
    if line.first() != Some(&outcome.best) {
        line = vec![outcome.best];
    }
    Some(SearchResult {
        best: outcome.best,
        value: Value::from_score(outcome.score),
        pv: line,
        ponder: outcome.ponder,
        depth: outcome.depth,
        nodes: outcome.nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_move_no_result_and_mates_are_typed() {
        let mated: Position = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1".parse().unwrap();
        assert_eq!(best_move(&mated, Limits::depth(3)), None);
        let pos: Position = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1".parse().unwrap();
        let found = best_move(&pos, Limits::nodes(20_000)).unwrap();
        assert_eq!(found.value, Value::Mate(1));
        assert_eq!(found.pv.first(), Some(&found.best));
        assert_eq!(found.value.to_string(), "mate 1");
    }

    #[test]
    fn an_unbounded_limit_still_returns() {
        let pos = Position::startpos();
        let found = best_move(&pos, Limits::infinite()).unwrap();
        assert_eq!(found.depth, UNBOUNDED_DEPTH);
        assert!(pos.is_legal(found.best));
        assert!(matches!(found.value, Value::Cp(cp) if cp.abs() < 200));
    }

    #[test]
    fn history_is_seen_draws_by_repetition() {
        // White is a rook down. With the game's history, Kg1 goes back to a
        // position seen twice already (Kg1 Kh8 Kh1 Kg8 was played twice):
        // a threefold repetition, which the losing side takes.
        let start: Position = "6k1/8/8/8/8/8/r7/7K w - - 0 1".parse().unwrap();
        let mut pos = start.clone();
        let mut history = Vec::new();
        for text in ["h1g1", "g8h8", "g1h1", "h8g8"].repeat(2) {
            history.push(pos.key());
            pos = pos.play(pos.parse_uci(text).unwrap()).unwrap();
        }
        assert_eq!(pos.key(), start.key());
        let alone = best_move(&pos, Limits::depth(6)).unwrap();
        assert!(
            matches!(alone.value, Value::Cp(cp) if cp < -200),
            "{alone:?}"
        );
        let in_game = best_move_with_history(&pos, &history, Limits::depth(6)).unwrap();
        assert_eq!(in_game.value, Value::Cp(0), "{in_game:?}");
        assert_eq!(pos.uci(in_game.best), "h1g1");
    }
}
