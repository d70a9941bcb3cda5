//! Score units and mate encoding.
//!
//! Scores are centipawns from the side to move's point of view. A mate is
//! `MATE - plies` for the side that mates and `-(MATE - plies)` for the side
//! that is mated, so shorter mates score higher and every mate score lies
//! beyond `MATE_BOUND`, far outside any evaluation.

/// A search score.
pub type Score = i32;

/// The deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 128;
/// Being checkmated at the root.
pub const MATE: Score = 32_000;
/// Above every real score; the initial window.
pub const INFINITY: Score = 32_001;
/// Scores at or beyond this are mates.
pub const MATE_BOUND: Score = MATE - MAX_PLY as Score;
/// The score of a draw (stalemate, repetition, the fifty-move rule, dead
/// material): zero, since the engine uses no contempt.
pub const DRAW: Score = 0;

/// The score of being mated `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> Score {
    -MATE + ply as Score
}

/// Whether `score` announces a mate for either side.
#[inline]
pub const fn is_mate(score: Score) -> bool {
    score >= MATE_BOUND || score <= -MATE_BOUND
}

/// Full moves to mate for UCI's `score mate N`: positive when the side to
/// move mates, negative when it is mated. `None` for ordinary scores.
pub fn mate_moves(score: Score) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-((MATE + score) / 2))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distances_in_moves() {
        assert_eq!(mate_moves(MATE - 1), Some(1));
        assert_eq!(mate_moves(MATE - 3), Some(2));
        assert_eq!(mate_moves(-MATE), Some(0));
        assert_eq!(mate_moves(-MATE + 2), Some(-1));
        assert_eq!(mate_moves(150), None);
        assert!(is_mate(mated_in(10)));
    }
}
