//! Move ordering: alpha-beta cuts off sooner when the best move comes first.
//!
//! Order: the hash move; captures that do not lose material (by SEE), most
//! valuable victim first and least valuable attacker breaking ties
//! (MVV-LVA), with queen promotions among them; the two killer moves of the
//! ply (quiet moves that cut off in a sibling); other quiet moves by history
//! (how often they cut off, anywhere and after the moves one, two and four
//! plies up the line, with decay: the `history` module); losing captures;
//! and
//! under-promotions last.

use super::history::{HISTORY_MAX, PieceTo, QuietHistory};
use super::score::MAX_PLY;
use super::see::{SEE_VALUE, captured, see_at_least};
use crate::position::Position;
use crate::types::{Move, Piece};

const HASH_MOVE: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER: [i32; 2] = [1_000_000, 900_000];
const BAD_CAPTURE: i32 = -2_000_000;
const UNDER_PROMOTION: i32 = -3_000_000;
/// A quiet move's score until its history is looked up: below the killers
/// and above every history score (at most 4 x HISTORY_MAX), so it is picked
/// only once the hash move, the good captures and the killers are tried.
pub const UNSCORED_QUIET: i32 = 500_000;
/// How far back the continuation history looks (four plies).
const PATH_ABOVE_ROOT: usize = 4;

/// Killer moves and the history tables, kept across the iterations of a
/// search, and the line's made moves the continuation history looks up.
pub struct Ordering {
    killers: [[Move; 2]; MAX_PLY + 2],
    history: QuietHistory,
    /// `path[ply + PATH_ABOVE_ROOT]`: the move made at `ply` on the
    /// current line; the first PATH_ABOVE_ROOT entries stay
    /// [`PieceTo::NONE`], so looking back from the root needs no test.
    path: [PieceTo; MAX_PLY + 2 + PATH_ABOVE_ROOT],
}

impl Default for Ordering {
    fn default() -> Self {
        Ordering {
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            history: QuietHistory::default(),
            path: [PieceTo::NONE; MAX_PLY + 2 + PATH_ABOVE_ROOT],
        }
    }
}

/// Whether `mv` changes material (capture or promotion): not a quiet move.
#[inline]
pub fn is_tactical(pos: &Position, mv: Move) -> bool {
    mv.promotion().is_some() || captured(pos, mv).is_some()
}

/// MVV-LVA: victim value first, attacker value as tie-break.
#[inline]
pub fn mvv_lva(pos: &Position, mv: Move) -> i32 {
    let victim = captured(pos, mv).map_or(0, |p| SEE_VALUE[p.index()]);
    let attacker = pos.piece_on(mv.from()).map_or(0, |p| p.index() as i32);
    victim * 8 - attacker
}

impl Ordering {
    /// The ordering score of `mv` at `ply` (higher first).
    pub fn score(&self, pos: &Position, mv: Move, tt_move: Move, ply: usize) -> i32 {
        match self.score_deferring_quiets(pos, mv, tt_move, ply) {
            UNSCORED_QUIET => self.history(pos, mv, ply),
            score => score,
        }
    }

    /// The ordering score of `mv` at `ply`, or [`UNSCORED_QUIET`] for a
    /// quiet move ordered by history: its four history lookups wait until
    /// the search reaches the quiet moves ([`Ordering::score_quiets`]),
    /// which a node that cuts off on the hash move, a capture or a killer
    /// never does. With every quiet move scored up front, the continuation
    /// history cost 7.9 % more instructions per node than the butterfly
    /// table alone; deferred, 3.4 % (callgrind, `quince bench -d 9`).
    pub fn score_deferring_quiets(
        &self,
        pos: &Position,
        mv: Move,
        tt_move: Move,
        ply: usize,
    ) -> i32 {
        if mv == tt_move {
            return HASH_MOVE;
        }
        match mv.promotion() {
            Some(Piece::Queen) => return GOOD_CAPTURE + SEE_VALUE[4] * 8 + mvv_lva(pos, mv),
            Some(_) => return UNDER_PROMOTION + mvv_lva(pos, mv),
            None => {}
        }
        if captured(pos, mv).is_some() {
            let base = if see_at_least(pos, mv, 0) {
                GOOD_CAPTURE
            } else {
                BAD_CAPTURE
            };
            return base + mvv_lva(pos, mv);
        }
        let killers = &self.killers[ply.min(MAX_PLY)];
        if mv == killers[0] {
            KILLER[0]
        } else if mv == killers[1] {
            KILLER[1]
        } else {
            UNSCORED_QUIET
        }
    }

    /// Replaces every [`UNSCORED_QUIET`] in `scores` (those of `moves`,
    /// at `ply`) with the move's history score.
    pub fn score_quiets(&self, pos: &Position, moves: &[Move], scores: &mut [i32], ply: usize) {
        let color = pos.side_to_move();
        let previous = self.previous(ply);
        for (score, &mv) in scores.iter_mut().zip(moves) {
            if *score == UNSCORED_QUIET {
                *score = self.history.score(color, mv, piece_to(pos, mv), previous);
            }
        }
    }

    /// The moves one, two and four plies above `ply` on the current line.
    #[inline(always)]
    fn previous(&self, ply: usize) -> [PieceTo; 3] {
        let here = ply.min(MAX_PLY + 1) + PATH_ABOVE_ROOT;
        [
            self.path[here - 1],
            self.path[here - 2],
            self.path[here - 4],
        ]
    }

    /// The history score of quiet move `mv` at `ply`: the butterfly and
    /// the three continuation entries summed (within +-4 x HISTORY_MAX).
    #[inline(always)]
    fn history(&self, pos: &Position, mv: Move, ply: usize) -> i32 {
        let color = pos.side_to_move();
        self.history
            .score(color, mv, piece_to(pos, mv), self.previous(ply))
    }

    /// Notes that `mv` is made at `ply` (`Move::NULL`: a null move), for
    /// the continuation history of the plies below. Call before making it.
    #[inline]
    pub fn record(&mut self, pos: &Position, mv: Move, ply: usize) {
        let entry = if mv == Move::NULL {
            PieceTo::NONE
        } else {
            piece_to(pos, mv)
        };
        self.path[ply.min(MAX_PLY + 1) + PATH_ABOVE_ROOT] = entry;
    }

    /// A quiet move cut off at `ply` with `depth` left: make it a killer,
    /// reward it, and penalise the quiet moves tried before it.
    pub fn reward(&mut self, pos: &Position, mv: Move, failed: &[Move], depth: i32, ply: usize) {
        let killers = &mut self.killers[ply.min(MAX_PLY)];
        if killers[0] != mv {
            killers[1] = killers[0];
            killers[0] = mv;
        }
        let color = pos.side_to_move();
        let previous = self.previous(ply);
        let bonus = history_bonus(depth);
        self.history
            .update(color, mv, piece_to(pos, mv), previous, bonus);
        for &other in failed {
            self.history
                .update(color, other, piece_to(pos, other), previous, -bonus);
        }
    }

    /// Whether `mv` is one of the killers at `ply`.
    pub fn is_killer(&self, mv: Move, ply: usize) -> bool {
        self.killers[ply.min(MAX_PLY)].contains(&mv)
    }

    /// Killers of plies beyond `ply` are stale in a new iteration.
    pub fn clear_killers(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 2];
    }
}

/// The history part of a quiet move's ordering score: the score itself for
/// a move ordered by history, 0 for the hash move and the killers (whose
/// scores are constants far outside the history's range).
#[inline]
pub fn history_in(score: i32) -> i32 {
    if score.abs() <= 4 * HISTORY_MAX {
        score
    } else {
        0
    }
}

/// The history bonus of a cut-off with `depth` left (the penalty of the
/// quiet moves tried before it): linear in depth, from 50 at depth 1 to
/// 2,450 from depth 9, as today's engines have it. The square of the depth
/// it replaces gave a cut-off at depth 1 to 4 a bonus of 1 to 16, which
/// barely moved the 768 x 768 continuation entries, most of whose
/// updates come from such shallow nodes.
#[inline]
fn history_bonus(depth: i32) -> i32 {
    (300 * depth - 250).clamp(0, 2450)
}

/// `mv` as the continuation history sees it (before it is made).
#[inline]
fn piece_to(pos: &Position, mv: Move) -> PieceTo {
    let piece = pos.piece_on(mv.from()).unwrap_or(Piece::Pawn);
    PieceTo::new(pos.side_to_move(), piece, mv)
}

/// Moves the best-scored move of `moves[start..]` to `start` (a selection
/// sort step: the whole list is rarely needed after a cutoff).
///
/// Two passes: the highest score (a plain maximum, which the compiler
/// turns into vector code), then the first move with it. One pass that
/// tracks the index of the best so far is a dependent compare-and-select
/// per move; the two passes pick the same move with fewer instructions.
#[inline]
pub fn pick(moves: &mut [Move], scores: &mut [i32], start: usize) {
    let rest = &scores[start..];
    let best_score = rest.iter().copied().fold(i32::MIN, i32::max);
    let best = start + rest.iter().position(|&s| s == best_score).unwrap_or(0);
    moves.swap(start, best);
    scores.swap(start, best);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_move_then_good_captures_then_quiets_then_bad_captures() {
        // White: Qd1xd5 loses the queen to e6xd5; Nc3xd5 wins a pawn... also
        // defended, so Nxd5 exd5 is knight for pawn; b2-b3 is quiet.
        let pos = Position::from_fen("4k3/8/4p3/3p4/8/2N5/1P6/3QK3 w - - 0 1").unwrap();
        let order = Ordering::default();
        let mv = |s: &str| pos.parse_uci(s).unwrap();
        let quiet = order.score(&pos, mv("b2b3"), Move::NULL, 0);
        let bad_q = order.score(&pos, mv("d1d5"), Move::NULL, 0);
        let bad_n = order.score(&pos, mv("c3d5"), Move::NULL, 0);
        assert!(quiet > bad_n && bad_n > bad_q);
        assert_eq!(order.score(&pos, mv("b2b3"), mv("b2b3"), 0), HASH_MOVE);
        let good = Position::from_fen("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1").unwrap();
        let capture = good.parse_uci("c3d5").unwrap();
        assert!(order.score(&good, capture, Move::NULL, 0) > KILLER[0]);
    }

    #[test]
    fn deferred_quiet_scores_are_the_eager_ones() {
        let pos = Position::from_fen("4k3/8/4p3/3p4/8/2N5/1P6/3QK3 w - - 0 1").unwrap();
        let mut order = Ordering::default();
        let mv = |s: &str| pos.parse_uci(s).unwrap();
        // Some history and a continuation: b2-b3 cut off after a knight move
        // one ply up; c3-e4 failed before it.
        order.record(&pos, mv("c3b5"), 2);
        order.reward(&pos, mv("b2b3"), &[mv("c3e4")], 6, 3);
        let moves = crate::movegen::legal_moves(&pos);
        let moves = moves.as_slice();
        let eager: Vec<i32> = moves
            .iter()
            .map(|&m| order.score(&pos, m, Move::NULL, 3))
            .collect();
        let mut deferred: Vec<i32> = moves
            .iter()
            .map(|&m| order.score_deferring_quiets(&pos, m, Move::NULL, 3))
            .collect();
        assert!(deferred.contains(&UNSCORED_QUIET));
        assert!(
            deferred
                .iter()
                .all(|&s| s == UNSCORED_QUIET || eager.contains(&s))
        );
        order.score_quiets(&pos, moves, &mut deferred, 3);
        assert_eq!(deferred, eager);
        // The reward reached the continuation entry: b2-b3 (now a killer,
        // so asked for its history directly) has its bonus twice, once in
        // the butterfly table and once after the knight move; c3-e4 was
        // penalised in both.
        let bonus = history_bonus(6);
        assert_eq!(order.history(&pos, mv("b2b3"), 3), 2 * bonus);
        assert_eq!(order.history(&pos, mv("c3e4"), 3), -2 * bonus);
        assert_eq!(order.score(&pos, mv("b2b3"), Move::NULL, 3), KILLER[0]);
    }

    #[test]
    fn history_rewards_and_stays_bounded() {
        let mut order = Ordering::default();
        let pos = Position::startpos();
        let (a, b) = (
            pos.parse_uci("g1f3").unwrap(),
            pos.parse_uci("a2a3").unwrap(),
        );
        for _ in 0..1000 {
            order.reward(&pos, a, &[b], 40, 3);
        }
        let (ha, hb) = (order.history(&pos, a, 3), order.history(&pos, b, 3));
        assert!(
            (1..=HISTORY_MAX).contains(&ha) && (-HISTORY_MAX..0).contains(&hb),
            "{ha} {hb}"
        );
        assert!(order.is_killer(a, 3) && !order.is_killer(a, 4));
    }
}
