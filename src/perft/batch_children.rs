//! A position's children made by the generator's batch, for perft.
//!
//! A full-make perft makes every leaf move and counts it. Nearly all of its
//! time goes into those makes, so the leaf parents hand each generator
//! batch to [`BatchMaker`], which makes all of a batch's children from what
//! they share (the side, clocks and key changes of every child, the piece
//! lifted off its square for a batch) instead of one whole make per move.
//! Bulk perft's nodes above the leaf parents make their children the same
//! way. Castling, e.p. captures and pinned pawns, rare, take the one-move make.

use crate::movegen::PieceMoves;
use crate::movegen::legal::{Sink, generate_into};
use crate::position::{BatchMaker, Position};
use crate::sliders::Slider;
use crate::types::{Bitboard, Piece};

/// Makes every legal move of `pos` and returns how many there are: full-make
/// perft at depth 1 with copy-make.
#[inline(always)]
pub(crate) fn make_leaves<A: Slider>(pos: &Position) -> u64 {
    // Each made leaf is kept observable, so that the optimiser cannot drop
    // the make as dead code.
    for_each_child::<A, _>(pos, |child| {
        std::hint::black_box(child);
    })
}

/// Calls `visit` with every child of `pos` (one per legal move, made by
/// the batch); returns how many there are.
#[inline(always)]
pub(crate) fn for_each_child<A: Slider, F: FnMut(&mut Position)>(pos: &Position, visit: F) -> u64 {
    let mut maker = ChildMaker {
        maker: BatchMaker::new(pos),
        pos,
        visit,
        nodes: 0,
    };
    generate_into::<A, _>(pos, &mut maker);
    maker.nodes
}

/// A generator [`Sink`] that makes each move's child and hands it to
/// `visit`.
struct ChildMaker<'a, F> {
    maker: BatchMaker<'a>,
    pos: &'a Position,
    visit: F,
    nodes: u64,
}

impl<F: FnMut(&mut Position)> Sink for ChildMaker<'_, F> {
    const PAWN_SETS: bool = true;

    #[inline(always)]
    fn batch(&mut self, batch: PieceMoves) -> bool {
        self.nodes += batch.len() as u64;
        let castles = batch.piece == Piece::King
            && (batch.to & self.pos.color(self.pos.side_to_move())).is_nonempty();
        if batch.piece == Piece::Pawn || castles {
            // Pinned pawns, e.p. captures and castling: one make per move.
            let (pos, visit) = (self.pos, &mut self.visit);
            batch.for_each_move(|mv| pos.with_move(mv, &mut *visit));
        } else {
            self.maker
                .piece_moves(batch.piece, batch.from, batch.to, &mut self.visit);
        }
        false
    }

    #[inline(always)]
    fn pawn_set(&mut self, targets: Bitboard, offset: u8, promotes: bool) {
        if promotes {
            self.nodes += 4 * targets.len() as u64;
            self.maker.promotions(targets, offset, &mut self.visit);
        } else {
            self.nodes += targets.len() as u64;
            self.maker.pawn_moves(targets, offset, &mut self.visit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::position::{suite_fens, with_children};

    /// A position's children made by the batch are exactly those that
    /// [`Position::with_move`] makes from its legal moves, every field
    /// (key, board array, clocks, rights, e.p.) included: perft's counts
    /// alone would not notice a wrong key or clock in a made leaf.
    #[test]
    fn batch_made_children_equal_one_move_makes() {
        let mut checked = 0;
        for fen in suite_fens() {
            for pos in with_children(fen) {
                let mut batched = Vec::new();
                let n = for_each_child::<crate::sliders::Active, _>(&pos, |child| {
                    batched.push(child.clone())
                });
                let mut expected: Vec<Position> = legal_moves(&pos)
                    .iter()
                    .map(|&mv| pos.play_unchecked(mv))
                    .collect();
                assert_eq!(n as usize, batched.len(), "{fen}");
                // Both in one order (the batches' differs from a list's).
                let order = |p: &Position| (p.fen(), p.key());
                batched.sort_by_key(order);
                expected.sort_by_key(order);
                assert_eq!(batched, expected, "children of {pos:?}");
                checked += n;
            }
        }
        assert!(checked > 100_000, "only {checked} children compared");
    }
}
