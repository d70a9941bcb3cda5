//! Quiet-move history: how often a quiet move cut off, so the next node
//! tries likely cut moves first.
//!
//! Two tables, summed into one ordering score:
//!
//! * the butterfly table, by side and from/to square: "this move was good
//!   anywhere";
//! * the continuation table, by the piece and target square of a move one,
//!   two or four plies up the line and of this move: "this move was good as
//!   a reply to that move" (one ply up) and "as a follow-up to our own
//!   previous moves" (two and four plies up). A reply to a threat is good
//!   after the move that made the threat and seldom elsewhere; the
//!   butterfly table cannot tell the two apart. One table serves the three
//!   distances, as in Stockfish before it split them: a (piece, square)
//!   pair says much the same whichever of our recent moves it was.
//!
//! Both move towards each bonus with "history gravity", so entries stay
//! within +-[`HISTORY_MAX`] and old news fades.

use crate::types::{Color, Move, Piece};

/// History scores stay within +-HISTORY_MAX (the ordering keeps them below
/// the killers' scores even summed over the four lookups).
pub const HISTORY_MAX: i32 = 16_384;

/// A made move as the continuation table sees it: the moving side and
/// piece and the target square, `(color * 6 + piece) * 64 + to`; 768
/// values, or [`PieceTo::NONE`] for a null move or a move before the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

impl PieceTo {
    /// No move (a null move, or a ply above the root): no continuation.
    /// Its row of the table is never updated, so it reads 0 without a
    /// branch.
    pub const NONE: PieceTo = PieceTo(Self::COUNT as u16);
    const COUNT: usize = 2 * 6 * 64;

    /// The continuation table's index of `current` after `self`.
    #[inline]
    fn index_before(self, current: PieceTo) -> usize {
        usize::from(self.0) * Self::COUNT + usize::from(current.0)
    }

    /// `piece` of `color` moving to `mv`'s target square.
    #[inline]
    pub fn new(color: Color, piece: Piece, mv: Move) -> PieceTo {
        PieceTo(((color.index() * 6 + piece.index()) * 64 + mv.to().index()) as u16)
    }
}

/// The butterfly and continuation tables of one search thread.
pub struct QuietHistory {
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// `continuation[previous * 768 + current]`, flat: 769 x 768 entries
    /// (1.2 MB as `i16`, which holds +-HISTORY_MAX), allocated zeroed on
    /// the heap rather than built on the stack. Row 768 is
    /// [`PieceTo::NONE`]'s and stays 0.
    continuation: Box<[i16]>,
}

impl Default for QuietHistory {
    fn default() -> Self {
        QuietHistory {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            continuation: vec![0; (PieceTo::COUNT + 1) * PieceTo::COUNT].into_boxed_slice(),
        }
    }
}

/// Moves `entry` towards `bonus`'s sign, more slowly the fuller it is
/// ("history gravity"): an entry that starts within +-`limit` stays there
/// while |`bonus`| <= `limit`. The correction history's tables use it too.
#[inline]
pub(super) fn gravity(entry: i32, bonus: i32, limit: i32) -> i32 {
    entry + bonus - entry * bonus.abs() / limit
}

impl QuietHistory {
    /// The butterfly score of `mv` for `color`.
    #[inline]
    pub fn butterfly(&self, color: Color, mv: Move) -> i32 {
        self.butterfly[color.index()][mv.from().index()][mv.to().index()]
    }

    /// The continuation score of `current` after `previous` (0 without
    /// one). Without a branch for [`PieceTo::NONE`]: the branch, with a
    /// test for plies above the root in each lookup, cost 1.8 % more
    /// instructions per node (callgrind, `quince bench -d 9`).
    #[inline]
    pub fn continuation(&self, previous: PieceTo, current: PieceTo) -> i32 {
        i32::from(self.continuation[previous.index_before(current)])
    }

    /// The ordering score of quiet move `mv` (`current`) for `color`, with
    /// `previous` the moves one, two and four plies up the line.
    #[inline]
    pub fn score(&self, color: Color, mv: Move, current: PieceTo, previous: [PieceTo; 3]) -> i32 {
        let after = |previous| self.continuation(previous, current);
        self.butterfly(color, mv) + after(previous[0]) + after(previous[1]) + after(previous[2])
    }

    /// Adds `bonus` (negative: a penalty) to every table's entry of `mv`.
    pub fn update(
        &mut self,
        color: Color,
        mv: Move,
        current: PieceTo,
        previous: [PieceTo; 3],
        bonus: i32,
    ) {
        let entry = &mut self.butterfly[color.index()][mv.from().index()][mv.to().index()];
        *entry = gravity(*entry, bonus, HISTORY_MAX);
        for prev in previous {
            if prev == PieceTo::NONE {
                continue;
            }
            let entry = &mut self.continuation[prev.index_before(current)];
            // In range: gravity keeps the value within +-HISTORY_MAX.
            *entry = gravity(i32::from(*entry), bonus, HISTORY_MAX) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn continuation_scores_only_after_their_move() {
        let pos = Position::startpos();
        let mv = |s: &str| pos.parse_uci(s).unwrap();
        let (reply, other) = (mv("g1f3"), mv("b1c3"));
        let knight = |m| PieceTo::new(Color::White, Piece::Knight, m);
        // Two different previous moves (their colour and piece are all the
        // table sees besides the target square).
        let after_e5 = PieceTo::new(Color::Black, Piece::Pawn, mv("e2e4"));
        let after_d5 = PieceTo::new(Color::Black, Piece::Pawn, mv("d2d4"));
        let mut history = QuietHistory::default();
        for _ in 0..200 {
            history.update(
                Color::White,
                reply,
                knight(reply),
                [after_e5, PieceTo::NONE, PieceTo::NONE],
                400,
            );
            history.update(
                Color::White,
                other,
                knight(other),
                [after_e5, PieceTo::NONE, PieceTo::NONE],
                -400,
            );
        }
        let good = history.continuation(after_e5, knight(reply));
        let bad = history.continuation(after_e5, knight(other));
        assert!((1..=HISTORY_MAX).contains(&good), "{good}");
        assert!((-HISTORY_MAX..0).contains(&bad), "{bad}");
        // Another previous move, or none, has no continuation score.
        assert_eq!(history.continuation(after_d5, knight(reply)), 0);
        assert_eq!(history.continuation(PieceTo::NONE, knight(reply)), 0);
        // The butterfly table saw the same updates, whatever came before.
        assert_eq!(history.butterfly(Color::White, reply), good);
        assert_eq!(
            history.score(
                Color::White,
                reply,
                knight(reply),
                [after_e5, after_d5, PieceTo::NONE]
            ),
            2 * good
        );
    }
}
