//! Castling: which way a king castles and the rights, stored as the squares
//! of the rooks that may still castle. (The squares castling crosses are
//! generated tables: `tables::castling_empty`, `tables::castling_king_path`.)
//! Storing rooks rather than "king side / queen side" flags makes Chess960
//! the general case and standard chess the special case.

use super::Position;
use crate::types::{Bitboard, Color, File, Piece, Rank, Square};

/// Which way a king castles: towards the h-file or towards the a-file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastleSide {
    /// "King side", `O-O`: the rook is on the king's h-file side.
    Short = 0,
    /// "Queen side", `O-O-O`: the rook is on the king's a-file side.
    Long = 1,
}

impl CastleSide {
    /// Both sides, short first.
    pub const BOTH: [CastleSide; 2] = [CastleSide::Short, CastleSide::Long];

    /// The file the king ends on: g or c.
    pub const fn king_target(self) -> File {
        match self {
            CastleSide::Short => File::new(6),
            CastleSide::Long => File::new(2),
        }
    }

    /// The file the rook ends on: f or d.
    pub const fn rook_target(self) -> File {
        match self {
            CastleSide::Short => File::new(5),
            CastleSide::Long => File::new(3),
        }
    }

    /// The side a king on `king` castles to with the rook on `rook`.
    #[inline]
    pub fn of(king: Square, rook: Square) -> CastleSide {
        if rook > king {
            CastleSide::Short
        } else {
            CastleSide::Long
        }
    }

    /// King and rook destination squares when castling on `rank`.
    #[inline]
    pub fn destinations(self, rank: Rank) -> (Square, Square) {
        (
            Square::from_coords(self.king_target(), rank),
            Square::from_coords(self.rook_target(), rank),
        )
    }
}

/// Castling rights, stored as the set of squares of the rooks that may
/// still castle (both colours).
///
/// A set rather than per-side flags because that is what make needs: any
/// move from or to a right's rook square ends that right (the rook moved or
/// was captured), one AND-NOT with the move's `from | to`; comparing rights
/// is one 64-bit compare. Which side a rook castles to follows from where it
/// stands relative to its king ([`Position::castling_rook`]), so Chess960 is
/// the general case and standard chess the special one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Castling {
    rooks: Bitboard,
}

/// The back rank of a colour.
pub const fn back_rank(color: Color) -> Rank {
    match color {
        Color::White => Rank::new(0),
        Color::Black => Rank::new(7),
    }
}

/// The back rank of a colour as a set.
#[inline]
const fn back_rank_set(color: Color) -> Bitboard {
    Bitboard::rank(back_rank(color).index())
}

impl Castling {
    /// No castling rights.
    pub const NONE: Castling = Castling {
        rooks: Bitboard::EMPTY,
    };

    /// The squares of `color`'s rooks with a castling right (at most two,
    /// one on each side of the king).
    #[inline]
    pub fn rooks_of(self, color: Color) -> Bitboard {
        self.rooks & back_rank_set(color)
    }

    /// The squares of all rooks with a castling right, both colours.
    #[inline]
    pub fn squares(self) -> Bitboard {
        self.rooks
    }

    /// Adds the right of the rook on `square` (on its colour's back rank).
    pub(crate) fn add(&mut self, square: Square) {
        self.rooks |= Bitboard::from_square(square);
    }

    /// Whether neither colour may castle any more.
    pub fn is_empty(self) -> bool {
        self.rooks.is_empty()
    }

    /// Drops both rights of `color` (the king moved).
    #[inline]
    pub(crate) fn clear(&mut self, color: Color) {
        self.rooks &= !back_rank_set(color);
    }

    /// Drops the rights of rooks on `squares` (a move left or entered them:
    /// the rook moved or was captured).
    #[inline]
    pub(crate) fn remove(&mut self, squares: Bitboard) {
        self.rooks &= !squares;
    }

    /// Every (colour, rook file) with a right, White first, for hashing.
    pub fn iter(self) -> impl Iterator<Item = (Color, File)> {
        Color::ALL.into_iter().flat_map(move |color| {
            self.rooks_of(color)
                .into_iter()
                .map(move |square| (color, square.file()))
        })
    }

    /// True when every right uses the standard king (e-file) and rook (a/h) squares.
    pub fn is_standard(self, position: &Position) -> bool {
        Color::ALL.into_iter().all(|color| {
            let rooks = self.rooks_of(color);
            if rooks.is_empty() {
                return true;
            }
            let corners = Bitboard::FILE_A | Bitboard::FILE_H;
            let king_home = Square::from_coords(File::new(4), back_rank(color));
            position.piece_at(king_home) == Some((color, Piece::King))
                && (rooks & !corners).is_empty()
        })
    }
}

impl Position {
    /// The square of the rook `color` may castle with on `side`, if that
    /// right remains.
    #[inline]
    pub fn castling_rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        let king = self.king(color);
        self.castling
            .rooks_of(color)
            .into_iter()
            .find(|&rook| CastleSide::of(king, rook) == side)
    }
}
