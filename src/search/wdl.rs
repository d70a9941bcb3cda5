//! Win, draw and loss chances from a score, what `UCI_ShowWDL` reports:
//! `info ... wdl W D L`, in per mille, from the side to move's view.
//!
//! The model: with `s` the score in centipawns (side to move) and `m` the
//! material left as a share of the start's (pawn 1, knight and bishop 3,
//! rook 5, queen 9, both sides: 78 at the start),
//!
//! ```text
//! P(win)  = sigmoid((s - a) / b)      a = a0 + a1 m
//! P(loss) = sigmoid((-s - a) / b)     b = b0 + b1 m
//! P(draw) = 1 - P(win) - P(loss)
//! ```
//!
//! so a score means more (a smaller `b`) and a draw is likelier (a larger
//! `a`) as the board empties or fills. The four constants are fitted by
//! maximum likelihood on the self-play data sets' game results against
//! their searched scores (`quince-train wdl`); [`MODEL`] holds the fit
//! recorded in `reports/data/wdl-model.json`, and a test holds the two
//! equal. Mate scores are certain: a won mate is all wins.

use crate::position::Position;
use crate::search::score::mate_moves;
use crate::types::Piece;

/// The four constants of the model (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// `a = a[0] + a[1] m`: how far from even a score must be before a win
    /// is as likely as not, in centipawns.
    pub a: [f64; 2],
    /// `b = b[0] + b[1] m`: how spread out the win chance is around `a`.
    pub b: [f64; 2],
}

/// The fitted model (`reports/data/wdl-model.json`).
pub const MODEL: WdlModel = WdlModel {
    a: [466.11, -372.73],
    b: [137.80, 79.65],
};

/// The material of the start position in pawns (both sides).
const START_MATERIAL: f64 = 78.0;

/// The material left in `pos` as a share of the start's, at most 1.
pub fn material_share(pos: &Position) -> f64 {
    let count = |piece: Piece| f64::from(pos.pieces(piece).len());
    let pawns = count(Piece::Pawn)
        + 3.0 * (count(Piece::Knight) + count(Piece::Bishop))
        + 5.0 * count(Piece::Rook)
        + 9.0 * count(Piece::Queen);
    (pawns / START_MATERIAL).min(1.0)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl WdlModel {
    /// `[win, draw, loss]` chances of a centipawn score `score` at material
    /// share `material` (side to move's view).
    pub fn probabilities(&self, score: f64, material: f64) -> [f64; 3] {
        let a = self.a[0] + self.a[1] * material;
        // A spread of at least a centipawn keeps a bad fit finite.
        let b = (self.b[0] + self.b[1] * material).max(1.0);
        let win = sigmoid((score - a) / b);
        let loss = sigmoid((-score - a) / b);
        let draw = (1.0 - win - loss).max(0.0);
        let total = win + draw + loss;
        [win / total, draw / total, loss / total]
    }

    /// The chances of a search score (centipawns or mate, as the search
    /// reports it) in `pos`, in per mille summing to 1000: UCI's
    /// `wdl W D L`.
    pub fn per_mille(&self, score: i32, pos: &Position) -> [u32; 3] {
        if let Some(moves) = mate_moves(score) {
            return if moves > 0 {
                [1000, 0, 0]
            } else {
                [0, 0, 1000]
            };
        }
        let [w, _, l] = self.probabilities(f64::from(score), material_share(pos));
        let win = (w * 1000.0).round() as u32;
        let loss = ((l * 1000.0).round() as u32).min(1000 - win);
        [win, 1000 - win - loss, loss]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn chances_sum_to_a_thousand_and_follow_the_score() {
        let pos = Position::startpos();
        for score in [-2000, -300, -50, 0, 50, 300, 2000] {
            let [w, d, l] = MODEL.per_mille(score, &pos);
            assert_eq!(w + d + l, 1000, "{score}");
        }
        let even = MODEL.per_mille(0, &pos);
        assert_eq!(even[0], even[2], "an even score is symmetric");
        let up = MODEL.per_mille(300, &pos);
        let down = MODEL.per_mille(-300, &pos);
        assert!(up[0] > even[0] && up[2] < even[2]);
        assert_eq!(up, [down[2], down[1], down[0]]);
        assert_eq!(MODEL.per_mille(MATE - 3, &pos), [1000, 0, 0]);
        assert_eq!(MODEL.per_mille(-MATE + 4, &pos), [0, 0, 1000]);
        assert!((material_share(&pos) - 1.0).abs() < 1e-9);
    }
}
