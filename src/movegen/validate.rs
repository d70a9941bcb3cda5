//! Whether a move that comes from elsewhere (a user's input, a book, a
//! transposition table that may hold another position's move after a key
//! collision) is legal here, answered without listing the position's
//! moves: it looks at the one piece, its reach and the king's check and
//! pin lines. The rare kinds, castling and e.p., are left to the full
//! generator. [`Position::is_legal`] answers through it.
//!
//! A search that tries the hash move before generating anything needs this
//! test to be much cheaper than a generation; that search was tried and
//! its SPRT left undecided (`reports/strength.md`, "The hash move before
//! generation").

use super::legal::{forward, third_rank};
use super::{legal_moves, promotion_rank};
use crate::position::Position;
use crate::sliders::{bishop_attacks, rook_attacks};
use crate::tables::{between, king_attacks, knight_attacks, line, pawn_attacks};
use crate::types::{Bitboard, Move, Piece};

/// Whether `mv`, any 16 bits at all, is one of `pos`'s legal moves:
/// exactly `legal_moves(pos).contains(&mv)` (a test compares the two on
/// every move of the perft suites' positions and on moves that are not).
///
/// ```
/// use quince::{Position, movegen, types::Move};
/// let pos = Position::startpos();
/// let e4 = pos.parse_uci("e2e4").unwrap();
/// assert!(movegen::is_legal(&pos, e4));
/// assert!(!movegen::is_legal(&pos.play_unchecked(e4), e4));
/// assert!(!movegen::is_legal(&pos, Move::from_bits(0xffff)));
/// ```
pub fn is_legal(pos: &Position, mv: Move) -> bool {
    let us = pos.side_to_move();
    let own = pos.color(us);
    let (from, to) = (mv.from(), mv.to());
    if !own.contains(from) {
        return false;
    }
    let Some(piece) = pos.piece_on(from) else {
        return false;
    };
    let castles = piece == Piece::King && own.contains(to);
    let en_passant = piece == Piece::Pawn && pos.en_passant() == Some(to);
    if castles || en_passant {
        return legal_moves(pos).contains(&mv);
    }
    if own.contains(to) {
        return false;
    }
    let promotion_bits = mv.bits() >> 12;
    let promotes = piece == Piece::Pawn && promotion_rank(us).contains(from);
    // A promotion names a knight, bishop, rook or queen (1 to 4); every
    // other move names none (the list holds no other bits).
    let promotion_ok = if promotes {
        (1..=4).contains(&promotion_bits)
    } else {
        promotion_bits == 0
    };
    if !promotion_ok {
        return false;
    }
    let occupied = pos.occupied();
    let from_bit = Bitboard::from_square(from);
    let reach = match piece {
        Piece::Pawn => {
            let one = forward(us, from_bit) & !occupied;
            let two = forward(us, one & third_rank(us)) & !occupied;
            (pawn_attacks(us, from) & pos.color(us.flip())) | one | two
        }
        Piece::Knight => knight_attacks(from),
        Piece::Bishop => bishop_attacks(from, occupied),
        Piece::Rook => rook_attacks(from, occupied),
        Piece::Queen => bishop_attacks(from, occupied) | rook_attacks(from, occupied),
        // The king may step anywhere not attacked once it has left its
        // square (a checking slider's ray goes through it), check or not.
        Piece::King => {
            return king_attacks(from).contains(to)
                && !pos.is_attacked(to, us.flip(), occupied ^ from_bit);
        }
    };
    if !reach.contains(to) {
        return false;
    }
    let info = pos.check_info();
    let king = pos.king(us);
    if let Some(checker) = info.checkers.first() {
        // In double check only the king moves; in single check the move
        // must take the checker or block its line.
        let evasions = between(king, checker) | Bitboard::from_square(checker);
        if info.checkers.has_several() || !evasions.contains(to) {
            return false;
        }
    }
    !info.pinned.contains(from) || line(king, from).contains(to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{suite_fens, with_children};
    use crate::types::Square;

    /// `is_legal` against the list, for every origin of the side to move's
    /// pieces, every destination and every promotion field (0-7), on
    /// every third suite position and child (Chess960 included); and for
    /// the moves of each position's parent, the likeliest wrong hash moves.
    #[test]
    fn agrees_with_the_legal_list() {
        let (mut asked, mut legal) = (0u64, 0u64);
        for fen in suite_fens() {
            let family = with_children(fen);
            let parent_moves = legal_moves(&family[0]);
            for pos in family.iter().step_by(3) {
                let list = legal_moves(pos);
                let mut check = |mv: Move| {
                    let expected = list.contains(&mv);
                    assert_eq!(
                        is_legal(pos, mv),
                        expected,
                        "{} {mv:?} ({:#06x})",
                        pos.fen(),
                        mv.bits()
                    );
                    asked += 1;
                    legal += u64::from(expected);
                };
                for from in pos.color(pos.side_to_move()) {
                    for to in 0..64 {
                        for promotion in 0..8u16 {
                            let base = Move::new(from, Square::new(to), None);
                            check(Move::from_bits(base.bits() | promotion << 12));
                        }
                    }
                }
                parent_moves.iter().for_each(|&mv| check(mv));
            }
        }
        assert!(
            asked > 1_000_000 && legal > 30_000,
            "{asked} asked, {legal} legal"
        );
    }
}
