//! Castling rights, stored as the files of the rooks that may still castle.
//! Storing files rather than "king side / queen side" flags makes Chess960
//! the general case and standard chess the special case.

use super::Position;
use crate::tables::between;
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

/// The squares a castling king or rook crosses and lands on going from
/// `from` to `to`: its start excluded unless it does not move (then `to`
/// itself). The one definition of a castling path, shared by the
/// generators and the FEN-time path masks.
#[inline]
pub fn castling_path(from: Square, to: Square) -> Bitboard {
    between(from, to) | Bitboard::from_square(to)
}

/// The rook files that still have castling rights, per colour and side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Castling {
    rooks: [[Option<File>; 2]; 2],
}

/// The back rank of a colour.
pub const fn back_rank(color: Color) -> Rank {
    match color {
        Color::White => Rank::new(0),
        Color::Black => Rank::new(7),
    }
}

impl Castling {
    /// No castling rights.
    pub const NONE: Castling = Castling {
        rooks: [[None; 2]; 2],
    };

    /// The file of the rook that `color` may castle with on `side`.
    #[inline]
    pub fn rook_file(self, color: Color, side: CastleSide) -> Option<File> {
        self.rooks[color.index()][side as usize]
    }

    /// The square of that rook.
    #[inline]
    pub fn rook_square(self, color: Color, side: CastleSide) -> Option<Square> {
        self.rook_file(color, side)
            .map(|file| Square::from_coords(file, back_rank(color)))
    }

    pub(crate) fn set(&mut self, color: Color, side: CastleSide, file: Option<File>) {
        self.rooks[color.index()][side as usize] = file;
    }

    /// Whether `color` has any castling right.
    #[inline]
    pub fn has_any(self, color: Color) -> bool {
        self.rooks[color.index()] != [None, None]
    }

    pub fn is_empty(self) -> bool {
        self.rooks == [[None; 2]; 2]
    }

    /// Drops both rights of `color` (the king moved).
    #[inline]
    pub(crate) fn clear(&mut self, color: Color) {
        self.rooks[color.index()] = [None, None];
    }

    /// Drops the right tied to a rook on `square`, if any (it moved or was captured).
    #[inline]
    pub(crate) fn remove_rook(&mut self, color: Color, square: Square) {
        if square.rank() != back_rank(color) {
            return;
        }
        for slot in &mut self.rooks[color.index()] {
            if *slot == Some(square.file()) {
                *slot = None;
            }
        }
    }

    /// Every (colour, rook file) with a right, for hashing.
    pub fn iter(self) -> impl Iterator<Item = (Color, File)> {
        Color::ALL.into_iter().flat_map(move |color| {
            self.rooks[color.index()]
                .into_iter()
                .flatten()
                .map(move |file| (color, file))
        })
    }

    /// True when every right uses the standard king (e-file) and rook (a/h) squares.
    pub fn is_standard(self, position: &Position) -> bool {
        Color::ALL.into_iter().all(|color| {
            if !self.has_any(color) {
                return true;
            }
            let king_home = Square::from_coords(File::new(4), back_rank(color));
            position.piece_at(king_home) == Some((color, Piece::King))
                && self
                    .rook_file(color, CastleSide::Short)
                    .is_none_or(|f| f.index() == 7)
                && self
                    .rook_file(color, CastleSide::Long)
                    .is_none_or(|f| f.index() == 0)
        })
    }
}
