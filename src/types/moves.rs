use super::{Piece, Square};
use std::fmt;

/// A move in 16 bits: from (6), to (6), promotion (3).
///
/// Castling is encoded as *the king takes its own rook* (`to` is the rook's
/// square), in standard chess and Chess960 alike: one encoding covers every
/// castling rule, and the UCI text (`e1g1` or `e1h1`) is chosen when printing.
/// That is why `Move` has no `Display`: print a move with
/// [`crate::Position::uci`] or [`crate::Position::san`], which know the
/// position (its `Debug` shows the raw encoding, for diagnostics).
/// En passant is a pawn moving diagonally onto the e.p. square; the position
/// recognises it, so it needs no flag.
///
/// Moves order by their bits (origin, then destination, then promotion),
/// so that they can be sorted and kept in ordered sets.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// The null move (`0000` in UCI); never generated.
    pub const NULL: Move = Move(0);

    /// A move from `from` to `to`, promoting to `promotion` if given.
    #[inline]
    pub const fn new(from: Square, to: Square, promotion: Option<Piece>) -> Move {
        let promo = match promotion {
            Some(piece) => piece.index() as u16,
            None => 0,
        };
        Move(from.index() as u16 | (to.index() as u16) << 6 | promo << 12)
    }

    /// The square the moving piece starts on (the king's, for castling).
    #[inline]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// The square the move goes to; for castling, the square of the rook
    /// the king castles with, not the king's destination.
    #[inline]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8)
    }

    /// The piece a pawn promotes to, if this is a promotion.
    #[inline]
    pub const fn promotion(self) -> Option<Piece> {
        match self.0 >> 12 {
            0 => None,
            index => Piece::from_index(index as usize),
        }
    }

    /// The raw 16 bits (stable: usable as a hash-table or file encoding).
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move with these raw bits (the inverse of [`Move::bits`]). Any
    /// bits make a move, not necessarily a legal one: check it against the
    /// position's legal moves before playing it.
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }
}

impl Move {
    /// The raw coordinate text (`e2e4`, `e7e8q`, `0000`), castling as
    /// king-takes-rook: the encoding as text, for `Position::uci` in
    /// Chess960, serde and diagnostics.
    pub(crate) fn coordinates(self) -> String {
        format!("{self:?}")
    }

    fn write_raw(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Move::NULL {
            return write!(f, "0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(piece) = self.promotion() {
            write!(f, "{}", piece.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_raw(f)
    }
}
