//! UCI move notation: `e2e4`, `e7e8q`, and castling as `e1g1` (standard) or
//! king-takes-rook `e1h1` (Chess960).

use crate::position::Position;
use crate::types::Move;
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
        mv.coordinates()
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
        // The null move parses as text but is never a move of a position:
        // it stays a syntax error here, as before.
        let wanted = text
            .parse::<Move>()
            .ok()
            .filter(|&mv| mv != Move::NULL)
            .ok_or_else(|| MoveError::Syntax(text.to_string()))?;
        self.legal_move(wanted)
            .ok_or_else(|| MoveError::Illegal(text.to_string()))
    }
}
