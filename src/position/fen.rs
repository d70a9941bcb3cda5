//! Reading and writing FEN (Forsyth-Edwards Notation), including
//! Shredder-FEN and X-FEN castling fields for Chess960.
//!
//! The reader is strict about anything ambiguous and lenient where common
//! engines are and the meaning is clear: missing trailing fields, runs of
//! blanks or tabs between fields, repeated or reordered castling letters,
//! fullmove 0 (read as 1) and huge counters (clamped). Every rejection says
//! what is wrong.
//!
//! A little over 500 lines on purpose: the reader's checks (board,
//! material, kings and checks, castling, en passant) are one validation
//! pass that the writer must mirror field for field; one file keeps the
//! two in step.

use super::castling::{CastleSide, back_rank};
use super::{Castling, Position};
use crate::tables::{between, king_attacks, pawn_attacks};
use crate::types::{Bitboard, Color, File, Piece, Rank, Square};
use std::fmt;

/// Which part of a FEN was wrong: what a caller can match on. The
/// [`FenError`]'s message says exactly what and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FenErrorKind {
    /// Not FEN at all: empty, non-ASCII, or more than six fields.
    Syntax,
    /// The board field is malformed (bad piece letter, rank of the wrong length).
    Board,
    /// The side-to-move field is neither `w` nor `b`.
    SideToMove,
    /// Material no game can reach: king count, pawn count, pawns on the
    /// first or last rank, more pieces than promotions allow.
    Material,
    /// An impossible check: kings adjacent, the side not to move in check,
    /// or a check no single move can give.
    Check,
    /// The castling field names no rook, or a rook or king that is not there.
    Castling,
    /// The en-passant square is not one a double pawn push could have left.
    EnPassant,
    /// A move counter is not a non-negative integer.
    Counter,
}

/// Why a FEN was rejected: a [`kind`](FenError::kind) to match on and a
/// message for people.
///
/// ```
/// use quince::{FenErrorKind, Position};
/// let error = Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
/// assert_eq!(error.kind(), FenErrorKind::Material);
/// assert_eq!(error.to_string(), "white has 0 kings, expected exactly 1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    kind: FenErrorKind,
    message: String,
}

impl FenError {
    /// Which part of the FEN was wrong.
    pub fn kind(&self) -> FenErrorKind {
        self.kind
    }

    /// What is wrong, in words (the same text `Display` writes).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FenError {}

fn err<T>(kind: FenErrorKind, message: impl Into<String>) -> Result<T, FenError> {
    Err(FenError {
        kind,
        message: message.into(),
    })
}

/// Counters are clamped here so that make/unmake can never overflow them.
const COUNTER_LIMIT: u64 = 1 << 30;

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn parse_counter(text: &str, what: &str) -> Result<u32, FenError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return err(
            FenErrorKind::Counter,
            format!("{what} must be a non-negative integer, found '{text}'"),
        );
    }
    // All digits: the only possible failure is overflow, which is clamped.
    let value = text.parse::<u64>().unwrap_or(u64::MAX).min(COUNTER_LIMIT);
    Ok(value as u32)
}

impl Position {
    /// Reads a FEN in standard-chess mode: `KQkq` mean the rooks on the a-
    /// and h-files with the king on e1/e8; Shredder-FEN file letters are also
    /// accepted (and switch on Chess960 notation if the squares are not
    /// standard).
    ///
    /// ```
    /// use quince::Position;
    /// let pos = Position::from_fen("8/8/8/KPp4r/8/8/8/7k w - c6 0 1").unwrap();
    /// assert_eq!(pos.fen(), "8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
    /// assert!(Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, false)
    }

    /// Reads a FEN; with `chess960`, `KQkq` are read as X-FEN (the outermost
    /// rook on that side of the king) and castling is written Shredder-style.
    pub fn from_fen_with(fen: &str, chess960: bool) -> Result<Position, FenError> {
        if let Some((index, c)) = fen.char_indices().find(|(_, c)| !c.is_ascii()) {
            return err(
                FenErrorKind::Syntax,
                format!("non-ASCII character {c:?} at byte {index}"),
            );
        }
        let fields: Vec<&str> = fen.split([' ', '\t']).filter(|f| !f.is_empty()).collect();
        if fields.is_empty() {
            return err(
                FenErrorKind::Syntax,
                "empty FEN: expected at least the board field",
            );
        }
        if fields.len() > 6 {
            return err(
                FenErrorKind::Syntax,
                format!(
                    "too many fields: expected at most 6, found {} (unexpected '{}')",
                    fields.len(),
                    fields[6]
                ),
            );
        }
        if !fields[0].contains('/') {
            return err(
                FenErrorKind::Syntax,
                format!(
                    "not a FEN: the board field '{}' has no '/' between its ranks",
                    fields[0]
                ),
            );
        }
        let mut pos = Position::empty();
        parse_board(&mut pos, fields[0])?;
        pos.side = match fields.get(1).copied().unwrap_or("w") {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return err(
                    FenErrorKind::SideToMove,
                    format!("side to move must be 'w' or 'b', found '{other}'"),
                );
            }
        };
        check_material(&pos)?;
        check_kings_and_checks(&pos)?;
        pos.castling = parse_castling(&pos, fields.get(2).copied().unwrap_or("-"), chess960)?;
        let en_passant = parse_en_passant(&pos, fields.get(3).copied().unwrap_or("-"))?;
        pos.halfmove = parse_counter(fields.get(4).copied().unwrap_or("0"), "halfmove clock")?;
        pos.fullmove =
            parse_counter(fields.get(5).copied().unwrap_or("1"), "fullmove number")?.max(1);
        // Keep the e.p. square only if a pawn can capture there (pseudo-legally).
        if let Some(ep) = en_passant {
            let capturers = pawn_attacks(pos.side.flip(), ep) & pos.colored(pos.side, Piece::Pawn);
            pos.en_passant = capturers.is_nonempty().then_some(ep);
        }
        pos.chess960 = chess960 || !pos.castling.is_standard(&pos);
        pos.key = pos.compute_key();
        Ok(pos)
    }
}

fn parse_board(pos: &mut Position, board: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return err(
            FenErrorKind::Board,
            format!(
                "board has {} ranks separated by '/', expected 8",
                ranks.len()
            ),
        );
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i;
        let rank_name = rank + 1;
        if text.is_empty() {
            return err(FenErrorKind::Board, format!("rank {rank_name} is empty"));
        }
        let mut file = 0usize;
        let mut previous_digit = false;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return err(
                        FenErrorKind::Board,
                        format!("rank {rank_name}: digit {d} is not a run of 1 to 8 empty squares"),
                    );
                }
                if previous_digit {
                    return err(
                        FenErrorKind::Board,
                        format!("rank {rank_name}: two adjacent digits"),
                    );
                }
                previous_digit = true;
                file += d as usize;
            } else {
                previous_digit = false;
                let Some((color, piece)) = Piece::from_fen_char(c) else {
                    return err(
                        FenErrorKind::Board,
                        format!("rank {rank_name}: '{c}' is not a piece letter (PNBRQK or pnbrqk)"),
                    );
                };
                if file < 8 {
                    pos.put::<true>(color, piece, Square::new((rank * 8 + file) as u8));
                }
                file += 1;
            }
            if file > 8 {
                return err(
                    FenErrorKind::Board,
                    format!("rank {rank_name} has more than 8 squares"),
                );
            }
        }
        if file != 8 {
            return err(
                FenErrorKind::Board,
                format!("rank {rank_name} has {file} squares, expected 8"),
            );
        }
    }
    Ok(())
}

fn check_material(pos: &Position) -> Result<(), FenError> {
    for color in Color::ALL {
        let name = color_name(color);
        let kings = pos.colored(color, Piece::King).len();
        if kings != 1 {
            return err(
                FenErrorKind::Material,
                format!("{name} has {kings} kings, expected exactly 1"),
            );
        }
        let count = |piece| pos.colored(color, piece).len() as i32;
        let pawns = count(Piece::Pawn);
        if pawns > 8 {
            return err(
                FenErrorKind::Material,
                format!("{name} has {pawns} pawns (at most 8)"),
            );
        }
        // Pieces beyond the initial set must have come from promotions.
        let extra = (count(Piece::Queen) - 1).max(0)
            + (count(Piece::Rook) - 2).max(0)
            + (count(Piece::Bishop) - 2).max(0)
            + (count(Piece::Knight) - 2).max(0);
        if extra > 8 - pawns || pos.color(color).len() > 16 {
            return err(
                FenErrorKind::Material,
                format!(
                    "{name} has too much material: {} pieces with {pawns} pawns cannot come from promotions",
                    pos.color(color).len()
                ),
            );
        }
    }
    let back_ranks = Bitboard::RANK_1 | Bitboard::RANK_8;
    if let Some(square) = (pos.pieces(Piece::Pawn) & back_ranks).first() {
        return err(
            FenErrorKind::Material,
            format!("pawn on {square}: pawns cannot stand on rank 1 or 8"),
        );
    }
    Ok(())
}

fn check_kings_and_checks(pos: &Position) -> Result<(), FenError> {
    let us = pos.side;
    let them = us.flip();
    if king_attacks(pos.king(us)).contains(pos.king(them)) {
        return err(FenErrorKind::Check, "the kings stand on adjacent squares");
    }
    if pos.is_attacked(pos.king(them), us, pos.occupied()) {
        return err(
            FenErrorKind::Check,
            format!("the side not to move ({}) is in check", color_name(them)),
        );
    }
    let checkers = pos.attackers_to(pos.king(us), pos.occupied()) & pos.color(them);
    if checkers.len() > 2 {
        return err(
            FenErrorKind::Check,
            format!(
                "{} checkers: at most two pieces can give check",
                checkers.len()
            ),
        );
    }
    let steppers = pos.pieces(Piece::Pawn) | pos.pieces(Piece::Knight);
    if checkers.len() == 2 && (checkers & steppers) == checkers {
        return err(
            FenErrorKind::Check,
            "impossible double check by two pawns or knights (one move cannot create both)",
        );
    }
    Ok(())
}

fn parse_castling(pos: &Position, field: &str, chess960: bool) -> Result<Castling, FenError> {
    let mut castling = Castling::NONE;
    if field == "-" {
        return Ok(castling);
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let name = color_name(color);
        let rank = back_rank(color);
        let king = pos.king(color);
        let own_rooks = pos.colored(color, Piece::Rook) & Bitboard::rank(rank.index());
        let (side, file) = match c.to_ascii_lowercase() {
            letter @ ('k' | 'q') => {
                let side = if letter == 'k' {
                    CastleSide::Short
                } else {
                    CastleSide::Long
                };
                let file = if chess960 {
                    // X-FEN: the outermost rook on that side of the king.
                    let candidates = own_rooks
                        .filter(|r| (r.file() > king.file()) == (side == CastleSide::Short));
                    let outermost = if side == CastleSide::Short {
                        candidates.last()
                    } else {
                        candidates.min()
                    };
                    match outermost {
                        Some(rook) if king.rank() == rank => rook.file(),
                        _ => {
                            return err(
                                FenErrorKind::Castling,
                                format!(
                                    "castling right '{c}' but {name} has no rook on that side of its king"
                                ),
                            );
                        }
                    }
                } else {
                    let king_home = Square::from_coords(File::new(4), rank);
                    if king != king_home {
                        return err(
                            FenErrorKind::Castling,
                            format!(
                                "castling right '{c}' but the {name} king is not on {king_home}"
                            ),
                        );
                    }
                    File::new(if side == CastleSide::Short { 7 } else { 0 })
                };
                (side, file)
            }
            letter @ 'a'..='h' => {
                let file = File::new(letter as u8 - b'a');
                if king.rank() != rank {
                    return err(
                        FenErrorKind::Castling,
                        format!("castling right '{c}' but the {name} king is not on its back rank"),
                    );
                }
                if file == king.file() {
                    return err(
                        FenErrorKind::Castling,
                        format!("castling right '{c}' names the {name} king's own file"),
                    );
                }
                let side = if file > king.file() {
                    CastleSide::Short
                } else {
                    CastleSide::Long
                };
                (side, file)
            }
            _ => {
                return err(
                    FenErrorKind::Castling,
                    format!(
                        "castling field '{field}': '{c}' is not a castling letter (KQkq, A-H, a-h or '-')"
                    ),
                );
            }
        };
        let rook = Square::from_coords(file, rank);
        if !own_rooks.contains(rook) {
            return err(
                FenErrorKind::Castling,
                format!("castling right '{c}' but there is no {name} rook on {rook}"),
            );
        }
        let same_side = castling
            .rooks_of(color)
            .into_iter()
            .any(|other| other != rook && CastleSide::of(king, other) == side);
        if same_side {
            return err(
                FenErrorKind::Castling,
                format!("castling field '{field}' gives {name} two rooks on the same side"),
            );
        }
        castling.add(rook);
    }
    Ok(castling)
}

fn parse_en_passant(pos: &Position, field: &str) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let Some(square) = Square::parse(field) else {
        return err(
            FenErrorKind::EnPassant,
            format!("e.p. field must be '-' or a square like 'e3', found '{field}'"),
        );
    };
    let us = pos.side;
    let (ep_rank, pawn_rank, origin_rank) = match us {
        Color::White => (5, 4, 6),
        Color::Black => (2, 3, 1),
    };
    if square.rank().index() != ep_rank {
        return err(
            FenErrorKind::EnPassant,
            format!(
                "e.p. square {square} is impossible with {} to move (it must be on rank {})",
                color_name(us),
                ep_rank + 1
            ),
        );
    }
    let file = square.file();
    let pawn = Square::from_coords(file, Rank::new(pawn_rank));
    let origin = Square::from_coords(file, Rank::new(origin_rank));
    if pos.occupied().contains(square) || pos.occupied().contains(origin) {
        return err(
            FenErrorKind::EnPassant,
            format!(
                "e.p. square {square} says a pawn just passed it, but {square} or {origin} is occupied"
            ),
        );
    }
    if pos.piece_at(pawn) != Some((us.flip(), Piece::Pawn)) {
        return err(
            FenErrorKind::EnPassant,
            format!(
                "e.p. square {square} but there is no {} pawn on {pawn}",
                color_name(us.flip())
            ),
        );
    }
    // Every check must have been given by the double push: by the pawn
    // itself or by a slider it uncovered when it left `origin`.
    let king = pos.king(us);
    let checkers = pos.attackers_to(king, pos.occupied()) & pos.color(us.flip());
    for checker in checkers {
        if checker != pawn && !between(king, checker).contains(origin) {
            return err(
                FenErrorKind::EnPassant,
                format!(
                    "e.p. square {square} says the last move was {origin}-{pawn}, which cannot have given the check from {checker}"
                ),
            );
        }
    }
    Ok(Some(square))
}
