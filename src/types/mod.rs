//! The vocabulary of the engine: small `Copy` newtypes with `const fn`
//! constructors, so that squares, sets of squares, colours, pieces and moves
//! cannot be confused with each other or with plain integers.

mod bitboard;
mod color;
mod moves;
mod piece;
mod square;
mod text;

pub use bitboard::Bitboard;
pub use color::Color;
pub use moves::Move;
pub use piece::Piece;
pub use square::{File, Rank, Square};
pub use text::ParseError;
