//! Pseudo-legal move generation: every move the pieces can make, ignoring
//! whether the own king is left in check. The base of the `pseudo` and
//! `king-capture` legality strategies (see `perft::strategy`).

use super::legal::{forward, third_rank};
use super::{PieceMoves, promotion_rank};
use crate::position::Position;
use crate::sliders::{bishop_attacks, rook_attacks};
use crate::tables::{
    between, castling_empty, castling_king_path, king_attacks, knight_attacks, pawn_attacks,
};
use crate::types::{Bitboard, Color, Piece, Square};

/// How much of castling's legality the generator itself checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingCheck {
    /// Full check: not in check, no attacked square on the king's path
    /// (what a pseudo-legal generator usually does, as a make-and-test of
    /// the destination alone cannot see the path).
    Attacks,
    /// Rights and empty squares only; the reply refutes castling through or
    /// out of check by "capturing" the squares the king left or passed
    /// (micro-Max's scheme).
    EmptySquaresOnly,
}

/// Calls `visit` with every non-empty batch of pseudo-legal moves; `visit`
/// returns `true` to stop. Returns whether it stopped.
#[inline]
pub fn generate_pseudo<F: FnMut(PieceMoves) -> bool>(
    pos: &Position,
    castling: CastlingCheck,
    mut visit: F,
) -> bool {
    let us = pos.side_to_move();
    let own = pos.color(us);
    let occupied = pos.occupied();
    let targets = !own;
    let mut emit = |piece, from, to: Bitboard, promotes| {
        to.is_nonempty()
            && visit(PieceMoves {
                piece,
                from,
                to,
                promotes,
            })
    };

    let king = pos.king(us);
    if emit(Piece::King, king, king_attacks(king) & targets, false) {
        return true;
    }
    for from in pos.colored(us, Piece::Knight) {
        if emit(Piece::Knight, from, knight_attacks(from) & targets, false) {
            return true;
        }
    }
    let queens = pos.colored(us, Piece::Queen);
    for from in pos.colored(us, Piece::Bishop) | queens {
        let piece = pos.piece_on(from).unwrap_or(Piece::Bishop);
        if emit(piece, from, bishop_attacks(from, occupied) & targets, false) {
            return true;
        }
    }
    for from in pos.colored(us, Piece::Rook) | queens {
        let piece = pos.piece_on(from).unwrap_or(Piece::Rook);
        if emit(piece, from, rook_attacks(from, occupied) & targets, false) {
            return true;
        }
    }
    let empty = !occupied;
    let enemy = pos.color(us.flip());
    let last = promotion_rank(us);
    let ep = pos
        .en_passant()
        .map(Bitboard::from_square)
        .unwrap_or_default();
    for from in pos.colored(us, Piece::Pawn) {
        let one = forward(us, Bitboard::from_square(from)) & empty;
        let two = forward(us, one & third_rank(us)) & empty;
        let to = (pawn_attacks(us, from) & (enemy | ep)) | one | two;
        if emit(Piece::Pawn, from, to, last.contains(from)) {
            return true;
        }
    }
    emit(
        Piece::King,
        king,
        castling_targets(pos, us, king, castling),
        false,
    )
}

/// The rook squares of the castling moves allowed under `check`.
fn castling_targets(pos: &Position, us: Color, king: Square, check: CastlingCheck) -> Bitboard {
    let rights = pos.castling();
    let mut to = Bitboard::EMPTY;
    for rook in rights.rooks_of(us) {
        if (castling_empty(king, rook) & pos.occupied()).is_nonempty() {
            continue;
        }
        if check == CastlingCheck::Attacks {
            let lifted = pos.occupied() ^ Bitboard::from_square(king) ^ Bitboard::from_square(rook);
            let from_and_path = castling_king_path(king, rook) | Bitboard::from_square(king);
            if from_and_path
                .into_iter()
                .any(|sq| pos.is_attacked(sq, us.flip(), lifted))
            {
                continue;
            }
        }
        to |= Bitboard::from_square(rook);
    }
    to
}

/// The squares an enemy capture would refute a castling move on: the king's
/// start (even when the king does not move: castling out of check) and every
/// square it crossed. The destination is left to the ordinary king capture.
pub fn castling_refutation_squares(king_from: Square, king_to: Square) -> Bitboard {
    between(king_from, king_to) | Bitboard::from_square(king_from)
}
