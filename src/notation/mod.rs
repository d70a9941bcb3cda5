//! Text a person reads and writes: UCI moves (`e2e4`), Standard Algebraic
//! Notation (`Nf3`, `exd5`, `O-O`) and whole games in PGN ([`pgn`]). No
//! engine logic lives here: each notation reads and writes through the
//! position's legal moves.

pub mod pgn;
mod san;
mod uci;

pub use san::SanError;
pub use uci::MoveError;
