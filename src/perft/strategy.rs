//! The legality strategies and make styles the lab compares, each a type so
//! that perft is monomorphised per combination: no runtime branch on the
//! strategy in the hot loop.
//!
//! | strategy | how illegal moves are removed |
//! | --- | --- |
//! | [`Legal`] | never generated: check and pin masks (`movegen::legal`) |
//! | [`Pseudo`] | pseudo-legal generation, then make + "is my king attacked?" for the moves that can be illegal: king moves, pinned pieces, e.p., and everything when in check |
//! | [`KingCapture`] | micro-Max: pseudo-legal moves are made blindly; a position where the side to move can capture the enemy king (or "capture" a square a castling king left or crossed) proves the previous move illegal |
//!
//! For king-capture perft the leaf ply still needs the reply's test (one
//! more pseudo-legal generation, reduced to the union of capture targets),
//! because only legal leaves count; that is the price of the scheme.
//!
//! A little over 500 lines on purpose: the three strategies are read side
//! by side (the lab's point is comparing them), and they share the two
//! make styles and the legal strategy's leaf counter defined here.

use crate::movegen::legal::{
    Sink, count_unchecked_with_pins, count_with, fill_list_with, generate_into,
};
use crate::movegen::pseudo::{CastlingCheck, castling_refutation_squares, generate_pseudo};
use crate::movegen::replies::Replies;
use crate::movegen::{MoveList, PieceMoves};
use crate::movegen::{PROMOTIONS, pawn_origin};
use crate::position::Position;
use crate::sliders::{Active, Slider};
use crate::tables::{bishop_rays, rook_rays};
use crate::types::{Bitboard, Move, Piece, Square};
use core::marker::PhantomData;

// The run-time choice by name lives in `by_name`; its items stay
// reachable here, where they were first published.
pub use super::by_name::{Job, dispatch, divide_by_name, perft_by_name};

/// Make/unmake or copy-make: how a child position is visited.
pub trait MakeStyle {
    /// The name `--make` accepts for this style (see [`MAKE_STYLES`]).
    const NAME: &'static str;
    /// Whether children are copies (so a child can be made from a shared
    /// borrow, straight from the generator's batches).
    const COPIES: bool;
    /// Runs `f` on the position after `mv` and returns its result; `pos`
    /// is unchanged afterwards.
    fn with_child<R>(pos: &mut Position, mv: Move, f: impl FnOnce(&mut Position) -> R) -> R;
}

/// Make the move in place, then unmake it.
pub struct Unmake;
/// Copy the position and make the move on the copy.
pub struct CopyMake;

impl MakeStyle for Unmake {
    const NAME: &'static str = "unmake";
    const COPIES: bool = false;
    #[inline]
    fn with_child<R>(pos: &mut Position, mv: Move, f: impl FnOnce(&mut Position) -> R) -> R {
        let undo = pos.make(mv);
        let result = f(pos);
        pos.unmake(mv, undo);
        result
    }
}

impl MakeStyle for CopyMake {
    const NAME: &'static str = "copy";
    const COPIES: bool = true;
    #[inline]
    fn with_child<R>(pos: &mut Position, mv: Move, f: impl FnOnce(&mut Position) -> R) -> R {
        // A full-make perft's leaf closure ignores the child; without this
        // the optimiser could drop the (side-effect free) copy-make entirely.
        with_copy(pos, mv, |child| f(std::hint::black_box(child)))
    }
}

/// Runs `f` on the position after `mv`, made in a local copy of `pos`
/// ([`Position::with_move`], which says why not `play`).
#[inline(always)]
fn with_copy<R>(pos: &Position, mv: Move, f: impl FnOnce(&mut Position) -> R) -> R {
    pos.with_move(mv, f)
}

/// A way of producing only legal moves, for perft and statistics.
pub trait Strategy {
    /// The name used by `--legality` and in JSON.
    const NAME: &'static str;

    /// Perft with bulk counting where the strategy allows it.
    fn perft<M: MakeStyle>(pos: &mut Position, depth: u32) -> u64;

    /// Perft making every leaf move.
    fn perft_full<M: MakeStyle>(pos: &mut Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = Self::legal_moves::<M>(pos);
        let mut nodes = 0;
        for &mv in moves.iter() {
            nodes += M::with_child(pos, mv, |child| Self::perft_full::<M>(child, depth - 1));
        }
        nodes
    }

    /// The legal moves of `pos`, found the strategy's way.
    fn legal_moves<M: MakeStyle>(pos: &mut Position) -> MoveList;
}

/// Legal generation with check and pin masks, with the active sliding
/// attacks ([`crate::sliders::Active`]).
pub type Legal = LegalWith<Active>;
/// Legal generation with the sliding attacks of technique `A`: the lab
/// runs this generator with every compiled technique from one build
/// ([`crate::sliders::COMPILED`]); [`Legal`] is it with the active one.
pub struct LegalWith<A: Slider>(PhantomData<A>);
/// Pseudo-legal generation plus a king-attack test after making.
pub struct Pseudo;
/// micro-Max's king-capture scheme.
pub struct KingCapture;

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
                super::batch_children::for_each_child::<A, _>(pos, |child| {
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
            1 if M::COPIES => super::batch_children::make_leaves::<A>(pos),
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

/// Names accepted by `--legality`.
pub const STRATEGIES: [&str; 3] = [Legal::NAME, Pseudo::NAME, KingCapture::NAME];
/// Names accepted by `--make`.
pub const MAKE_STYLES: [&str; 2] = [Unmake::NAME, CopyMake::NAME];
