use super::Color;

/// A kind of chess piece, without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// A pawn.
    Pawn = 0,
    /// A knight.
    Knight = 1,
    /// A bishop.
    Bishop = 2,
    /// A rook.
    Rook = 3,
    /// A queen.
    Queen = 4,
    /// A king.
    King = 5,
}

impl Piece {
    /// All six kinds, in index order.
    pub const ALL: [Piece; 6] = [
        Piece::Pawn,
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
        Piece::King,
    ];

    /// The pieces a pawn may promote to, strongest first (the order moves are
    /// generated in, so search tries the queen first).
    pub const PROMOTIONS: [Piece; 4] = [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight];

    /// 0..6: the index into per-piece arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece with the given index, if it is below 6.
    pub const fn from_index(index: usize) -> Option<Piece> {
        match index {
            0 => Some(Piece::Pawn),
            1 => Some(Piece::Knight),
            2 => Some(Piece::Bishop),
            3 => Some(Piece::Rook),
            4 => Some(Piece::Queen),
            5 => Some(Piece::King),
            _ => None,
        }
    }

    /// The lower-case letter used in FEN (for Black) and UCI promotions.
    pub const fn char(self) -> char {
        match self {
            Piece::Pawn => 'p',
            Piece::Knight => 'n',
            Piece::Bishop => 'b',
            Piece::Rook => 'r',
            Piece::Queen => 'q',
            Piece::King => 'k',
        }
    }

    /// Reads a FEN piece letter: upper case is White, lower case Black.
    pub const fn from_fen_char(c: char) -> Option<(Color, Piece)> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let piece = match c.to_ascii_lowercase() {
            'p' => Piece::Pawn,
            'n' => Piece::Knight,
            'b' => Piece::Bishop,
            'r' => Piece::Rook,
            'q' => Piece::Queen,
            'k' => Piece::King,
            _ => return None,
        };
        Some((color, piece))
    }

    /// The FEN letter of this piece in the given colour.
    pub const fn fen_char(self, color: Color) -> char {
        match color {
            Color::White => self.char().to_ascii_uppercase(),
            Color::Black => self.char(),
        }
    }
}
