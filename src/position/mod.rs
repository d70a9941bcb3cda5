//! The position: what is on the board and the state around it.
//!
//! Pieces are stored twice, as is usual for fast generators: as bitboards
//! (per piece kind and per colour; all occupied squares is their union,
//! computed, not stored) for set-wise move generation, and as a
//! square-centric board array for "what is on e4?".
//! The rest is the game state FEN describes plus an incremental Zobrist key.
//!
//! ```text
//!   8  r n b q k b n r      Position::startpos()
//!   7  p p p p p p p p
//!   6  . . . . . . . .      White pieces upper case.
//!   5  . . . . . . . .      Squares are numbered a1 = 0 .. h8 = 63,
//!   4  . . . . . . . .      so rank 1 is the low byte of a bitboard.
//!   3  . . . . . . . .
//!   2  P P P P P P P P
//!   1  R N B Q K B N R
//!      a b c d e f g h
//! ```

mod batch_make;
mod castling;
mod fen;
mod fen_write;
mod make;
mod play;
mod status;
mod zobrist;

pub(crate) use batch_make::BatchMaker;
pub use castling::{CastleSide, Castling};
pub use fen::{FenError, FenErrorKind};
pub use fen_write::{CastlingField, EnPassantField, FenStyle};
pub use make::Undo;
pub use play::IllegalMove;
pub use status::GameStatus;

use crate::sliders::{Active, Slider, bishop_attacks, rook_attacks};
use crate::tables::{between, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_rays};
use crate::types::{Bitboard, Color, Piece, Square};
use std::fmt;

/// A chess position (standard or Chess960).
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pieces: [Bitboard; 6],
    colors: [Bitboard; 2],
    board: [Option<Piece>; 64],
    side: Color,
    castling: Castling,
    /// The e.p. target square, kept only when a pawn of the side to move
    /// attacks it, so that equal positions have equal keys.
    en_passant: Option<Square>,
    halfmove: u32,
    fullmove: u32,
    key: u64,
    chess960: bool,
}

// Copy-make copies the whole position per child: 160 bytes are five
// 32-byte moves (x86-64-v3); a field more would add a tail copy to every
// make (see `Position::occupied`).
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Position>() == 160);

/// Checking pieces and pinned pieces of the side to move, computed together
/// because both come from the same scan of the lines through the king.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckInfo {
    /// Enemy pieces giving check.
    pub checkers: Bitboard,
    /// Own pieces that are the only blocker between their king and an enemy slider.
    pub pinned: Bitboard,
}

/// Whether a slider of `straight` (rooks, queens) or `diagonal` (bishops,
/// queens) attacks `square` with `occupied` as the blockers. A lookup only
/// if such a slider stands on one of the square's lines at all: one table
/// load and an AND, where the lookup is several. Fewer instructions per
/// node in bulk perft, most with the costlier lookups of the default `hq`
/// build (callgrind; `reports/archive/speed-2026-11-23-morning.md`).
/// Shared by [`Position::is_attacked`] and `gives_check` (the child's
/// sliders, known before the move is made).
#[inline(always)]
pub(crate) fn sliders_attack<A: Slider>(
    square: Square,
    occupied: Bitboard,
    straight: Bitboard,
    diagonal: Bitboard,
) -> bool {
    ((rook_rays(square) & straight).is_nonempty()
        && (A::rook(square, occupied) & straight).is_nonempty())
        || ((bishop_rays(square) & diagonal).is_nonempty()
            && (A::bishop(square, occupied) & diagonal).is_nonempty())
}

/// What one walk of the lines from a king to the enemy sliders on them
/// ("snipers") finds: [`Position::check_info_of`] keeps the checks and
/// pins, bulk perft's leaf counter also the lines themselves. One rule for
/// both, so the two cannot disagree about what a pin is.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SniperLines {
    /// Snipers with nothing between them and the king: sliding checkers.
    pub(crate) checkers: Bitboard,
    /// The king's own pieces that are the only blocker on a line.
    pub(crate) pinned: Bitboard,
    /// Every square between the king and a sniper.
    pub(crate) lines: Bitboard,
}

/// The standard start position in FEN.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen(STARTPOS_FEN).expect("the start position is valid")
    }

    fn empty() -> Position {
        Position {
            pieces: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            board: [None; 64],
            side: Color::White,
            castling: Castling::NONE,
            en_passant: None,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            chess960: false,
        }
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// All occupied squares.
    ///
    /// The union of the two colours, not a field of its own: without it
    /// every make has one bitboard fewer to update and `Position` is 160
    /// bytes instead of 168, five 32-byte copies with no 8-byte tail,
    /// while a reader pays one OR (see `reports/beyond-gigantua.md`).
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The squares occupied by `color`.
    #[inline]
    pub fn color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// The squares occupied by pieces of kind `piece` (both colours).
    #[inline]
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        self.pieces[piece.index()]
    }

    /// The squares occupied by `piece`s of `color`.
    #[inline]
    pub fn colored(&self, color: Color, piece: Piece) -> Bitboard {
        self.pieces[piece.index()] & self.colors[color.index()]
    }

    /// The piece kind on `square`, if any.
    #[inline]
    pub fn piece_on(&self, square: Square) -> Option<Piece> {
        self.board[square.index()]
    }

    /// The colour and kind of the piece on `square`, if any.
    pub fn piece_at(&self, square: Square) -> Option<(Color, Piece)> {
        let piece = self.board[square.index()]?;
        let color = if self.colors[0].contains(square) {
            Color::White
        } else {
            Color::Black
        };
        Some((color, piece))
    }

    /// The square of `color`'s king. Every accepted position has one.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        // Valid positions always have a king; a1 is an inert fallback.
        self.colored(color, Piece::King)
            .first()
            .unwrap_or(Square::A1)
    }

    /// Castling rights, stored as the squares of the rooks that may castle.
    #[inline]
    pub fn castling(&self) -> Castling {
        self.castling
    }

    /// The e.p. square, if an e.p. capture is pseudo-legal.
    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number, starting at 1 and incremented after Black moves.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The incremental Zobrist key.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Whether castling is read and written in Chess960 style (king takes rook,
    /// Shredder-FEN). Set automatically when castling squares are not the
    /// standard ones.
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switches Chess960 notation on or off (as `UCI_Chess960` does). Turning
    /// it off is refused (returns false) when the castling rooks are not on
    /// standard squares, since standard notation could not express them.
    pub fn set_chess960(&mut self, on: bool) -> bool {
        if !on && !self.castling.is_standard(self) {
            return false;
        }
        self.chess960 = on;
        true
    }

    /// Places a piece on an empty square (bitboards, and the board array
    /// when `BOARD`; not the key).
    #[inline]
    fn put<const BOARD: bool>(&mut self, color: Color, piece: Piece, square: Square) {
        let bit = Bitboard::from_square(square);
        self.pieces[piece.index()] |= bit;
        self.colors[color.index()] |= bit;
        if BOARD {
            self.board[square.index()] = Some(piece);
        }
    }

    /// Removes a piece known to be on `square` (bitboards, and the board
    /// array when `BOARD`; not the key).
    #[inline]
    fn remove<const BOARD: bool>(&mut self, color: Color, piece: Piece, square: Square) {
        let bit = Bitboard::from_square(square);
        self.pieces[piece.index()] ^= bit;
        self.colors[color.index()] ^= bit;
        if BOARD {
            self.board[square.index()] = None;
        }
    }

    /// All pieces of either colour that attack `square`, with `occupied` as blockers.
    pub fn attackers_to(&self, square: Square, occupied: Bitboard) -> Bitboard {
        let rooks = self.pieces(Piece::Rook) | self.pieces(Piece::Queen);
        let bishops = self.pieces(Piece::Bishop) | self.pieces(Piece::Queen);
        (pawn_attacks(Color::White, square) & self.colored(Color::Black, Piece::Pawn))
            | (pawn_attacks(Color::Black, square) & self.colored(Color::White, Piece::Pawn))
            | (knight_attacks(square) & self.pieces(Piece::Knight))
            | (king_attacks(square) & self.pieces(Piece::King))
            | (rook_attacks(square, occupied) & rooks)
            | (bishop_attacks(square, occupied) & bishops)
    }

    /// Whether `by` attacks `square` when `occupied` are the blockers.
    #[inline]
    pub fn is_attacked(&self, square: Square, by: Color, occupied: Bitboard) -> bool {
        self.is_attacked_with::<Active>(square, by, occupied)
    }

    /// [`Position::is_attacked`] with the sliding attacks of technique `A`
    /// (the lab's generator for every technique in one build).
    #[inline]
    pub fn is_attacked_with<A: Slider>(
        &self,
        square: Square,
        by: Color,
        occupied: Bitboard,
    ) -> bool {
        let them = self.color(by);
        let rooks = (self.pieces(Piece::Rook) | self.pieces(Piece::Queen)) & them;
        let bishops = (self.pieces(Piece::Bishop) | self.pieces(Piece::Queen)) & them;
        // Sliders last: see `sliders_attack` for why it looks before it looks up.
        (knight_attacks(square) & self.pieces(Piece::Knight) & them).is_nonempty()
            || (pawn_attacks(by.flip(), square) & self.pieces(Piece::Pawn) & them).is_nonempty()
            || (king_attacks(square) & self.pieces(Piece::King) & them).is_nonempty()
            || sliders_attack::<A>(square, occupied, rooks, bishops)
    }

    /// Checkers and pinned pieces for the side to move.
    #[inline]
    pub fn check_info(&self) -> CheckInfo {
        self.check_info_for(self.side)
    }

    /// [`Position::check_info`] with the side to move passed in, so that a
    /// generator that knows it at compile time folds the colour away.
    #[inline]
    pub(crate) fn check_info_for(&self, us: Color) -> CheckInfo {
        debug_assert_eq!(us, self.side);
        self.check_info_of(us)
    }

    /// The lines through `us`'s king, for either colour: the pieces that
    /// give it check and `us`'s pieces pinned to it. Bulk perft asks it for
    /// the side that is not to move, to reuse in the children of moves
    /// that cannot change it (`perft::strategy`).
    #[inline]
    pub(crate) fn check_info_of(&self, us: Color) -> CheckInfo {
        let them = self.color(us.flip());
        let king = self.king(us);
        let steppers = (knight_attacks(king) & self.pieces(Piece::Knight) & them)
            | (pawn_attacks(us, king) & self.pieces(Piece::Pawn) & them);
        let lines = self.sniper_lines(us);
        CheckInfo {
            checkers: steppers | lines.checkers,
            pinned: lines.pinned,
        }
    }

    /// Walks the lines from `us`'s king to the enemy sliders on them (see
    /// [`SniperLines`]). Where the caller ignores `lines`, inlining drops
    /// their union.
    #[inline(always)]
    pub(crate) fn sniper_lines(&self, us: Color) -> SniperLines {
        let them = self.color(us.flip());
        let king = self.king(us);
        let rooks = (self.pieces(Piece::Rook) | self.pieces(Piece::Queen)) & them;
        let bishops = (self.pieces(Piece::Bishop) | self.pieces(Piece::Queen)) & them;
        // Sliders that would attack the king on an empty board: usually none,
        // and then the loop below costs nothing.
        let snipers = (rook_rays(king) & rooks) | (bishop_rays(king) & bishops);
        let mut found = SniperLines::default();
        for sniper in snipers {
            let line = between(king, sniper);
            found.lines |= line;
            let blockers = line & self.occupied();
            if blockers.is_empty() {
                found.checkers |= Bitboard::from_square(sniper);
            } else if !blockers.has_several() {
                found.pinned |= blockers & self.color(us);
            }
        }
        found
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        let king = self.king(self.side);
        self.is_attacked(king, self.side.flip(), self.occupied())
    }

    /// Checks that bitboards, board array and key agree. Used by debug
    /// assertions after make/unmake and by tests.
    pub fn is_consistent(&self) -> bool {
        let mut union = Bitboard::EMPTY;
        for piece in Piece::ALL {
            if (self.pieces(piece) & union).is_nonempty() {
                return false;
            }
            union |= self.pieces(piece);
        }
        let colors_ok = (self.colors[0] & self.colors[1]).is_empty() && union == self.occupied();
        // Set-wise rather than square by square (this runs after every make
        // and unmake in debug builds, fuzz targets included): each piece's
        // squares hold that piece, and every empty square holds nothing.
        let pieces_on_board = Piece::ALL.into_iter().all(|piece| {
            self.pieces(piece)
                .into_iter()
                .all(|sq| self.board[sq.index()] == Some(piece))
        });
        let empty_on_board = (!self.occupied())
            .into_iter()
            .all(|sq| self.board[sq.index()].is_none());
        let board_ok = pieces_on_board && empty_on_board;
        colors_ok && board_ok && self.key == self.compute_key()
    }
}

/// Prints the board (rank 8 on top) and the FEN.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            write!(f, " {} ", rank + 1)?;
            for file in 0..8 {
                let square = Square::new(rank * 8 + file);
                let c = match self.piece_at(square) {
                    Some((color, piece)) => piece.fen_char(color),
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "    a b c d e f g h")?;
        writeln!(f)?;
        writeln!(f, "Fen: {}", self.fen())?;
        write!(f, "Key: {:016X}", self.key)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

/// Every FEN of the perft suites in `tests/data/` (the standard
/// positions, the large suite and Chess960): a broad sample for tests
/// that compare a shortcut against the general answer.
#[cfg(test)]
pub(crate) fn suite_fens() -> impl Iterator<Item = &'static str> {
    [
        include_str!("../../tests/data/standard.epd"),
        include_str!("../../tests/data/suite.epd"),
        include_str!("../../tests/data/chess960.epd"),
    ]
    .into_iter()
    .flat_map(str::lines)
    .filter_map(|line| line.split(';').next().map(str::trim))
    .filter(|fen| !fen.is_empty())
}

/// The position of `fen` followed by every position one legal move from
/// it: a test's sample of positions around a chosen one.
#[cfg(test)]
pub(crate) fn with_children(fen: &str) -> Vec<Position> {
    let root = Position::from_fen(fen).expect("a valid test FEN");
    let mut positions = vec![root.clone()];
    positions.extend(
        crate::movegen::legal_moves(&root)
            .iter()
            .map(|&mv| root.play_unchecked(mv)),
    );
    positions
}
