//! Making and unmaking moves. `make` updates everything incrementally
//! (bitboards, board array, rights, e.p., clocks, key) and returns an
//! [`Undo`] with what cannot be recomputed; `unmake` restores the position
//! bit for bit. [`Position::play`] is the copy-make alternative.

use super::castling::{CastleSide, back_rank};
use super::zobrist::{BLACK_TO_MOVE, castling_key, en_passant_key, piece_key};
use super::{Castling, Position};
use crate::tables::pawn_attacks;
use crate::types::{Bitboard, Color, Move, Piece, Square};

/// What kind of move was made (decided once in `make`, reused by `unmake`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Normal,
    Castle,
    EnPassant,
}

/// The state `unmake` needs to restore a position.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: Option<Piece>,
    kind: Kind,
    castling: Castling,
    en_passant: Option<Square>,
    halfmove: u32,
    key: u64,
}

/// King and rook destinations of a castling move whose rook stands on `rook`.
fn castle_targets(color: Color, king: Square, rook: Square) -> (Square, Square) {
    CastleSide::of(king, rook).destinations(back_rank(color))
}

impl Position {
    /// Plays a legal move (as produced by move generation or [`Position::parse_uci`]).
    /// Passing an illegal move leaves the position unspecified but never panics
    /// on a move from a piece of the side to move.
    // Always inlined: in copy-make the `Undo` is dead and its stores vanish
    // (callgrind, PEXT build: 26.9 -> 25.1 instructions per node, start position d5).
    #[inline(always)]
    pub fn make(&mut self, mv: Move) -> Undo {
        let us = self.side;
        let them = us.flip();
        let (from, to) = (mv.from(), mv.to());
        let piece = self.board[from.index()].unwrap_or(Piece::Pawn);
        let mut undo = Undo {
            captured: None,
            kind: Kind::Normal,
            castling: self.castling,
            en_passant: self.en_passant,
            halfmove: self.halfmove,
            key: self.key,
        };
        self.key ^= BLACK_TO_MOVE;
        if let Some(ep) = self.en_passant.take() {
            self.key ^= en_passant_key(ep);
        }
        self.halfmove += 1;

        if piece == Piece::King && self.colors[us.index()].contains(to) {
            // Castling, encoded as king takes own rook.
            let (king_to, rook_to) = castle_targets(us, from, to);
            self.remove(us, Piece::Rook, to);
            self.remove(us, Piece::King, from);
            self.put(us, Piece::King, king_to);
            self.put(us, Piece::Rook, rook_to);
            self.key ^= piece_key(us, Piece::King, from)
                ^ piece_key(us, Piece::King, king_to)
                ^ piece_key(us, Piece::Rook, to)
                ^ piece_key(us, Piece::Rook, rook_to);
            self.castling.clear(us);
            undo.kind = Kind::Castle;
        } else {
            // A plain move toggles both squares in each affected bitboard at
            // once (one XOR with `from | to` instead of a remove and a put).
            let to_bit = Bitboard::from_square(to);
            let from_to = Bitboard::from_square(from) | to_bit;
            if let Some(captured) = self.board[to.index()] {
                self.pieces[captured.index()] ^= to_bit;
                self.colors[them.index()] ^= to_bit;
                self.occupied ^= to_bit;
                self.key ^= piece_key(them, captured, to);
                if captured == Piece::Rook {
                    self.castling.remove_rook(them, to);
                }
                self.halfmove = 0;
                undo.captured = Some(captured);
            } else if piece == Piece::Pawn && Some(to) == undo.en_passant {
                let victim = Square::from_coords(to.file(), from.rank());
                self.remove(them, Piece::Pawn, victim);
                self.key ^= piece_key(them, Piece::Pawn, victim);
                undo.kind = Kind::EnPassant;
            }
            self.pieces[piece.index()] ^= from_to;
            self.colors[us.index()] ^= from_to;
            self.occupied ^= from_to;
            self.board[from.index()] = None;
            self.board[to.index()] = Some(piece);
            self.key ^= piece_key(us, piece, from) ^ piece_key(us, piece, to);
            match piece {
                Piece::Pawn => {
                    self.halfmove = 0;
                    if let Some(promotion) = mv.promotion() {
                        self.pieces[Piece::Pawn.index()] ^= to_bit;
                        self.pieces[promotion.index()] ^= to_bit;
                        self.board[to.index()] = Some(promotion);
                        self.key ^= piece_key(us, Piece::Pawn, to) ^ piece_key(us, promotion, to);
                    } else if from.index() ^ to.index() == 16 {
                        self.set_en_passant_after_double_push(from, to);
                    }
                }
                Piece::King => self.castling.clear(us),
                Piece::Rook => self.castling.remove_rook(us, from),
                _ => {}
            }
        }
        if self.castling != undo.castling {
            self.key ^= castling_key(undo.castling) ^ castling_key(self.castling);
        }
        self.fullmove += us.index() as u32; // after Black's move
        self.side = them;
        debug_assert!(self.is_consistent(), "inconsistent after {mv} in {self:?}");
        undo
    }

    /// Records the e.p. square after a double push, but only if an enemy pawn
    /// could capture there (see the `en_passant` field).
    #[inline]
    fn set_en_passant_after_double_push(&mut self, from: Square, to: Square) {
        let passed = Square::new(((from.index() + to.index()) / 2) as u8);
        let us = self.side;
        let capturers = pawn_attacks(us, passed) & self.colored(us.flip(), Piece::Pawn);
        if capturers.is_nonempty() {
            self.en_passant = Some(passed);
            self.key ^= en_passant_key(passed);
        }
    }

    /// Takes back `mv`, which must be the last move made, with its `undo`.
    #[inline]
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        let them = self.side;
        let us = them.flip();
        let (from, to) = (mv.from(), mv.to());
        match undo.kind {
            Kind::Castle => {
                let (king_to, rook_to) = castle_targets(us, from, to);
                self.remove(us, Piece::King, king_to);
                self.remove(us, Piece::Rook, rook_to);
                self.put(us, Piece::King, from);
                self.put(us, Piece::Rook, to);
            }
            Kind::EnPassant | Kind::Normal => {
                let to_bit = Bitboard::from_square(to);
                let from_to = Bitboard::from_square(from) | to_bit;
                let mut moved = self.board[to.index()].unwrap_or(Piece::Pawn);
                if mv.promotion().is_some() {
                    self.pieces[moved.index()] ^= to_bit;
                    self.pieces[Piece::Pawn.index()] ^= to_bit;
                    moved = Piece::Pawn;
                }
                self.pieces[moved.index()] ^= from_to;
                self.colors[us.index()] ^= from_to;
                self.occupied ^= from_to;
                self.board[from.index()] = Some(moved);
                self.board[to.index()] = None;
                if let Some(captured) = undo.captured {
                    self.put(them, captured, to);
                } else if undo.kind == Kind::EnPassant {
                    self.put(
                        them,
                        Piece::Pawn,
                        Square::from_coords(to.file(), from.rank()),
                    );
                }
            }
        }
        self.fullmove -= us.index() as u32;
        self.side = us;
        self.castling = undo.castling;
        self.en_passant = undo.en_passant;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
        debug_assert!(
            self.is_consistent(),
            "inconsistent after unmaking {mv} in {self:?}"
        );
    }

    /// Copy-make: the position after `mv`, leaving `self` untouched.
    #[inline]
    pub fn play(&self, mv: Move) -> Position {
        let mut next = self.clone();
        next.make(mv);
        next
    }

    /// Passes the move (a null move): only for search and tests; the side to
    /// move must not be in check.
    pub fn make_null(&mut self) -> Option<Square> {
        let ep = self.en_passant.take();
        if let Some(square) = ep {
            self.key ^= en_passant_key(square);
        }
        self.side = self.side.flip();
        self.key ^= BLACK_TO_MOVE;
        ep
    }

    /// Takes back a null move made with [`Position::make_null`].
    pub fn unmake_null(&mut self, ep: Option<Square>) {
        self.side = self.side.flip();
        self.key ^= BLACK_TO_MOVE;
        if let Some(square) = ep {
            self.key ^= en_passant_key(square);
        }
        self.en_passant = ep;
    }
}
