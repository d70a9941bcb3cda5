//! Move ordering: alpha-beta cuts off sooner when the best move comes first.
//!
//! Order: the hash move; captures that do not lose material (by SEE), most
//! valuable victim first and least valuable attacker breaking ties
//! (MVV-LVA), with queen promotions among them; the two killer moves of the
//! ply (quiet moves that cut off in a sibling); other quiet moves by history
//! (how often they cut off anywhere, with decay); losing captures; and
//! under-promotions last.

use super::score::MAX_PLY;
use super::see::{SEE_VALUE, captured, see_at_least};
use crate::position::Position;
use crate::types::{Color, Move, Piece};

const HASH_MOVE: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER: [i32; 2] = [1_000_000, 900_000];
const BAD_CAPTURE: i32 = -2_000_000;
const UNDER_PROMOTION: i32 = -3_000_000;
/// History scores stay within +-HISTORY_MAX (below the killers).
const HISTORY_MAX: i32 = 16_384;

/// Killer moves and the history table, kept across the iterations of a search.
pub struct Ordering {
    killers: [[Move; 2]; MAX_PLY + 2],
    history: Box<[[[i32; 64]; 64]; 2]>,
}

impl Default for Ordering {
    fn default() -> Self {
        Ordering {
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            history: Box::new([[[0; 64]; 64]; 2]),
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
            self.history(pos.side_to_move(), mv)
        }
    }

    #[inline]
    fn history(&self, color: Color, mv: Move) -> i32 {
        self.history[color.index()][mv.from().index()][mv.to().index()]
    }

    /// A quiet move cut off at `ply` with `depth` left: make it a killer,
    /// reward it, and penalise the quiet moves tried before it.
    pub fn reward(&mut self, color: Color, mv: Move, failed: &[Move], depth: i32, ply: usize) {
        let killers = &mut self.killers[ply.min(MAX_PLY)];
        if killers[0] != mv {
            killers[1] = killers[0];
            killers[0] = mv;
        }
        let bonus = (depth * depth).min(HISTORY_MAX / 4);
        self.update(color, mv, bonus);
        for &other in failed {
            self.update(color, other, -bonus);
        }
    }

    /// Moves an entry towards the bonus's sign, more slowly the fuller it
    /// is ("history gravity"), so scores stay bounded and old news fades.
    fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        let entry = &mut self.history[color.index()][mv.from().index()][mv.to().index()];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
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
    fn history_rewards_and_stays_bounded() {
        let mut order = Ordering::default();
        let pos = Position::startpos();
        let (a, b) = (
            pos.parse_uci("g1f3").unwrap(),
            pos.parse_uci("a2a3").unwrap(),
        );
        for _ in 0..1000 {
            order.reward(Color::White, a, &[b], 40, 3);
        }
        let (ha, hb) = (
            order.history(Color::White, a),
            order.history(Color::White, b),
        );
        assert!(
            (1..=HISTORY_MAX).contains(&ha) && (-HISTORY_MAX..0).contains(&hb),
            "{ha} {hb}"
        );
        assert!(order.is_killer(a, 3) && !order.is_killer(a, 4));
    }
}
