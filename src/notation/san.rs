//! Standard Algebraic Notation (SAN), the move text of PGN and of people:
//! `e4`, `Nbd2`, `exd6`, `axb8=Q+`, `O-O-O`, `Qh4#`.
//!
//! Writing follows the rules python-chess's `Board.san` follows, character
//! for character: the piece letter (none for pawns), the origin's file, rank
//! or both only where another piece of the same kind could legally go to the
//! same square, `x` for captures (e.p. included; a pawn capture always names
//! its file), `=Q` for promotions, `O-O` / `O-O-O` for castling (Chess960
//! too), and `+` or `#` after a check or a mate.
//!
//! Reading is lenient about what people and programs write around a move:
//! missing, extra or wrong `+` / `#`, annotations (`!`, `?`, `!?`, `??`...),
//! `0-0` for `O-O`, `e8Q` or `e8=q` for `e8=Q`, a missing `x`, a `-` between
//! the squares, and more of the origin than needed (`Ng1f3`). It is strict
//! about the move itself: the text must name exactly one legal move.

use crate::movegen::legal_moves;
use crate::position::{GameStatus, Position};
use crate::types::{File, Move, Piece, Rank, Square};
use std::fmt;

/// Why a SAN move was refused by [`Position::parse_san`]. Each variant
/// carries the text as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// Not SAN at all (`hello`, `Nf9`, `e8=`).
    Syntax(String),
    /// Well-formed, but no legal move of the position matches it.
    Illegal(String),
    /// Several legal moves match (`Nd2` where two knights can go to d2).
    Ambiguous(String),
}

impl SanError {
    /// The move text that was refused.
    pub fn text(&self) -> &str {
        match self {
            SanError::Syntax(text) | SanError::Illegal(text) | SanError::Ambiguous(text) => text,
        }
    }
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax(text) => write!(
                f,
                "cannot parse move '{text}': expected SAN such as e4, Nf3, exd5, e8=Q or O-O"
            ),
            SanError::Illegal(text) => write!(f, "illegal move '{text}' in this position"),
            SanError::Ambiguous(text) => write!(
                f,
                "ambiguous move '{text}': several legal moves match; \
                 add the file or rank the piece moves from"
            ),
        }
    }
}

impl std::error::Error for SanError {}

/// The upper-case SAN letter of a piece (pawns have none in SAN, but `P`
/// is what a parser may meet).
fn letter(piece: Piece) -> char {
    piece.char().to_ascii_uppercase()
}

/// A piece named by a SAN letter, upper case only (`b` is a file).
fn piece_of_letter(c: u8) -> Option<Piece> {
    match c {
        b'P' => Some(Piece::Pawn),
        b'N' => Some(Piece::Knight),
        b'B' => Some(Piece::Bishop),
        b'R' => Some(Piece::Rook),
        b'Q' => Some(Piece::Queen),
        b'K' => Some(Piece::King),
        _ => None,
    }
}

/// A promotion piece, in either case (after `=` or straight after the
/// square: `e8=Q`, `e8=q`, `e8Q`, `e8q`). A king is read so that `e8=K`
/// is an illegal move rather than a syntax error.
fn promotion_of_letter(c: u8) -> Option<Piece> {
    piece_of_letter(c.to_ascii_uppercase()).filter(|&piece| piece != Piece::Pawn)
}

/// What a non-castling SAN text asks for; `None` fields are unconstrained.
struct Pattern {
    piece: Piece,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to: Square,
    promotion: Option<Piece>,
}

/// Castling, or a move of a piece to a square.
enum Parsed {
    /// `true` for the king's side (`O-O`), `false` for the queen's.
    Castle(bool),
    Move(Pattern),
}

/// The text without the suffixes SAN readers ignore: check and mate signs
/// and annotation glyphs, in any order and number (`Nf3+!?`).
fn strip_suffixes(text: &str) -> &str {
    text.trim_end_matches(['+', '#', '!', '?'])
}

/// Reads the shape of a SAN move, without looking at the position.
fn parse_shape(text: &str) -> Option<Parsed> {
    let body = strip_suffixes(text.trim());
    match body {
        "O-O" | "0-0" => return Some(Parsed::Castle(true)),
        "O-O-O" | "0-0-0" => return Some(Parsed::Castle(false)),
        _ => {}
    }
    let mut bytes = body.as_bytes();
    // A leading piece letter; none means a pawn.
    let piece = match bytes.first().copied().and_then(piece_of_letter) {
        Some(piece) => {
            bytes = &bytes[1..];
            piece
        }
        None => Piece::Pawn,
    };
    // A trailing promotion letter, with or without `=`.
    let mut promotion = None;
    if let [rest @ .., last] = bytes
        && last.is_ascii_alphabetic()
    {
        promotion = Some(promotion_of_letter(*last)?);
        bytes = rest.strip_suffix(b"=").unwrap_or(rest);
    }
    // The destination square.
    let [rest @ .., file, rank] = bytes else {
        return None;
    };
    let to = Square::from_coords(
        File::from_char(char::from(*file))?,
        Rank::from_char(char::from(*rank))?,
    );
    bytes = rest;
    // A capture sign or a dash between origin and destination.
    let separated = matches!(bytes, [.., b'x' | b'-']);
    if separated {
        bytes = &bytes[..bytes.len() - 1];
    }
    // What is left names the origin: a file, a rank, or both in that order.
    let (from_file, from_rank) = match bytes {
        [] => (None, None),
        [c] => match File::from_char(char::from(*c)) {
            Some(file) => (Some(file), None),
            None => (None, Some(Rank::from_char(char::from(*c))?)),
        },
        [f, r] => (
            Some(File::from_char(char::from(*f))?),
            Some(Rank::from_char(char::from(*r))?),
        ),
        _ => return None,
    };
    // `xd5` or `-d5`: a pawn's capture or move needs its file.
    if piece == Piece::Pawn && separated && from_file.is_none() {
        return None;
    }
    Some(Parsed::Move(Pattern {
        piece,
        from_file,
        from_rank,
        to,
        promotion,
    }))
}

impl Position {
    /// The SAN text of a legal move of this position, exactly as
    /// python-chess's `Board.san` writes it: `e4`, `Nbd7`, `R1e2`, `Qh4e1`,
    /// `exd6` (e.p.), `axb8=Q+`, `O-O`, `O-O-O` (Chess960 too), with `+`
    /// after a check and `#` after a mate.
    ///
    /// `mv` should be legal here. The null move is written `--` (as
    /// python-chess and PGN readers do), and any other move that is not
    /// legal in this position in coordinate form (`e2e5`), never panicking.
    ///
    /// ```
    /// use quince::Position;
    /// let pos: Position = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    ///     .parse()
    ///     .unwrap();
    /// assert_eq!(pos.san(pos.parse_uci("f1b5").unwrap()), "Bb5");
    /// assert_eq!(pos.san(pos.parse_uci("f3e5").unwrap()), "Nxe5");
    /// let fools_mate: Position = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"
    ///     .parse()
    ///     .unwrap();
    /// assert_eq!(fools_mate.san(fools_mate.parse_uci("d8h4").unwrap()), "Qh4#");
    /// ```
    pub fn san(&self, mv: Move) -> String {
        if mv == Move::NULL {
            return "--".to_string();
        }
        let moves = legal_moves(self);
        let (from, to) = (mv.from(), mv.to());
        let piece = match self.piece_on(from) {
            Some(piece) if moves.contains(&mv) => piece,
            _ => {
                let mut text = format!("{from}{to}");
                if let Some(promotion) = mv.promotion() {
                    text.push(promotion.char());
                }
                return text;
            }
        };
        let mut text = String::with_capacity(8);
        if self.is_castle(mv) {
            text.push_str(if to > from { "O-O" } else { "O-O-O" });
        } else {
            let capture = self.is_capture(mv);
            if piece == Piece::Pawn {
                if capture {
                    text.push(from.file().char());
                }
            } else {
                text.push(letter(piece));
                self.push_disambiguation(&mut text, mv, piece, &moves);
            }
            if capture {
                text.push('x');
            }
            text.push_str(&to.to_string());
            if let Some(promotion) = mv.promotion() {
                text.push('=');
                text.push(letter(promotion));
            }
        }
        let child = self.play_unchecked(mv);
        if child.in_check() {
            text.push(if child.status() == GameStatus::Checkmate {
                '#'
            } else {
                '+'
            });
        }
        text
    }

    /// Appends what tells `mv` apart from the other legal moves of the same
    /// kind of piece to the same square: its file if that is enough, else
    /// its rank, else both (python-chess's rule: the file whenever a rival
    /// shares the rank or none shares the file, the rank whenever one
    /// shares the file).
    fn push_disambiguation(&self, text: &mut String, mv: Move, piece: Piece, moves: &[Move]) {
        let (from, to) = (mv.from(), mv.to());
        let (mut any, mut same_rank, mut same_file) = (false, false, false);
        for &other in moves {
            let origin = other.from();
            if other.to() == to
                && origin != from
                && self.piece_on(origin) == Some(piece)
                && !self.is_castle(other)
            {
                any = true;
                same_rank |= origin.rank() == from.rank();
                same_file |= origin.file() == from.file();
            }
        }
        if !any {
            return;
        }
        if same_rank || !same_file {
            text.push(from.file().char());
        }
        if same_file {
            text.push(from.rank().char());
        }
    }

    /// Reads a move in SAN and returns it if it names exactly one legal move
    /// of this position. Lenient about decoration: check signs and annotations
    /// are ignored, `0-0` means `O-O`, `e8Q` and `e8=q` mean `e8=Q`, `x` may
    /// be left out, a `-` may stand between the squares and the origin may
    /// be given in full (`Ng1f3`, `e2-e4`). A pawn capture must name its file
    /// (`exd5`; `xd5` is a syntax error) and a promotion its piece.
    ///
    /// ```
    /// use quince::{Position, SanError};
    /// let pos = Position::startpos();
    /// let nf3 = pos.parse_san("Nf3").unwrap();
    /// assert_eq!(pos.uci(nf3), "g1f3");
    /// assert_eq!(pos.parse_san("Ng1f3!?"), Ok(nf3));
    /// assert!(matches!(pos.parse_san("e5"), Err(SanError::Illegal(_))));
    /// assert!(matches!(pos.parse_san("Nf9"), Err(SanError::Syntax(_))));
    ///
    /// // Two knights can reach d2: the origin must be given.
    /// let pos: Position = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1".parse().unwrap();
    /// assert!(matches!(pos.parse_san("Nd2"), Err(SanError::Ambiguous(_))));
    /// assert_eq!(pos.uci(pos.parse_san("Nbd2").unwrap()), "b1d2");
    /// ```
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let shape = parse_shape(text).ok_or_else(|| SanError::Syntax(text.to_string()))?;
        let moves = legal_moves(self);
        let mut found = moves.iter().copied().filter(|&mv| match &shape {
            Parsed::Castle(king_side) => self.is_castle(mv) && (mv.to() > mv.from()) == *king_side,
            Parsed::Move(pattern) => self.matches(mv, pattern),
        });
        let first = found
            .next()
            .ok_or_else(|| SanError::Illegal(text.to_string()))?;
        match found.next() {
            None => Ok(first),
            Some(_) => Err(SanError::Ambiguous(text.to_string())),
        }
    }

    /// Whether legal `mv` is one the non-castling `pattern` describes.
    fn matches(&self, mv: Move, pattern: &Pattern) -> bool {
        let from = mv.from();
        if mv.to() != pattern.to
            || mv.promotion() != pattern.promotion
            || self.piece_on(from) != Some(pattern.piece)
            || self.is_castle(mv)
            || pattern.from_file.is_some_and(|file| file != from.file())
            || pattern.from_rank.is_some_and(|rank| rank != from.rank())
        {
            return false;
        }
        // A pawn without an origin file pushes straight ahead (`d4`); its
        // captures name their file (`exd5`).
        pattern.piece != Piece::Pawn || pattern.from_file.is_some() || from.file() == mv.to().file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::suite_fens;

    fn position(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn san_of(fen: &str, uci: &str) -> String {
        let pos = position(fen);
        pos.san(pos.parse_uci(uci).unwrap())
    }

    #[test]
    fn writes_the_basic_forms() {
        let start = crate::position::STARTPOS_FEN;
        assert_eq!(san_of(start, "e2e4"), "e4");
        assert_eq!(san_of(start, "g1f3"), "Nf3");
        // e.p. is a capture.
        assert_eq!(san_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
        assert_eq!(
            san_of("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q"),
            "axb8=Q+"
        );
        assert_eq!(
            san_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"),
            "O-O"
        );
        assert_eq!(
            san_of("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8"),
            "O-O-O"
        );
    }

    #[test]
    fn refuses_without_panicking() {
        let pos = Position::startpos();
        assert_eq!(pos.san(Move::NULL), "--");
        let e2e5 = Move::new(Square::E1.offset(8).unwrap(), Square::E8, None);
        assert_eq!(pos.san(e2e5), "e2e8");
        for text in [
            "", " ", "x", "=Q", "e", "e9", "Zf3", "e8=", "exd", "O-O-O-O", "é4",
        ] {
            assert!(
                matches!(pos.parse_san(text), Err(SanError::Syntax(_))),
                "{text:?}"
            );
        }
        assert_eq!(pos, Position::startpos());
    }

    #[test]
    fn round_trips_over_the_suites() {
        // Every tenth suite position and its children: a few thousand moves.
        for fen in suite_fens().step_by(10) {
            let pos = position(fen);
            for &mv in legal_moves(&pos).iter() {
                let text = pos.san(mv);
                assert_eq!(pos.parse_san(&text), Ok(mv), "{text} in {fen}");
            }
        }
    }
}
