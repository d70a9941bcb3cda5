//! Copy-make for a whole generator batch: the children of one parent, made
//! from what their moves share.
//!
//! Every child of a position has the same side to move, e.p. square gone,
//! clocks advanced and key changed for those; every move of one piece also
//! lifts that piece off the same square and changes the castling rights
//! the same way. [`Position::with_move`] redoes all of that per move (it
//! must: it sees one move). [`BatchMaker`] works those out once per parent
//! and once per batch; each child is then a copy of the parent with the
//! shared values stored, plus the move's own two squares (and a capture):
//! far fewer instructions per child.
//!
//! Full-make perft makes every leaf, so its leaf parents make children by
//! the batch, and so do bulk perft's nodes above the leaf parents
//! (`perft::batch_children`). The result is exactly what
//! [`Position::with_move`] gives: a debug build checks every child against
//! it, and a test compares them over the perft suites' positions.

use super::Position;
use super::zobrist::{BLACK_TO_MOVE, castling_key, en_passant_key, piece_key};
use crate::movegen::PROMOTIONS;
use crate::types::{Bitboard, Color, Move, Piece, Square};

/// The parent and what all its children share, for making children by
/// the batch.
pub(crate) struct BatchMaker<'a> {
    parent: &'a Position,
    /// The parent with the children's side to move and clocks (before a
    /// capture or pawn move resets the halfmove clock), no e.p. square and
    /// the key for those: where each child, and each child's key, starts.
    template: Position,
}

impl<'a> BatchMaker<'a> {
    /// Prepares the children of `parent`.
    #[inline(always)]
    pub(crate) fn new(parent: &'a Position) -> BatchMaker<'a> {
        let us = parent.side;
        let mut key = parent.key ^ BLACK_TO_MOVE;
        if let Some(ep) = parent.en_passant {
            key ^= en_passant_key(ep);
        }
        let mut template = parent.clone();
        template.side = us.flip();
        template.en_passant = None;
        template.key = key;
        template.halfmove = parent.halfmove + 1;
        template.fullmove = parent.fullmove + us.index() as u32; // after Black's move
        BatchMaker { parent, template }
    }

    /// Where each child starts: the template's state.
    ///
    /// With AVX, a plain copy of the template: five 32-byte moves. Without
    /// it the same copy takes ten 16-byte moves, over the optimiser's limit
    /// for inlining, and became a `memcpy` call per child (full-make perft
    /// +20 % instructions per node in the default build); there the
    /// parent's copy with the template's four fields stored after it,
    /// which the optimiser splits and keeps inline. The AVX build's copy
    /// of the template saves about 4 instructions per leaf over that
    /// (callgrind, `reports/archive/speed-2026-11-27-full-make.md`).
    ///
    /// Only a template per parent, written before the generator's set-up,
    /// not one per batch with the piece already lifted off its square: a
    /// batch's template is written with narrow stores just before its
    /// children's copies read it with wide loads, which cannot take their
    /// bytes from the store buffer and wait for the stores to reach the
    /// cache. That variant ran about as few instructions but lost time on
    /// positions 4 and 6.
    #[inline(always)]
    fn child(&self) -> Position {
        if cfg!(target_feature = "avx") {
            self.template.clone()
        } else {
            let mut child = self.parent.clone();
            child.side = self.template.side;
            child.en_passant = None;
            child.halfmove = self.template.halfmove;
            child.fullmove = self.template.fullmove;
            child
        }
    }

    /// Calls `f` with the child after each move of the `piece` on `from`
    /// to a square of `targets`. Not for pawns (their own sets:
    /// [`BatchMaker::pawn_moves`]) or castling (king onto its own rook):
    /// [`Position::with_move`] makes those.
    #[inline(always)]
    pub(crate) fn piece_moves(
        &self,
        piece: Piece,
        from: Square,
        targets: Bitboard,
        mut f: impl FnMut(&mut Position),
    ) {
        debug_assert!(piece != Piece::Pawn);
        let parent = self.parent;
        let us = parent.side;
        let them = us.flip();
        // What every move of the batch shares: the piece leaves `from`,
        // with the rights that costs.
        let from_bit = Bitboard::from_square(from);
        let mut castling = parent.castling;
        castling.remove(from_bit);
        if piece == Piece::King {
            castling.clear(us);
        }
        let mut key = self.template.key ^ piece_key(us, piece, from);
        let lost = parent.castling.squares() ^ castling.squares();
        if lost.is_nonempty() {
            key ^= castling_key(lost);
        }
        for to in targets {
            let mut child = self.child();
            child.castling = castling;
            let to_bit = Bitboard::from_square(to);
            let from_to = from_bit | to_bit;
            child.pieces[piece.index()] ^= from_to;
            child.colors[us.index()] ^= from_to;
            child.board[from.index()] = None;
            child.board[to.index()] = Some(piece);
            let mut child_key = key ^ piece_key(us, piece, to);
            if let Some(captured) = parent.board[to.index()] {
                child_key ^= capture(&mut child, them, captured, to);
            }
            child.key = child_key;
            debug_assert!(child == parent.play_unchecked(Move::new(from, to, None)));
            f(&mut child);
        }
    }

    /// Calls `f` with the child after each pawn move to a square of
    /// `targets`, each from the square `offset` below it (`from = to -
    /// offset`, wrapping, as in the generator's pawn sets). Not for
    /// promotions or e.p. captures: [`Position::with_move`] makes those.
    #[inline(always)]
    pub(crate) fn pawn_moves(
        &self,
        targets: Bitboard,
        offset: u8,
        mut f: impl FnMut(&mut Position),
    ) {
        let parent = self.parent;
        let us = parent.side;
        let them = us.flip();
        let pawns = Piece::Pawn.index();
        // Pushes never capture and only double pushes set an e.p. square:
        // decided per set, not per move.
        let double = offset == 16 || offset == 16u8.wrapping_neg();
        let push = double || offset == 8 || offset == 8u8.wrapping_neg();
        for to in targets {
            let from = Square::new((to.index() as u8).wrapping_sub(offset));
            let mut child = self.child();
            let to_bit = Bitboard::from_square(to);
            let from_to = Bitboard::from_square(from) | to_bit;
            child.pieces[pawns] ^= from_to;
            child.colors[us.index()] ^= from_to;
            child.board[from.index()] = None;
            child.board[to.index()] = Some(Piece::Pawn);
            child.halfmove = 0;
            let mut key = self.template.key
                ^ piece_key(us, Piece::Pawn, from)
                ^ piece_key(us, Piece::Pawn, to);
            if double {
                let ep = parent.en_passant_after_double_push(us, from, to);
                if let Some(square) = ep {
                    key ^= en_passant_key(square);
                }
                child.en_passant = ep;
            } else if !push && let Some(captured) = parent.board[to.index()] {
                key ^= capture(&mut child, them, captured, to);
            }
            child.key = key;
            debug_assert!(child == parent.play_unchecked(Move::new(from, to, None)));
            f(&mut child);
        }
    }

    /// Calls `f` with the child after each promotion of a pawn moving to
    /// a square of `targets` (from the square `offset` below it, as in
    /// [`BatchMaker::pawn_moves`]), four per square, in the generator's
    /// order of promotion pieces.
    ///
    /// Its loop body repeats [`BatchMaker::pawn_moves`]' with another
    /// arriving piece. Shared as a helper returning the child and its key,
    /// full-make perft ran 22 % more instructions per leaf at the start
    /// position (callgrind, PEXT build: the returned position was copied
    /// once more per child), so each keeps its own.
    #[inline(always)]
    pub(crate) fn promotions(
        &self,
        targets: Bitboard,
        offset: u8,
        mut f: impl FnMut(&mut Position),
    ) {
        let parent = self.parent;
        let us = parent.side;
        let pawns = Piece::Pawn.index();
        for to in targets {
            let from = Square::new((to.index() as u8).wrapping_sub(offset));
            let from_bit = Bitboard::from_square(from);
            let to_bit = Bitboard::from_square(to);
            let key = self.template.key ^ piece_key(us, Piece::Pawn, from);
            let captured = parent.board[to.index()];
            for piece in PROMOTIONS {
                let mut child = self.child();
                child.pieces[pawns] ^= from_bit;
                child.pieces[piece.index()] ^= to_bit;
                child.colors[us.index()] ^= from_bit | to_bit;
                child.board[from.index()] = None;
                child.board[to.index()] = Some(piece);
                child.halfmove = 0;
                let mut child_key = key ^ piece_key(us, piece, to);
                if let Some(captured) = captured {
                    child_key ^= capture(&mut child, us.flip(), captured, to);
                }
                child.key = child_key;
                debug_assert!(child == parent.play_unchecked(Move::new(from, to, Some(piece))));
                f(&mut child);
            }
        }
    }
}

/// Takes `them`'s `captured` piece off `to` in `child` (the mover already
/// stands there in the board array): bitboards, the clock, a castling
/// right of a rook taken on its square. Returns the key change.
#[inline(always)]
fn capture(child: &mut Position, them: Color, captured: Piece, to: Square) -> u64 {
    let to_bit = Bitboard::from_square(to);
    child.pieces[captured.index()] ^= to_bit;
    child.colors[them.index()] ^= to_bit;
    child.halfmove = 0;
    let mut key = piece_key(them, captured, to);
    let lost = child.castling.squares() & to_bit;
    if lost.is_nonempty() {
        child.castling.remove(to_bit);
        key ^= castling_key(lost);
    }
    key
}
