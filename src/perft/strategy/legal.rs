//! The legal strategy ([`LegalWith`]): legal generation with check and pin
//! masks, and bulk perft's leaf counter at the leaves' parents.

use super::{MakeStyle, Strategy};
use crate::movegen::legal::{
    Sink, count_unchecked_with_pins, count_with, fill_list_with, generate_into,
};
use crate::movegen::replies::Replies;
use crate::movegen::{MoveList, PieceMoves};
use crate::movegen::{PROMOTIONS, pawn_origin};
use crate::perft::batch_children;
use crate::position::Position;
use crate::sliders::{Active, Slider};
use crate::tables::{bishop_rays, rook_rays};
use crate::types::{Bitboard, Move, Piece, Square};
use core::marker::PhantomData;

/// Legal generation with check and pin masks, with the active sliding
/// attacks ([`crate::sliders::Active`]).
pub type Legal = LegalWith<Active>;
/// Legal generation with the sliding attacks of technique `A`: the lab
/// runs this generator with every compiled technique from one build
/// ([`crate::sliders::COMPILED`]); [`Legal`] is it with the active one.
pub struct LegalWith<A: Slider>(PhantomData<A>);

impl<A: Slider> Strategy for LegalWith<A> {
    const NAME: &'static str = "legal";

    fn perft<M: MakeStyle>(pos: &mut Position, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => count_with::<A>(pos),
            // The parent of the leaves, with copy-make: make each move straight
            // from the generator's batches, so no move list is built and
            // nothing is unmade (fewer instructions per node than listing
            // first), and the unpinned pawns' moves straight from their sets
            // (`LeafCounter`: fewer instructions per node again, and far
            // fewer mispredicted branches in cachegrind's model;
            // `reports/archive/speed-2026-11-23-day.md`).
            // The child is made for counting only (bitboards and state, no
            // key or board array: `Position::with_counting_child`).
            2 if M::COPIES => {
                let mut counter = LeafCounter::<A>::new(pos);
                generate_into::<A, _>(pos, &mut counter);
                counter.nodes
            }
            // Above the leaf parents, with copy-make: the children made by
            // the generator's batch too, as full-make perft's leaves
            // (`batch_children`): instructions per node 1-2 % fewer on the
            // six standard positions, position 3 at depth 8 about 1.6 %
            // less time (callgrind; alternating runs, AMD EPYC Zen 4).
            _ if M::COPIES => {
                let mut nodes = 0;
                batch_children::for_each_child::<A, _>(pos, |child| {
                    nodes += Self::perft::<M>(child, depth - 1)
                });
                nodes
            }
            _ => {
                // Filled in place, as in `perft_full`: see there.
                let mut moves = MoveList::new();
                fill_list_with::<A>(pos, &mut moves);
                let mut nodes = 0;
                for &mv in moves.iter() {
                    nodes += M::with_child(pos, mv, |child| Self::perft::<M>(child, depth - 1));
                }
                nodes
            }
        }
    }

    fn perft_full<M: MakeStyle>(pos: &mut Position, depth: u32) -> u64 {
        match depth {
            0 => 1,
            // Leaves with copy-make: made by the generator's batch, from
            // what a parent's children share (`batch_children`).
            1 if M::COPIES => batch_children::make_leaves::<A>(pos),
            _ => {
                // Filled in place rather than returned by `legal_moves`:
                // with the generator's copy per colour, the returned list
                // was copied (`memcpy`), 2-3 % more instructions per node.
                let mut moves = MoveList::new();
                fill_list_with::<A>(pos, &mut moves);
                let mut nodes = 0;
                for &mv in moves.iter() {
                    nodes +=
                        M::with_child(pos, mv, |child| Self::perft_full::<M>(child, depth - 1));
                }
                nodes
            }
        }
    }

    fn legal_moves<M: MakeStyle>(pos: &mut Position) -> MoveList {
        let mut list = MoveList::new();
        fill_list_with::<A>(pos, &mut list);
        list
    }
}

/// The number of leaves below the moves of a batch made in `pos`.
///
/// The common, non-promoting batch calls [`count_leaves`] straight from
/// its loop; going through [`PieceMoves::for_each_move`], whose closure has
/// a second call site for promotions, left that closure out of line, with
/// a call and six register saves per leaf. Calling it straight cut bulk
/// perft's instructions per node on every position measured
/// (`reports/archive/speed-2026-11-23-morning.md`). (Listing the moves
/// first, as the full-make leaves do, measured worse for counting.)
///
/// [`count_leaves`] is called by name. It was once passed in as a `visit`
/// parameter, which then measured slightly better, but with later changes
/// and rustc 1.95 that parameter's `Fn::call` shim stayed out of line with
/// the child's make inside it, a second call per leaf: by name, the make is
/// inlined into the batch loop and only the counter is called, which
/// lowered the instructions per node on all six standard positions
/// (`reports/archive/speed-2026-11-23-zen5-late.md`).
#[inline(always)]
fn sum_over_batch<A: Slider>(counter: &LeafCounter<A>, batch: PieceMoves) -> u64 {
    let pos = counter.pos;
    let mut sum = 0;
    if batch.promotes {
        batch.for_each_move(|mv| sum += count_leaves::<A>(pos, mv, batch.piece));
    } else if batch.piece == Piece::Pawn {
        // Pinned pawns and e.p. only (the others come as sets): rare, and
        // e.p. removes a pawn the shortcut does not look at.
        for to in batch.to {
            sum += count_leaves::<A>(pos, Move::new(batch.from, to, None), batch.piece);
        }
    } else {
        // A castling move lands its rook off the move's squares: not for
        // the shortcut either.
        // (The king's steps and its castlings come in separate batches.)
        let castles =
            batch.piece == Piece::King && (batch.to & pos.color(pos.side_to_move())).is_nonempty();
        for to in batch.to {
            let mv = Move::new(batch.from, to, None);
            sum += if castles {
                count_leaves::<A>(pos, mv, batch.piece)
            } else {
                counter.count_after(mv, batch.piece)
            };
        }
    }
    sum
}

/// Bulk perft at a leaf parent, as the generator's [`Sink`]: every move is
/// made for counting and its legal replies counted. Unpinned pawns come as
/// sets, as in move lists ([`fill_list`]), not a batch per pawn.
///
/// The children's side to move is the opponent, and for most moves the
/// lines through the opponent's king are the same in the child as here.
/// A slider whose squares are both off every line through that king, or
/// a knight, pawn or king whose squares are both off the lines between
/// that king and our sliders on them (the only lines where a piece
/// leaving or arriving can uncover a check, or make or break a pin), can
/// neither give check nor pin or unpin anything, unless it is a knight or
/// pawn landing on a checking square, a castling, an e.p. capture or a
/// promotion. Those children reuse the opponent's pins, computed once
/// here, instead of scanning the king's lines again
/// ([`count_unchecked_with_pins`]). Most of those, and some of the rest
/// after an exact scan, are not made at all: [`Replies`] counts the
/// opponent's replies from what all our moves share (two-ply counting).
struct LeafCounter<'a, A: Slider> {
    pos: &'a Position,
    nodes: u64,
    /// Every square on a rook or bishop line from the opponent's king
    /// (empty board): a slider's move touching one takes the general path.
    lines: Bitboard,
    /// The squares between the opponent's king and each of our sliders on
    /// its lines: another piece's move touching one takes the general path.
    sniper_lines: Bitboard,
    /// The opponent's replies most moves share (two-ply counting); also
    /// the opponent's pins and where our knight or pawn would give check.
    replies: Replies<A>,
}

impl<'a, A: Slider> LeafCounter<'a, A> {
    #[inline(always)]
    fn new(pos: &'a Position) -> LeafCounter<'a, A> {
        let them = pos.side_to_move().flip();
        let king = pos.king(them);
        // One walk gives both the lines and the opponent's pins (a lone
        // blocker of theirs on a line); `check_info_of(them)` and then a
        // second walk for the lines cost more.
        let walk = pos.sniper_lines(them);
        LeafCounter {
            pos,
            nodes: 0,
            lines: rook_rays(king) | bishop_rays(king),
            sniper_lines: walk.lines,
            replies: Replies::new(pos, walk.pinned),
        }
    }

    /// The leaves below `mv`, a move of `piece` that is not a castling,
    /// e.p. capture or promotion, by the shortcut when it applies.
    #[inline(always)]
    fn count_after(&self, mv: Move, piece: Piece) -> u64 {
        let squares = Bitboard::from_square(mv.from()) | Bitboard::from_square(mv.to());
        let (guarded, checks) = match piece {
            Piece::Knight => (self.sniper_lines, self.replies.knight_checks),
            Piece::Pawn => (self.sniper_lines, self.replies.pawn_checks),
            Piece::King => (self.sniper_lines, Bitboard::EMPTY),
            _ => (self.lines, Bitboard::EMPTY),
        };
        if ((squares & guarded) | (checks & Bitboard::from_square(mv.to()))).is_empty() {
            if let Some(n) = self.replies.after::<false>(piece, mv.from(), mv.to()) {
                return n;
            }
            let pins = self.replies.their_pins;
            self.pos.with_counting_child(mv, piece, |child| {
                count_unchecked_with_pins::<A>(child, pins)
            })
        } else if let Some(n) = self.replies.after::<true>(piece, mv.from(), mv.to()) {
            n
        } else {
            count_leaves::<A>(self.pos, mv, piece)
        }
    }
}

impl<A: Slider> Sink for LeafCounter<'_, A> {
    const PAWN_SETS: bool = true;

    #[inline(always)]
    fn batch(&mut self, batch: PieceMoves) -> bool {
        self.nodes += sum_over_batch::<A>(self, batch);
        false
    }

    #[inline(always)]
    fn pawn_set(&mut self, targets: Bitboard, offset: u8, promotes: bool) {
        for to in targets {
            let from = pawn_origin(to, offset);
            if promotes {
                self.nodes += count_promotions::<A>(self.pos, from, to);
            } else {
                let mv = Move::new(from, to, None);
                self.nodes += self.count_after(mv, Piece::Pawn);
            }
        }
    }
}

/// [`count_leaves`] summed over the four promotions from `from` to `to`.
#[inline(never)]
fn count_promotions<A: Slider>(pos: &Position, from: Square, to: Square) -> u64 {
    PROMOTIONS
        .into_iter()
        .map(|piece| count_leaves::<A>(pos, Move::new(from, to, Some(piece)), Piece::Pawn))
        .sum()
}

/// Bulk perft at a leaf parent: the number of legal moves after `mv`.
#[inline(always)]
fn count_leaves<A: Slider>(pos: &Position, mv: Move, piece: Piece) -> u64 {
    pos.with_counting_child(mv, piece, count_with::<A>)
}
