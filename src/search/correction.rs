//! Correction history: the static evaluation's recent error, remembered by
//! pawn structure and by each side's other pieces, and added back to it.
//!
//! A network misjudges a pawn structure the same way in every position
//! that has it, and the search keeps meeting such positions. Each node
//! whose search result says on which side of the static evaluation the
//! true value lies moves three entries towards that error: one keyed by
//! both sides' pawns and one per colour keyed by that colour's pieces
//! other than pawns. The corrected evaluation then feeds every decision
//! that reads the static evaluation (reverse futility, null move,
//! futility, "improving", quiescence's stand-pat).
//!
//! Quince had a correction history once (removed in 1432ff4): entries
//! averaged towards the error at a fixed rate, in `i32` tables three
//! times this size, tested at 2+0.02 only. This one accumulates
//! depth-scaled steps with history gravity (as in today's engines), so a
//! deep result moves an entry more than a shallow one; it measures the
//! error against the *corrected* evaluation, so the three tables learn
//! what the others have not yet corrected; and its `i16` tables (192 KiB)
//! stay in the L2 cache.

use super::history::gravity;
use super::score::{MATE_BOUND, Score};
use crate::position::Position;
use crate::types::{Color, Piece};

/// Entries per table and colour to move (a power of two).
const ENTRIES: usize = 16_384;
/// Entries hold errors in 1/GRAIN centipawns, so a small step survives.
const GRAIN: i32 = 16;
/// An entry stays within +-LIMIT (+-128 centipawns): history gravity
/// slows it as it fills.
const LIMIT: i32 = 128 * GRAIN;
/// One update moves an entry by at most a quarter of LIMIT.
const MAX_STEP: i32 = LIMIT / 4;

/// The three tables of one search thread, by the side to move.
pub struct CorrectionHistory {
    /// `pawn[side][pawn index]`.
    pawn: Box<[[i16; ENTRIES]; 2]>,
    /// `non_pawn[side][colour][that colour's non-pawn index]`.
    non_pawn: Box<[[[i16; ENTRIES]; 2]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawn: Box::new([[0; ENTRIES]; 2]),
            non_pawn: Box::new([[[0; ENTRIES]; 2]; 2]),
        }
    }
}

/// Where a position's entries are in each table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Keys {
    pawn: usize,
    non_pawn: [usize; 2],
}

/// Reduces a 64-bit mix to a table index: its top bits, which every input
/// bit reaches through the multiplications.
#[inline]
fn to_index(mixed: u64) -> usize {
    (mixed >> (64 - ENTRIES.trailing_zeros())) as usize
}

/// The position's keys, hashed from its bitboards when needed: an
/// incrementally kept pawn key would cost every `make`, perft's included,
/// and these few multiplications are small beside a network evaluation.
#[inline]
fn keys(pos: &Position) -> Keys {
    // Odd 64-bit constants (digits of the golden ratio and of pi's
    // fraction): distinct multipliers keep the boards' contributions apart.
    const M: [u64; 5] = [
        0x9E37_79B9_7F4A_7C15,
        0x243F_6A88_85A3_08D3,
        0x1319_8A2E_0370_7345,
        0xA409_3822_299F_31D1,
        0x082E_FA98_EC4E_6C89,
    ];
    let pawns = |c| pos.colored(c, Piece::Pawn).0;
    let pawn = to_index(
        (pawns(Color::White).wrapping_mul(M[0]) ^ pawns(Color::Black).wrapping_mul(M[1]))
            .wrapping_mul(M[2]),
    );
    let non_pawn = |c| {
        let board = |piece| pos.colored(c, piece).0;
        to_index(
            board(Piece::Knight).wrapping_mul(M[0])
                ^ board(Piece::Bishop).wrapping_mul(M[1])
                ^ board(Piece::Rook).wrapping_mul(M[2])
                ^ board(Piece::Queen).wrapping_mul(M[3])
                ^ board(Piece::King).wrapping_mul(M[4]),
        )
    };
    Keys {
        pawn,
        non_pawn: [non_pawn(Color::White), non_pawn(Color::Black)],
    }
}

/// Moves `entry` by `step`, more slowly the fuller it is (history gravity).
#[inline]
fn step_towards(entry: &mut i16, step: i32) {
    // Within +-LIMIT (< i16::MAX) while |step| <= LIMIT.
    *entry = gravity(i32::from(*entry), step, LIMIT) as i16;
}

impl CorrectionHistory {
    /// `raw` (the static evaluation of `pos`, side to move's view) plus the
    /// tables' correction: the pawn entry in full and the two non-pawn
    /// entries at half weight each (they are finer keys, seen less often).
    #[inline]
    pub fn correct(&self, pos: &Position, raw: Score) -> Score {
        let side = pos.side_to_move().index();
        let k = keys(pos);
        let sum = 2 * i32::from(self.pawn[side][k.pawn])
            + i32::from(self.non_pawn[side][0][k.non_pawn[0]])
            + i32::from(self.non_pawn[side][1][k.non_pawn[1]]);
        // Kept clear of the mate scores, which no evaluation may reach.
        (raw + sum / (2 * GRAIN)).clamp(1 - MATE_BOUND, MATE_BOUND - 1)
    }

    /// Learns from a node of `pos` searched to `depth` whose result `best`
    /// lies on the side of the corrected evaluation `eval` that its bound
    /// allows (the caller checks that): each entry steps towards the error,
    /// by more the deeper the search.
    pub fn update(&mut self, pos: &Position, eval: Score, best: Score, depth: i32) {
        let side = pos.side_to_move().index();
        let k = keys(pos);
        let step = ((best - eval) * GRAIN * depth.min(16) / 32).clamp(-MAX_STEP, MAX_STEP);
        step_towards(&mut self.pawn[side][k.pawn], step);
        step_towards(&mut self.non_pawn[side][0][k.non_pawn[0]], step);
        step_towards(&mut self.non_pawn[side][1][k.non_pawn[1]], step);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_errors_and_stay_bounded() {
        let pos = Position::startpos();
        let mut history = CorrectionHistory::default();
        assert_eq!(history.correct(&pos, 10), 10);
        // The search keeps finding the position 40 cp better than the
        // network says: the correction closes most of the gap, never more.
        for _ in 0..500 {
            let eval = history.correct(&pos, 10);
            history.update(&pos, eval, 50, 8);
        }
        let corrected = history.correct(&pos, 10);
        assert!((40..=50).contains(&corrected), "{corrected}");
        // A huge error is bounded: 128 cp per table, 256 cp in all.
        for _ in 0..2000 {
            history.update(&pos, 0, 5000, 12);
        }
        let bounded = history.correct(&pos, 0);
        assert!((200..=256).contains(&bounded), "{bounded}");
        // The other side to move, and another pawn structure with other
        // pieces, are not corrected.
        let black =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(history.correct(&black, 0), 0);
        let other = Position::from_fen("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1").unwrap();
        assert_eq!(history.correct(&other, 0), 0);
    }

    #[test]
    fn keys_tell_structures_apart() {
        let a = keys(&Position::startpos());
        let b = keys(
            &Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
                .unwrap(),
        );
        let c = keys(
            &Position::from_fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1")
                .unwrap(),
        );
        // A pawn move changes the pawn key only; a knight move, White's
        // non-pawn key only.
        assert_ne!(a.pawn, b.pawn);
        assert_eq!(a.non_pawn, b.non_pawn);
        assert_eq!(a.pawn, c.pawn);
        assert_ne!(a.non_pawn[0], c.non_pawn[0]);
        assert_eq!(a.non_pawn[1], c.non_pawn[1]);
    }
}
