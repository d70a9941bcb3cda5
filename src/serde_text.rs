//! Serde support (the `serde` feature, off by default): every type is
//! written as the text a chess program reads, so that JSON, TOML or YAML
//! files stay readable and small.
//!
//! | type | written as | example |
//! | --- | --- | --- |
//! | [`Position`] | FEN (Shredder-FEN castling in Chess960, read back as Chess960) | `"rnbqkbnr/... w KQkq - 0 1"` |
//! | [`Square`] | its name | `"e4"` |
//! | [`Move`] | its coordinates, castling as king-takes-rook | `"e2e4"`, `"e1h1"` |
//! | [`Color`] | `white` or `black` | `"white"` |
//! | [`Piece`] | its name | `"knight"` |
//!
//! A move is written in its own encoding, without a position, so that it
//! reads back as the same move: castling therefore appears as the king
//! taking its rook (as UCI writes it in Chess960); print moves for people
//! with [`Position::uci`] or [`Position::san`]. Reading a FEN that is not
//! valid is a deserialisation error carrying the FEN error's message.

use crate::position::Position;
use crate::types::{Color, Move, Piece, Square};
use serde::de::{Deserialize, Deserializer, Error};
use serde::ser::{Serialize, Serializer};
use std::fmt::Display;
use std::str::FromStr;

/// Reads a string and parses it with `FromStr`, the error's message kept.
fn from_text<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: Display,
{
    let text = String::deserialize(deserializer)?;
    text.parse().map_err(D::Error::custom)
}

impl Serialize for Position {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.fen())
    }
}

impl<'de> Deserialize<'de> for Position {
    /// Castling written as files (Shredder-FEN) is read in Chess960 mode:
    /// the serialiser writes files only for a Chess960 position, which
    /// must come back as one even with its rooks on the a- and h-files
    /// (read as standard chess, castling `e1h1` would become `e1g1`).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Position, D::Error> {
        let text = String::deserialize(deserializer)?;
        let shredder = text
            .split_whitespace()
            .nth(2)
            .is_some_and(|f| f.chars().any(|c| matches!(c, 'a'..='h' | 'A'..='H')));
        Position::from_fen_with(&text, shredder).map_err(D::Error::custom)
    }
}

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.coordinates())
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Move, D::Error> {
        from_text(deserializer)
    }
}

/// The types whose `Display` and `FromStr` already are their text form.
macro_rules! serde_by_display {
    ($($type:ty),*) => {$(
        impl Serialize for $type {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $type {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$type, D::Error> {
                from_text(deserializer)
            }
        }
    )*};
}

serde_by_display!(Square, Color, Piece);
