//! The standard text traits for the small types, so that they read and
//! print the way other Rust chess crates' do: `"e4".parse::<Square>()`,
//! `format!("{}", Color::White)`, `"e2e4".parse::<Move>()`.
//!
//! `Move` parses without a position (its encoding holds only squares and a
//! promotion), but it has no `Display`: the text of a castling move depends
//! on the position (`e1g1` in standard chess, king-takes-rook `e1h1` under
//! `UCI_Chess960`), so printing goes through [`crate::Position::uci`] or
//! [`crate::Position::san`]. A parsed `e1g1` is accepted by the checked
//! [`crate::Position::play`] as the castling move it names.

use super::{Color, Move, Piece, Square};
use std::fmt;
use std::str::FromStr;

/// Text that does not name a square, colour, piece or move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    what: &'static str,
    expected: &'static str,
    text: String,
}

impl ParseError {
    fn new(what: &'static str, expected: &'static str, text: &str) -> ParseError {
        ParseError {
            what,
            expected,
            text: text.to_string(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read '{}' as a {}: expected {}",
            self.text, self.what, self.expected
        )
    }
}

impl std::error::Error for ParseError {}

/// Reads a square name in lower case, `a1` to `h8`.
///
/// ```
/// use quince::Square;
/// let e4: Square = "e4".parse().unwrap();
/// assert_eq!(e4, Square::E4);
/// assert!("e9".parse::<Square>().is_err());
/// ```
impl FromStr for Square {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Square, ParseError> {
        Square::parse(text)
            .ok_or_else(|| ParseError::new("square", "a file a-h and a rank 1-8, such as e4", text))
    }
}

/// Prints `white` or `black`.
impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// Reads `white`/`w` or `black`/`b`, in any case.
///
/// ```
/// use quince::Color;
/// assert_eq!("w".parse::<Color>(), Ok(Color::White));
/// assert_eq!("Black".parse::<Color>(), Ok(Color::Black));
/// assert_eq!(Color::White.to_string(), "white");
/// ```
impl FromStr for Color {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Color, ParseError> {
        match text.to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Color::White),
            "black" | "b" => Ok(Color::Black),
            _ => Err(ParseError::new("colour", "white, w, black or b", text)),
        }
    }
}

/// Prints the piece's English name in lower case: `knight`. (Its letter is
/// [`Piece::char`].)
impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Piece::Pawn => "pawn",
            Piece::Knight => "knight",
            Piece::Bishop => "bishop",
            Piece::Rook => "rook",
            Piece::Queen => "queen",
            Piece::King => "king",
        })
    }
}

/// Reads a piece's letter (`n` or `N`) or name (`knight`), in any case.
///
/// ```
/// use quince::Piece;
/// assert_eq!("N".parse::<Piece>(), Ok(Piece::Knight));
/// assert_eq!("queen".parse::<Piece>(), Ok(Piece::Queen));
/// assert_eq!(Piece::Rook.to_string(), "rook");
/// ```
impl FromStr for Piece {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Piece, ParseError> {
        let lower = text.to_ascii_lowercase();
        Piece::ALL
            .into_iter()
            .find(|piece| lower == piece.to_string() || lower == piece.char().to_string())
            .ok_or_else(|| {
                ParseError::new(
                    "piece",
                    "a letter p n b r q k or a name such as knight",
                    text,
                )
            })
    }
}

/// Reads a move in UCI's coordinate form without a position: `e2e4`,
/// `e7e8q`, `0000` (the null move). Whether it is legal, and which move a
/// castling text stands for, only a position can say: hand the result to
/// [`crate::Position::play`], or read with [`crate::Position::parse_uci`].
///
/// ```
/// use quince::{Move, Position, Square};
/// let e4: Move = "e2e4".parse().unwrap();
/// assert_eq!((e4.from(), e4.to()), (Square::E2, Square::E4));
/// let after = Position::startpos().play(e4).unwrap();
/// assert_eq!(after.piece_on(Square::E4), Some(quince::Piece::Pawn));
/// assert!("e2e9".parse::<Move>().is_err());
/// ```
impl FromStr for Move {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Move, ParseError> {
        let error = || ParseError::new("move", "UCI notation such as e2e4 or e7e8q", text);
        if text == "0000" {
            return Ok(Move::NULL);
        }
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(error());
        }
        let from = Square::parse(&text[0..2]).ok_or_else(error)?;
        let to = Square::parse(&text[2..4]).ok_or_else(error)?;
        let promotion = match &text[4..] {
            "" => None,
            "n" => Some(Piece::Knight),
            "b" => Some(Piece::Bishop),
            "r" => Some(Piece::Rook),
            "q" => Some(Piece::Queen),
            _ => return Err(error()),
        };
        Ok(Move::new(from, to, promotion))
    }
}
