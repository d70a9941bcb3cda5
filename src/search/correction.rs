//! Correction history: the static evaluation's recent error, remembered by
//! pawn structure and by each side's other pieces, added back to it.
//!
//! The hand-written evaluation is wrong in ways that repeat: a pawn
//! structure it misjudges is misjudged in every position that has it. After
//! each search of a node whose result says where the true value lies, the
//! difference between that result and the raw evaluation is averaged into
//! three tables: one indexed by a hash of both sides' pawns, and one per
//! colour indexed by a hash of that colour's non-pawn pieces. A later
//! evaluation of a position sharing those features is corrected by the
//! averages, which makes every eval-based pruning decision (reverse
//! futility, futility, null move) more accurate.

use super::score::Score;
use crate::position::Position;
use crate::types::{Color, Piece};

/// Entries per table (a power of two).
const SIZE: usize = 16_384;
/// Corrections are kept in 1/GRAIN centipawns, so small averages survive.
const GRAIN: i32 = 256;
/// The largest correction one table may hold: 64 centipawns (in GRAIN units).
const LIMIT: i32 = 64 * GRAIN;

/// The three tables, per side to move.
pub struct CorrectionHistory {
    pawn: Box<[[i32; SIZE]; 2]>,
    non_pawn: Box<[[[i32; SIZE]; 2]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawn: Box::new([[0; SIZE]; 2]),
            non_pawn: Box::new([[[0; SIZE]; 2]; 2]),
        }
    }
}

/// A 64-bit mix of two bitboards, reduced to a table index (multiply by
/// odd constants and take the high bits: cheap, and every input bit
/// reaches the index).
#[inline]
fn index(a: u64, b: u64) -> usize {
    let mixed = a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (mixed.wrapping_mul(0x1656_67B1_9E37_79F9) >> (64 - SIZE.trailing_zeros())) as usize
}

/// The indices of `pos` in the pawn table and in both non-pawn tables.
#[inline]
fn indices(pos: &Position) -> (usize, [usize; 2]) {
    let pawns = |c| pos.colored(c, Piece::Pawn).0;
    let pawn = index(pawns(Color::White), pawns(Color::Black));
    let non_pawn = |c: Color| {
        let pieces = pos.color(c).0 & !pos.pieces(Piece::Pawn).0;
        // The occupancy says where, the sliders' and knights' boards what.
        let kinds = (pos.pieces(Piece::Knight).0 ^ pos.pieces(Piece::Rook).0.rotate_left(17))
            ^ (pos.pieces(Piece::Bishop).0 ^ pos.pieces(Piece::Queen).0.rotate_left(31));
        index(pieces, kinds & pieces)
    };
    (pawn, [non_pawn(Color::White), non_pawn(Color::Black)])
}

impl CorrectionHistory {
    /// `raw` (the evaluation of `pos`, side to move's view) corrected.
    #[inline]
    pub fn correct(&self, pos: &Position, raw: Score) -> Score {
        let side = pos.side_to_move().index();
        let (pawn, non_pawn) = indices(pos);
        let total = self.pawn[side][pawn]
            + self.non_pawn[side][0][non_pawn[0]]
            + self.non_pawn[side][1][non_pawn[1]];
        raw + total / GRAIN / 2
    }

    /// Learns from a node searched to `depth` whose result `best` lies on
    /// the side of `raw` its bound allows (the caller checks that).
    pub fn update(&mut self, pos: &Position, raw: Score, best: Score, depth: i32) {
        let side = pos.side_to_move().index();
        let (pawn, non_pawn) = indices(pos);
        let target = ((best - raw) * GRAIN).clamp(-LIMIT, LIMIT);
        // Deeper results weigh more: weight/256 of the way to the target.
        let weight = (depth + 1).min(16);
        let blend = |entry: &mut i32| {
            *entry = (*entry * (256 - weight) + target * weight) / 256;
        };
        blend(&mut self.pawn[side][pawn]);
        blend(&mut self.non_pawn[side][0][non_pawn[0]]);
        blend(&mut self.non_pawn[side][1][non_pawn[1]]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_results_and_stay_bounded() {
        let pos = Position::startpos();
        let mut history = CorrectionHistory::default();
        assert_eq!(history.correct(&pos, 10), 10);
        for _ in 0..2000 {
            history.update(&pos, 10, 60, 12);
        }
        // Each table moves to the +50 cp seen; their sum is halved: +75 cp.
        let corrected = history.correct(&pos, 10);
        assert!((75..=85).contains(&corrected), "{corrected}");
        // A huge error is clamped: at most 64 cp per table, 96 cp in all.
        for _ in 0..2000 {
            history.update(&pos, 0, 5000, 12);
        }
        let clamped = history.correct(&pos, 0);
        assert!((90..=96).contains(&clamped), "{clamped}");
        // Another pawn structure is not affected.
        let other = Position::from_fen("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1").unwrap();
        assert_eq!(history.correct(&other, 0), 0);
    }
}
