//! Polyglot keys and move codes: how a Polyglot book names a position and
//! a move.
//!
//! The key is a Zobrist hash with the format's published random numbers
//! (generated tables `POLYGLOT_*`, from `codegen/data/polyglot_random64.txt`):
//! one number per (piece, square), one per castling right, one per
//! en-passant file and one when White is to move, XORed together.

use crate::position::Position;
use crate::tables::generated as g;
use crate::tables::pawn_attacks;
use crate::types::{Color, Move, Piece, Square};

impl Position {
    /// The Polyglot opening-book key of this position, as in the Polyglot
    /// book format (Fabien Letouzey), compatible with every Polyglot book.
    ///
    /// * Castling rights count by the standard rook squares: a right of the
    ///   rook on h1, a1, h8 or a8 adds the key of white short, white long,
    ///   black short or black long castling. In Chess960 a right of a rook
    ///   on any other file adds nothing (Polyglot has no Chess960 keys), so
    ///   such positions share keys with the same position without that right.
    /// * The en-passant file counts only if a pawn of the side to move
    ///   stands ready to capture there (pseudo-legally: a pin does not
    ///   matter), which is Polyglot's rule.
    ///
    /// ```
    /// use quince::Position;
    /// let mut pos = Position::startpos();
    /// assert_eq!(pos.polyglot_key(), 0x463b96181691fc9c);
    /// pos.try_play(pos.parse_uci("e2e4").unwrap()).unwrap();
    /// assert_eq!(pos.polyglot_key(), 0x823c9b50fd114196);
    /// ```
    pub fn polyglot_key(&self) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            for piece in Piece::ALL {
                for square in self.colored(color, piece) {
                    key ^= g::POLYGLOT_PIECES[color.index() * 6 + piece.index()][square.index()];
                }
            }
        }
        let rights = self.castling().squares();
        for (index, corner) in [Square::H1, Square::A1, Square::H8, Square::A8]
            .into_iter()
            .enumerate()
        {
            if rights.contains(corner) {
                key ^= g::POLYGLOT_CASTLING[index];
            }
        }
        if let Some(target) = self.en_passant() {
            let us = self.side_to_move();
            // Our pawns that attack the target are the squares a pawn of
            // the other colour would attack from it.
            let capturers = pawn_attacks(us.flip(), target) & self.colored(us, Piece::Pawn);
            if capturers.is_nonempty() {
                key ^= g::POLYGLOT_EN_PASSANT[target.file().index()];
            }
        }
        if self.side_to_move() == Color::White {
            key ^= g::POLYGLOT_WHITE_TO_MOVE;
        }
        key
    }
}

/// The Polyglot code of a move: to-file in bits 0-2, to-rank 3-5, from-file
/// 6-8, from-rank 9-11, promotion 12-14 (1 knight, 2 bishop, 3 rook,
/// 4 queen). Castling is the king taking its own rook (`e1h1`), which is
/// also how a Quince [`Move`] encodes it, so it needs no special case.
///
/// ```
/// use quince::book::{decode_move, encode_move};
/// use quince::{Move, Square};
/// let castle = Move::new(Square::E1, Square::H1, None);
/// assert_eq!(encode_move(castle), 0x0107);
/// assert_eq!(decode_move(0x0107), Some(castle));
/// ```
pub fn encode_move(mv: Move) -> u16 {
    let promotion = match mv.promotion() {
        Some(Piece::Knight) => 1,
        Some(Piece::Bishop) => 2,
        Some(Piece::Rook) => 3,
        Some(Piece::Queen) => 4,
        _ => 0,
    };
    mv.to().index() as u16 | (mv.from().index() as u16) << 6 | promotion << 12
}

/// The move a Polyglot code names (see [`encode_move`]), or `None` if the
/// code cannot name a move (an unknown promotion piece, bit 15 set, or a
/// move from a square to itself). Not checked against any position: a book
/// probe matches it against the position's legal moves.
pub fn decode_move(code: u16) -> Option<Move> {
    let to = Square::new((code & 63) as u8);
    let from = Square::new((code >> 6 & 63) as u8);
    let promotion = match code >> 12 {
        0 => None,
        1 => Some(Piece::Knight),
        2 => Some(Piece::Bishop),
        3 => Some(Piece::Rook),
        4 => Some(Piece::Queen),
        _ => return None,
    };
    (from != to).then(|| Move::new(from, to, promotion))
}
