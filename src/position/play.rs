//! Moves that come from outside the engine (a user, a file, a book, another
//! program): the checked ways to play them, and the facts a caller asks of
//! a move before playing it.
//!
//! Two paths, named for what they promise:
//!
//! * [`Position::play`] and [`Position::try_play`] check the move against
//!   the legal moves and refuse an illegal one with [`IllegalMove`],
//!   leaving the position as it was. They also accept a standard-chess
//!   castling move spelled as the king's destination (`e1g1`, what a
//!   hand-built `Move::new(E1, G1, None)` says), which is how people and
//!   most programs write it.
//! * [`Position::make`] (with [`Position::unmake`]) and
//!   [`Position::play_unchecked`] trust the caller: they are what search and
//!   perft use on moves the generator just produced. An illegal move there
//!   leaves the position unspecified (a debug build's consistency assertion
//!   catches it; a release build does not look).

use super::{CastleSide, Position};
use crate::movegen::{is_legal, legal_moves};
use crate::types::{Move, Piece, Square};
use std::fmt;
use std::hash::{Hash, Hasher};

/// The error of [`Position::play`] and [`Position::try_play`]: the move is
/// not legal in the position it was offered to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    mv: Move,
    text: String,
}

impl IllegalMove {
    /// The move that was refused.
    pub fn mv(&self) -> Move {
        self.mv
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {} in this position", self.text)
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// Whether `mv` is one of the legal moves of this position: the same
    /// answer as looking it up in [`crate::movegen::legal_moves`], found by
    /// [`crate::movegen::is_legal`] from the one piece and the king's check
    /// and pin lines, without listing the moves (castling and e.p. still
    /// list them). Exact: a castling move must be in its internal
    /// king-takes-rook form here ([`Position::legal_move`] also accepts
    /// `e1g1`).
    ///
    /// ```
    /// use quince::Position;
    /// let pos = Position::startpos();
    /// let e4 = pos.parse_uci("e2e4").unwrap();
    /// assert!(pos.is_legal(e4));
    /// let after = pos.play(e4).unwrap();
    /// assert!(!after.is_legal(e4)); // the pawn is no longer on e2
    /// ```
    pub fn is_legal(&self, mv: Move) -> bool {
        is_legal(self, mv)
    }

    /// The legal move of this position that `mv` stands for: `mv` itself if
    /// it is legal, or, in standard chess, the castling move whose king goes
    /// to `mv`'s destination (`e1g1` for the internal king-takes-rook
    /// `e1h1`). `None` if `mv` is not legal here.
    ///
    /// ```
    /// use quince::{Move, Position, Square};
    /// let pos: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
    /// let castle = pos.legal_move(Move::new(Square::E1, Square::G1, None)).unwrap();
    /// assert_eq!(pos.uci(castle), "e1g1");
    /// assert!(pos.is_castle(castle));
    /// ```
    pub fn legal_move(&self, mv: Move) -> Option<Move> {
        if self.is_legal(mv) {
            return Some(mv);
        }
        let king_step = self.piece_on(mv.from()) == Some(Piece::King)
            && mv.promotion().is_none()
            && mv.from().rank() == mv.to().rank();
        if !king_step || self.is_chess960() {
            return None;
        }
        legal_moves(self)
            .iter()
            .copied()
            .find(|&castle| self.is_castle(castle) && self.king_destination(castle) == mv.to())
    }

    /// Copy-make, checked: the position after `mv`, or [`IllegalMove`] if
    /// `mv` is not legal here (see [`Position::legal_move`] for the castling
    /// spellings accepted). `self` is never changed.
    ///
    /// ```
    /// use quince::Position;
    /// let pos = Position::startpos();
    /// let e4 = "e2e4".parse().unwrap();
    /// let after = pos.play(e4).expect("legal");
    /// assert!(after.play(e4).is_err()); // the pawn has left e2
    /// ```
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMove> {
        let legal = self.legal_move(mv).ok_or_else(|| self.illegal(mv))?;
        Ok(self.play_unchecked(legal))
    }

    /// Plays `mv` in place if it is legal (as [`Position::play`] decides)
    /// and leaves the position untouched if not.
    ///
    /// ```
    /// use quince::Position;
    /// let mut pos = Position::startpos();
    /// let e4 = pos.parse_uci("e2e4").unwrap();
    /// pos.try_play(e4).unwrap();
    /// assert!(pos.try_play(e4).is_err());
    /// assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    /// ```
    pub fn try_play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let legal = self.legal_move(mv).ok_or_else(|| self.illegal(mv))?;
        self.make(legal);
        Ok(())
    }

    pub(crate) fn illegal(&self, mv: Move) -> IllegalMove {
        let text = self.uci(mv);
        IllegalMove { mv, text }
    }

    /// The piece `mv` moves, `None` if its origin is empty.
    pub fn moved_piece(&self, mv: Move) -> Option<Piece> {
        self.piece_on(mv.from())
    }

    /// Whether `mv` (a legal move here) castles: the king moves onto its own
    /// rook in the internal encoding.
    pub fn is_castle(&self, mv: Move) -> bool {
        self.moved_piece(mv) == Some(Piece::King)
            && self.color(self.side_to_move()).contains(mv.to())
    }

    /// Whether `mv` (a legal move here) captures e.p.: a pawn moving onto
    /// the e.p. square.
    pub fn is_en_passant(&self, mv: Move) -> bool {
        self.moved_piece(mv) == Some(Piece::Pawn) && self.en_passant() == Some(mv.to())
    }

    /// The e.p. square if an e.p. capture is legal here. [`Position::en_passant`]
    /// also holds a capture that is only pseudo-legal (the capturing pawn
    /// pinned to its king); the rules of repetition count e.p. only when
    /// the capture can be made.
    pub fn legal_en_passant(&self) -> Option<Square> {
        let square = self.en_passant()?;
        legal_moves(self)
            .iter()
            .any(|&mv| mv.to() == square && self.moved_piece(mv) == Some(Piece::Pawn))
            .then_some(square)
    }

    /// The position's identity under the rules of repetition: its Zobrist
    /// key, with the e.p. square counted only when an e.p. capture is legal
    /// ([`Position::legal_en_passant`]), as FIDE's article 9.2 counts it.
    /// Two positions with the same pieces, side to move and castling rights
    /// whose only difference is an e.p. capture nobody can make have the
    /// same repetition key and different [`Position::key`]s.
    pub fn repetition_key(&self) -> u64 {
        match (self.en_passant(), self.legal_en_passant()) {
            (Some(square), None) => self.key() ^ super::zobrist::en_passant_key(square),
            _ => self.key(),
        }
    }

    /// Whether `mv` (a legal move here) captures, e.p. included; castling
    /// onto one's own rook is not a capture.
    pub fn is_capture(&self, mv: Move) -> bool {
        self.color(self.side_to_move().flip()).contains(mv.to()) || self.is_en_passant(mv)
    }

    /// Whether `mv` promotes a pawn.
    pub fn is_promotion(&self, mv: Move) -> bool {
        mv.promotion().is_some()
    }

    /// Where the king lands: for castling the g- or c-file square of its
    /// rank (the move's `to` is the rook), otherwise the move's `to`.
    pub fn king_destination(&self, mv: Move) -> Square {
        if !self.is_castle(mv) {
            return mv.to();
        }
        CastleSide::of(mv.from(), mv.to())
            .destinations(mv.from().rank())
            .0
    }
}

/// Hashes the Zobrist key: positions that are equal have equal keys, so
/// this agrees with `Eq` (and a set of positions costs one `u64` per hash).
impl Hash for Position {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn try_play_refuses_without_changing_the_position() {
        let mut pos = Position::startpos();
        let before = pos.clone();
        let illegal = Move::new(Square::E2, Square::E5, None);
        let error = pos.try_play(illegal).unwrap_err();
        assert_eq!(error.mv(), illegal);
        assert_eq!(error.to_string(), "illegal move e2e5 in this position");
        assert_eq!(pos, before);
        assert!(pos.play(illegal).is_err());
        for mv in legal_moves(&before).iter() {
            let mut copy = before.clone();
            copy.try_play(*mv).unwrap();
            assert_eq!(copy, before.play_unchecked(*mv));
            assert_eq!(before.play(*mv).unwrap(), copy);
        }
    }

    #[test]
    fn castling_is_accepted_in_both_spellings_and_named_by_the_king() {
        let pos: Position = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse().unwrap();
        for (king_to, rook) in [(Square::G1, Square::H1), (Square::C1, Square::A1)] {
            let internal = Move::new(Square::E1, rook, None);
            let spoken = Move::new(Square::E1, king_to, None);
            assert_eq!(pos.legal_move(spoken), Some(internal));
            assert_eq!(pos.play(spoken).unwrap(), pos.play(internal).unwrap());
            assert!(pos.is_castle(internal) && !pos.is_capture(internal));
            assert_eq!(pos.king_destination(internal), king_to);
        }
        // A castling move whose right is gone is refused with the king's spelling.
        let no_rights: Position = "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1".parse().unwrap();
        let error = no_rights
            .play(Move::new(Square::E1, Square::H1, None))
            .unwrap_err();
        assert_eq!(error.to_string(), "illegal move e1g1 in this position");
    }

    #[test]
    fn move_facts() {
        let pos: Position = "4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1".parse().unwrap();
        let ep = pos.parse_uci("e5d6").unwrap();
        assert!(pos.is_en_passant(ep) && pos.is_capture(ep) && !pos.is_promotion(ep));
        assert_eq!(pos.moved_piece(ep), Some(Piece::Pawn));
        let promote = pos.parse_uci("b7b8q").unwrap();
        assert!(pos.is_promotion(promote) && !pos.is_capture(promote));
        let push = pos.parse_uci("e5e6").unwrap();
        assert!(!pos.is_capture(push) && !pos.is_en_passant(push) && !pos.is_castle(push));
    }

    #[test]
    fn equal_positions_hash_alike() {
        use std::collections::HashSet;
        let a = Position::startpos();
        let b: Position = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            .parse()
            .unwrap();
        let set = HashSet::from([a.clone()]);
        assert!(set.contains(&b));
        assert!(!set.contains(&a.play(Move::new(Square::E2, Square::E4, None)).unwrap()));
    }
}
