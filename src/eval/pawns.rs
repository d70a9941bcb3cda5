//! Pawn structure: passed, doubled and isolated pawns.
//!
//! The weights are this engine's own, hand-set in the usual ranges (isolated
//! and doubled pawns cost about a tenth of a pawn in the middlegame and more
//! in the endgame; passed pawns gain steeply with their rank) and not tuned.
//! PeSTO's pawn table already rewards advanced pawns, so the passed-pawn
//! bonus is kept moderate.

use super::pst::Pair;
use crate::position::Position;
use crate::types::{Bitboard, Color, Piece, Square};

const DOUBLED: Pair = (-10, -20);
const ISOLATED: Pair = (-10, -15);
/// Indexed by the pawn's rank counted from its own side (0 = first rank).
const PASSED_MG: [i32; 8] = [0, 0, 5, 10, 20, 35, 60, 0];
const PASSED_EG: [i32; 8] = [0, 5, 10, 20, 40, 70, 110, 0];

/// The ranks strictly in front of `square` from `color`'s point of view.
#[inline]
pub fn ranks_ahead(color: Color, square: Square) -> Bitboard {
    let rank = square.rank().index();
    match color {
        Color::White if rank < 7 => Bitboard(!0u64 << (8 * (rank + 1))),
        Color::Black => Bitboard((1u64 << (8 * rank)) - 1),
        Color::White => Bitboard::EMPTY,
    }
}

/// The files left and right of `file` (0..8).
#[inline]
pub fn adjacent_files(file: usize) -> Bitboard {
    let mut set = Bitboard::EMPTY;
    if file > 0 {
        set |= Bitboard::file(file - 1);
    }
    if file < 7 {
        set |= Bitboard::file(file + 1);
    }
    set
}

/// Whether `color`'s pawn on `square` has no enemy pawn in front of it on
/// its own or an adjacent file.
#[inline]
pub fn is_passed(pos: &Position, color: Color, square: Square) -> bool {
    let file = square.file().index();
    let span = (Bitboard::file(file) | adjacent_files(file)) & ranks_ahead(color, square);
    (span & pos.colored(color.flip(), Piece::Pawn)).is_empty()
}

/// The pawn-structure terms of `color`.
pub fn structure(pos: &Position, color: Color) -> Pair {
    let ours = pos.colored(color, Piece::Pawn);
    let mut sum: Pair = (0, 0);
    for square in ours {
        let file = square.file().index();
        let ahead_on_file = Bitboard::file(file) & ranks_ahead(color, square);
        let doubled = (ahead_on_file & ours).is_nonempty();
        if doubled {
            sum.0 += DOUBLED.0;
            sum.1 += DOUBLED.1;
        }
        if (adjacent_files(file) & ours).is_empty() {
            sum.0 += ISOLATED.0;
            sum.1 += ISOLATED.1;
        }
        // Only the front pawn of a doubled pair counts as passed.
        if !doubled && is_passed(pos, color, square) {
            let rank = relative_rank(color, square);
            sum.0 += PASSED_MG[rank];
            sum.1 += PASSED_EG[rank];
        }
    }
    sum
}

/// The rank of `square` counted from `color`'s first rank (0..8).
#[inline]
pub fn relative_rank(color: Color, square: Square) -> usize {
    match color {
        Color::White => square.rank().index(),
        Color::Black => 7 - square.rank().index(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passed_doubled_isolated() {
        // White: a2 isolated; c4 c5 doubled (c5 is the front pawn) and passed;
        // Black: h7 blocks nothing on the queenside.
        let pos = Position::from_fen("4k3/7p/8/2P5/2P5/8/P7/4K3 w - - 0 1").unwrap();
        let c5 = Square::parse("c5").unwrap();
        let c4 = Square::parse("c4").unwrap();
        assert!(is_passed(&pos, Color::White, c5));
        assert!(is_passed(&pos, Color::Black, Square::parse("h7").unwrap()));
        assert!(
            (ranks_ahead(Color::White, c4) & pos.colored(Color::White, Piece::Pawn)).contains(c5)
        );
        let (mg, eg) = structure(&pos, Color::White);
        // a2: isolated + passed(rank 1); c4: doubled + isolated; c5: isolated + passed(rank 4).
        let expected_mg = 3 * ISOLATED.0 + DOUBLED.0 + PASSED_MG[1] + PASSED_MG[4];
        let expected_eg = 3 * ISOLATED.1 + DOUBLED.1 + PASSED_EG[1] + PASSED_EG[4];
        assert_eq!((mg, eg), (expected_mg, expected_eg));
    }
}
