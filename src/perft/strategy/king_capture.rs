//! The king-capture strategy ([`KingCapture`], micro-Max's): pseudo-legal
//! moves made blindly, refuted by a reply that can capture the king.

use super::{MakeStyle, Strategy};
use crate::movegen::MoveList;
use crate::movegen::pseudo::{CastlingCheck, castling_refutation_squares, generate_pseudo};
use crate::position::Position;
use crate::types::{Bitboard, Move, Piece};

/// micro-Max's king-capture scheme.
pub struct KingCapture;

impl KingCapture {
    /// Every square the side to move could move a piece onto by capture
    /// (pawn diagonals included, even onto empty squares, as micro-Max lets
    /// pawns "capture" e.p. and castling squares): one pseudo-legal
    /// generation, reduced to a set.
    #[inline]
    fn capture_targets(pos: &Position) -> Bitboard {
        let mut targets = Bitboard::EMPTY;
        generate_pseudo(pos, CastlingCheck::EmptySquaresOnly, |batch| {
            targets |= match batch.piece {
                Piece::Pawn => crate::tables::pawn_attacks(pos.side_to_move(), batch.from),
                _ => batch.to,
            };
            false
        });
        targets
    }

    /// Whether `child` proves the move into it illegal: its side to move
    /// can capture the enemy king, or "capture" a square the castling king
    /// left or crossed.
    ///
    /// The king test is the scheme's own: one pseudo-legal generation of the
    /// reply, reduced to its capture targets. The castling squares are tested
    /// on the board with the castled king and rook lifted off again: in
    /// Chess960 the rook can land between an attacker and the squares the
    /// king crossed (`rk5r/8/8/8/8/8/8/RK5R w HAha`: after Rh8xh8, ...O-O-O
    /// puts the rook on d8 between h8 and b8), which micro-Max's standard
    /// chess never meets.
    #[inline]
    fn refuted(child: &Position, castle: Option<(Bitboard, Bitboard)>) -> bool {
        let king = Bitboard::from_square(child.king(child.side_to_move().flip()));
        if (Self::capture_targets(child) & king).is_nonempty() {
            return true;
        }
        let Some((squares, castled)) = castle else {
            return false;
        };
        let before = child.occupied() & !castled;
        squares
            .into_iter()
            .any(|sq| child.is_attacked(sq, child.side_to_move(), before))
    }

    /// For a castling move: the squares handed to the reply (the king's
    /// start and the squares it crossed) and the castled king and rook
    /// squares. `None` for any other move.
    #[inline]
    fn castle_squares(pos: &Position, mv: Move) -> Option<(Bitboard, Bitboard)> {
        let us = pos.side_to_move();
        if pos.piece_on(mv.from()) != Some(Piece::King) || !pos.color(us).contains(mv.to()) {
            return None;
        }
        let side = if mv.to() > mv.from() {
            crate::position::CastleSide::Short
        } else {
            crate::position::CastleSide::Long
        };
        let (king_to, rook_to) = side.destinations(mv.from().rank());
        Some((
            castling_refutation_squares(mv.from(), king_to),
            Bitboard::from_square(king_to) | Bitboard::from_square(rook_to),
        ))
    }

    fn pseudo_moves(pos: &Position) -> MoveList {
        let mut list = MoveList::new();
        generate_pseudo(pos, CastlingCheck::EmptySquaresOnly, |batch| {
            batch.for_each_move(|mv| list.push(mv));
            false
        });
        list
    }
}

impl Strategy for KingCapture {
    const NAME: &'static str = "king-capture";

    fn perft<M: MakeStyle>(pos: &mut Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = Self::pseudo_moves(pos);
        let mut nodes = 0;
        for &mv in moves.iter() {
            let castle_squares = Self::castle_squares(pos, mv);
            nodes += M::with_child(pos, mv, |child| {
                if Self::refuted(child, castle_squares) {
                    0
                } else {
                    Self::perft::<M>(child, depth - 1)
                }
            });
        }
        nodes
    }

    fn perft_full<M: MakeStyle>(pos: &mut Position, depth: u32) -> u64 {
        // Every leaf is already made (and tested) by `perft`.
        Self::perft::<M>(pos, depth)
    }

    fn legal_moves<M: MakeStyle>(pos: &mut Position) -> MoveList {
        let moves = Self::pseudo_moves(pos);
        let mut list = MoveList::new();
        for &mv in moves.iter() {
            let castle_squares = Self::castle_squares(pos, mv);
            if !M::with_child(pos, mv, |child| Self::refuted(child, castle_squares)) {
                list.push(mv);
            }
        }
        list
    }
}
