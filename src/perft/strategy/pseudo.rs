//! The pseudo-legal strategy ([`Pseudo`]): pseudo-legal generation, then
//! a king-attack test after making the moves that can be illegal.

use super::{MakeStyle, Strategy};
use crate::movegen::MoveList;
use crate::movegen::pseudo::{CastlingCheck, generate_pseudo};
use crate::position::Position;
use crate::types::{Bitboard, Move, Piece};

/// Pseudo-legal generation plus a king-attack test after making.
pub struct Pseudo;

/// Whether the side that just moved left its king attacked in `child`.
#[inline]
fn mover_in_check(child: &Position) -> bool {
    let mover = child.side_to_move().flip();
    child.is_attacked(child.king(mover), child.side_to_move(), child.occupied())
}

impl Pseudo {
    /// Calls `f` with each pseudo-legal move and whether it needs the
    /// make-and-test (king moves, pinned pieces, e.p., any move in check).
    #[inline]
    fn for_each<F: FnMut(Move, bool)>(pos: &Position, mut f: F) {
        let info = pos.check_info();
        let in_check = info.checkers.is_nonempty();
        let ep = pos
            .en_passant()
            .map(Bitboard::from_square)
            .unwrap_or_default();
        generate_pseudo(pos, CastlingCheck::Attacks, |batch| {
            let risky_piece =
                in_check || batch.piece == Piece::King || info.pinned.contains(batch.from);
            let pawn_ep = if batch.piece == Piece::Pawn {
                ep
            } else {
                Bitboard::EMPTY
            };
            for mv in batch.moves() {
                // Castling was fully checked by the generator.
                let castle =
                    batch.piece == Piece::King && pos.color(pos.side_to_move()).contains(mv.to());
                let needs_test = (risky_piece && !castle) || pawn_ep.contains(mv.to());
                f(mv, needs_test);
            }
            false
        });
    }
}

impl Strategy for Pseudo {
    const NAME: &'static str = "pseudo";

    fn perft<M: MakeStyle>(pos: &mut Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = MoveList::new();
        let mut tested = MoveList::new();
        Self::for_each(pos, |mv, needs_test| {
            if needs_test {
                tested.push(mv)
            } else {
                moves.push(mv)
            }
        });
        let mut nodes = 0;
        if depth == 1 {
            nodes += moves.len() as u64;
            for &mv in tested.iter() {
                nodes += M::with_child(pos, mv, |child| u64::from(!mover_in_check(child)));
            }
            return nodes;
        }
        for &mv in moves.iter() {
            nodes += M::with_child(pos, mv, |child| Self::perft::<M>(child, depth - 1));
        }
        for &mv in tested.iter() {
            nodes += M::with_child(pos, mv, |child| {
                if mover_in_check(child) {
                    0
                } else {
                    Self::perft::<M>(child, depth - 1)
                }
            });
        }
        nodes
    }

    fn legal_moves<M: MakeStyle>(pos: &mut Position) -> MoveList {
        let mut candidates = Vec::with_capacity(64);
        Self::for_each(pos, |mv, needs_test| candidates.push((mv, needs_test)));
        let mut list = MoveList::new();
        for (mv, needs_test) in candidates {
            if !needs_test || !M::with_child(pos, mv, |child| mover_in_check(child)) {
                list.push(mv);
            }
        }
        list
    }
}
