//! Text a person reads and writes: UCI moves (`e2e4`) and Standard
//! Algebraic Notation (`Nf3`, `exd5`, `O-O`). No engine logic lives here:
//! each notation reads and writes through the position's legal moves.

mod san;
mod uci;

pub use san::SanError;
pub use uci::MoveError;
