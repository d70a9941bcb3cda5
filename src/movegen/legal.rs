//! Legal move generation with check and pin masks.
//!
//! 1. Find the checkers and pinned pieces in one scan from the king.
//! 2. King moves: any square not attacked once the king has left (so a king
//!    cannot step back along a checking ray).
//! 3. In double check, stop. In single check, the other pieces may only
//!    capture the checker or block: `target = checker | between(king, checker)`.
//! 4. A pinned piece may only move along the line through its king and itself.
//! 5. En passant is rare and has the one pin that the masks miss (both pawns
//!    leave the king's rank), so it is verified by recomputing slider attacks.
//! 6. Castling: rights present, squares empty, king path not attacked, with
//!    the castling rook lifted off the board (Chess960 corner cases).

use super::{PieceMoves, promotion_rank};
use crate::position::{CastleSide, Position};
use crate::sliders::{bishop_attacks, rook_attacks};
use crate::tables::{between, king_attacks, knight_attacks, line, pawn_attacks};
use crate::types::{Bitboard, Color, Piece, Square};

/// Calls `visit` with every non-empty batch of legal moves. `visit` returns
/// `true` to stop early; `generate` then returns `true`.
#[inline]
pub fn generate<F: FnMut(PieceMoves) -> bool>(pos: &Position, mut visit: F) -> bool {
    let us = pos.side_to_move();
    let own = pos.color(us);
    let occupied = pos.occupied();
    let king = pos.king(us);
    let info = pos.check_info();

    // King steps, tested with the king lifted off the board.
    let without_king = occupied ^ Bitboard::from_square(king);
    let mut king_to = Bitboard::EMPTY;
    for to in king_attacks(king) & !own {
        if !pos.is_attacked(to, us.flip(), without_king) {
            king_to |= Bitboard::from_square(to);
        }
    }
    if emit(&mut visit, Piece::King, king, king_to, false) {
        return true;
    }
    if info.checkers.has_several() {
        return false;
    }
    let target = match info.checkers.first() {
        Some(checker) => between(king, checker) | info.checkers,
        None => !own,
    };

    for from in pos.colored(us, Piece::Knight) & !info.pinned {
        if emit(
            &mut visit,
            Piece::Knight,
            from,
            knight_attacks(from) & target,
            false,
        ) {
            return true;
        }
    }
    let queens = pos.colored(us, Piece::Queen);
    for from in pos.colored(us, Piece::Bishop) | queens {
        let mut to = bishop_attacks(from, occupied) & target;
        if info.pinned.contains(from) {
            to &= line(king, from);
        }
        let piece = pos.piece_on(from).unwrap_or(Piece::Bishop);
        if emit(&mut visit, piece, from, to, false) {
            return true;
        }
    }
    for from in pos.colored(us, Piece::Rook) | queens {
        let mut to = rook_attacks(from, occupied) & target;
        if info.pinned.contains(from) {
            to &= line(king, from);
        }
        let piece = pos.piece_on(from).unwrap_or(Piece::Rook);
        if emit(&mut visit, piece, from, to, false) {
            return true;
        }
    }
    if pawn_moves(pos, us, king, info.pinned, target, &mut visit) {
        return true;
    }
    if info.checkers.is_empty() && castling_moves(pos, us, king, &mut visit) {
        return true;
    }
    false
}

#[inline]
fn emit<F: FnMut(PieceMoves) -> bool>(
    visit: &mut F,
    piece: Piece,
    from: Square,
    to: Bitboard,
    promotes: bool,
) -> bool {
    to.is_nonempty()
        && visit(PieceMoves {
            piece,
            from,
            to,
            promotes,
        })
}

#[inline]
fn pawn_moves<F: FnMut(PieceMoves) -> bool>(
    pos: &Position,
    us: Color,
    king: Square,
    pinned: Bitboard,
    target: Bitboard,
    visit: &mut F,
) -> bool {
    let empty = !pos.occupied();
    let enemy = pos.color(us.flip());
    let pawns = pos.colored(us, Piece::Pawn);
    // After one push, a pawn that can push again stands on its third rank.
    let third_rank = match us {
        Color::White => Bitboard::rank(2),
        Color::Black => Bitboard::rank(5),
    };
    let forward = |set: Bitboard| match us {
        Color::White => set.north(),
        Color::Black => set.south(),
    };
    let last = promotion_rank(us);
    for from in pawns {
        let one = forward(Bitboard::from_square(from)) & empty;
        let two = forward(one & third_rank) & empty;
        let mut to = (pawn_attacks(us, from) & enemy) | one | two;
        to &= target;
        if pinned.contains(from) {
            to &= line(king, from);
        }
        if emit(visit, Piece::Pawn, from, to, last.contains(from)) {
            return true;
        }
    }
    if let Some(ep) = pos.en_passant() {
        for from in pawn_attacks(us.flip(), ep) & pawns {
            if en_passant_is_legal(pos, us, king, from, ep)
                && emit(visit, Piece::Pawn, from, Bitboard::from_square(ep), false)
            {
                return true;
            }
        }
    }
    false
}

/// Plays the capture on a scratch occupancy and asks whether the king is
/// attacked afterwards. Handles every e.p. subtlety at once: pins along
/// ranks and diagonals, capturing the checking pawn, and blocking a check.
fn en_passant_is_legal(pos: &Position, us: Color, king: Square, from: Square, ep: Square) -> bool {
    let them = pos.color(us.flip());
    let victim = Square::from_coords(ep.file(), from.rank());
    let victim_bit = Bitboard::from_square(victim);
    let occupied =
        pos.occupied() ^ Bitboard::from_square(from) ^ victim_bit ^ Bitboard::from_square(ep);
    let rooks = (pos.pieces(Piece::Rook) | pos.pieces(Piece::Queen)) & them;
    let bishops = (pos.pieces(Piece::Bishop) | pos.pieces(Piece::Queen)) & them;
    let steppers = ((knight_attacks(king) & pos.pieces(Piece::Knight))
        | (pawn_attacks(us, king) & pos.pieces(Piece::Pawn)))
        & them
        & !victim_bit;
    steppers.is_empty()
        && (rook_attacks(king, occupied) & rooks).is_empty()
        && (bishop_attacks(king, occupied) & bishops).is_empty()
}

fn castling_moves<F: FnMut(PieceMoves) -> bool>(
    pos: &Position,
    us: Color,
    king: Square,
    visit: &mut F,
) -> bool {
    let castling = pos.castling();
    if !castling.has_any(us) {
        return false;
    }
    let rank = king.rank();
    let mut to = Bitboard::EMPTY;
    for side in CastleSide::BOTH {
        let Some(rook) = castling.rook_square(us, side) else {
            continue;
        };
        let king_target = Square::from_coords(side.king_target(), rank);
        let rook_target = Square::from_coords(side.rook_target(), rank);
        let lifted = pos.occupied() ^ Bitboard::from_square(king) ^ Bitboard::from_square(rook);
        let king_path = between(king, king_target) | Bitboard::from_square(king_target);
        let rook_path = between(rook, rook_target) | Bitboard::from_square(rook_target);
        if ((king_path | rook_path) & lifted).is_nonempty() {
            continue;
        }
        if king_path
            .into_iter()
            .any(|sq| pos.is_attacked(sq, us.flip(), lifted))
        {
            continue;
        }
        to |= Bitboard::from_square(rook);
    }
    emit(visit, Piece::King, king, to, false)
}
