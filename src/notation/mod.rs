//! Text a person reads and writes: UCI moves (`e2e4`), and more to come.
//! No engine logic lives here: each notation reads and writes through the
//! position's legal moves.

mod uci;

pub use uci::MoveError;
