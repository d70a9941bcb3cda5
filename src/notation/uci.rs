//! UCI move notation: `e2e4`, `e7e8q`, and castling as `e1g1` (standard) or
//! king-takes-rook `e1h1` (Chess960).

use crate::movegen::legal_moves;
use crate::position::Position;
use crate::types::{Move, Piece, Square};
use std::fmt;

/// Why a move string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `<square><square>[nbrq]`.
    Syntax(String),
    /// Well-formed, but not a legal move in the position.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(text) => write!(
                f,
                "cannot parse move '{text}': expected UCI notation such as e2e4 or e7e8q"
            ),
            MoveError::Illegal(text) => write!(f, "illegal move '{text}' in this position"),
        }
    }
}

impl std::error::Error for MoveError {}

impl Position {
    /// The UCI text of a legal move of this position.
    pub fn uci(&self, mv: Move) -> String {
        if mv == Move::NULL {
            return "0000".to_string();
        }
        if self.is_castle(mv) && !self.is_chess960() {
            return format!("{}{}", mv.from(), self.king_destination(mv));
        }
        format!("{mv:?}")
    }

    /// Reads a UCI move and returns it if it is legal here. Castling is
    /// accepted as king-to-destination (`e1g1`, standard) and as
    /// king-takes-rook (`e1h1`, always).
    ///
    /// ```
    /// use quince::Position;
    /// let pos = Position::startpos();
    /// assert!(pos.parse_uci("e2e4").is_ok());
    /// assert!(pos.parse_uci("e2e5").is_err());
    /// assert!(pos.parse_uci("hello").is_err());
    /// ```
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string());
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(syntax());
        }
        let from = Square::parse(&text[0..2]).ok_or_else(syntax)?;
        let to = Square::parse(&text[2..4]).ok_or_else(syntax)?;
        let promotion = match text.get(4..) {
            None | Some("") => None,
            Some("n") => Some(Piece::Knight),
            Some("b") => Some(Piece::Bishop),
            Some("r") => Some(Piece::Rook),
            Some("q") => Some(Piece::Queen),
            Some(_) => return Err(syntax()),
        };
        let wanted = Move::new(from, to, promotion);
        legal_moves(self)
            .iter()
            .copied()
            .find(|&mv| mv == wanted || self.uci(mv) == text)
            .ok_or_else(|| MoveError::Illegal(text.to_string()))
    }
}
