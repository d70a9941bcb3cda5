//! Writing a position as FEN, with a choice of the two conventions that
//! differ between programs: when to write the e.p. square, and how to
//! write castling rights.
//!
//! [`Position::fen`] keeps Quince's convention (the e.p. square whenever a
//! capture there is pseudo-legal; `KQkq`, or Shredder-FEN letters in
//! Chess960 mode); [`Position::fen_with`] writes any other, e.g. the one of
//! python-chess's `fen()` (e.p. only when legal).

use super::{CastleSide, Position};
use crate::types::{Bitboard, Color, Piece, Square};

/// When the e.p. field names a square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EnPassantField {
    /// Whenever a pawn stands ready to capture e.p., legal or not (X-FEN's
    /// rule, and [`Position::fen`]'s).
    #[default]
    PseudoLegal,
    /// Only when the capture is legal (python-chess's default `fen()`,
    /// shakmaty's legal mode): a pawn pinned to its king does not count.
    Legal,
}

/// How the castling field names the rooks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CastlingField {
    /// `KQkq` in standard chess, Shredder-FEN letters in Chess960 mode
    /// ([`Position::fen`]'s).
    #[default]
    Auto,
    /// X-FEN: `K`/`Q` for the outermost rook on its side of the king, the
    /// rook's file letter for an inner one.
    XFen,
    /// Shredder-FEN: always the rook's file letter (`HAha`).
    Shredder,
}

/// The conventions [`Position::fen_with`] writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FenStyle {
    /// When to write the e.p. square.
    pub en_passant: EnPassantField,
    /// How to write castling rights.
    pub castling: CastlingField,
}

impl Position {
    /// Writes the position as FEN (the e.p. square when a capture there is
    /// pseudo-legal; Shredder-FEN castling in Chess960 mode): the default
    /// [`FenStyle`].
    ///
    /// ```
    /// use quince::Position;
    /// assert_eq!(
    ///     Position::default().fen(),
    ///     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    /// );
    /// ```
    pub fn fen(&self) -> String {
        self.fen_with(FenStyle::default())
    }

    /// Writes the position as FEN in the conventions of `style`.
    ///
    /// ```
    /// use quince::{EnPassantField, FenStyle, Position};
    /// // Black's c5 pawn could take on d6, but it is pinned to its king.
    /// let pos: Position = "8/8/8/K1pP3r/8/8/8/7k w - c6 0 2".parse().unwrap();
    /// let legal = FenStyle { en_passant: EnPassantField::Legal, ..FenStyle::default() };
    /// assert_eq!(pos.fen(), "8/8/8/K1pP3r/8/8/8/7k w - c6 0 2");
    /// assert_eq!(pos.fen_with(legal), "8/8/8/K1pP3r/8/8/8/7k w - - 0 2");
    /// ```
    pub fn fen_with(&self, style: FenStyle) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::new(rank * 8 + file)) {
                    Some((color, piece)) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(piece.fen_char(color));
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(self.side.fen_char());
        out.push(' ');
        out.push_str(&self.castling_field(style.castling));
        out.push(' ');
        let en_passant = match style.en_passant {
            EnPassantField::PseudoLegal => self.en_passant,
            EnPassantField::Legal => self.legal_en_passant(),
        };
        match en_passant {
            Some(square) => out.push_str(&square.to_string()),
            None => out.push('-'),
        }
        out.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        out
    }

    fn castling_field(&self, style: CastlingField) -> String {
        let mut field = String::new();
        for color in Color::ALL {
            let king_file = self.king(color).file();
            for side in CastleSide::BOTH {
                let Some(rook) = self.castling_rook(color, side) else {
                    continue;
                };
                let file = rook.file();
                let named = if side == CastleSide::Short { 'k' } else { 'q' };
                let letter = match style {
                    CastlingField::Auto if self.chess960 => file.char(),
                    CastlingField::Auto => named,
                    CastlingField::Shredder => file.char(),
                    CastlingField::XFen => {
                        // Outermost: no other rook of ours on the back rank
                        // beyond it, on its side of the king.
                        let mut back_rank_rooks =
                            self.colored(color, Piece::Rook) & Bitboard::rank(rook.rank().index());
                        let beyond = back_rank_rooks.any(|r| {
                            let f = r.file();
                            if side == CastleSide::Short {
                                f > file && f > king_file
                            } else {
                                f < file && f < king_file
                            }
                        });
                        if beyond { file.char() } else { named }
                    }
                };
                field.push(if color == Color::White {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
        }
        if field.is_empty() {
            "-".to_string()
        } else {
            field
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_is_written_in_each_convention() {
        let shredder = FenStyle {
            castling: CastlingField::Shredder,
            ..FenStyle::default()
        };
        let xfen = FenStyle {
            castling: CastlingField::XFen,
            ..FenStyle::default()
        };
        let standard = Position::default();
        assert!(standard.fen_with(shredder).contains(" HAha "));
        assert!(standard.fen_with(xfen).contains(" KQkq "));
        // A Chess960 position whose white short-castling rook is the inner
        // of two rooks on the king's right: X-FEN names its file.
        let inner =
            Position::from_fen_with("rk2r2r/8/8/8/8/8/8/RK2R2R w EAea - 0 1", true).unwrap();
        assert_eq!(inner.fen(), "rk2r2r/8/8/8/8/8/8/RK2R2R w EAea - 0 1");
        assert_eq!(
            inner.fen_with(xfen),
            "rk2r2r/8/8/8/8/8/8/RK2R2R w EQeq - 0 1"
        );
        assert_eq!(inner.fen_with(shredder), inner.fen());
    }

    #[test]
    fn the_en_passant_square_is_written_in_each_convention() {
        let legal = FenStyle {
            en_passant: EnPassantField::Legal,
            ..FenStyle::default()
        };
        // After 1. e4 no black pawn can take: no square either way.
        let mut pos = Position::default();
        let e4 = pos.parse_uci("e2e4").unwrap();
        pos.try_play(e4).unwrap();
        assert_eq!(pos.fen_with(legal), pos.fen());
        // A legal capture is written either way.
        let open: Position = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2".parse().unwrap();
        assert!(open.fen_with(legal).contains(" d6 "));
    }
}
