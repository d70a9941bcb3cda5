//! The UCI protocol, exercised on the real binary over pipes: protocol
//! sequences, bad input, stop/ponder handling, time limits, Chess960
//! castling, and tactics whose answers `tests/python/verify_tactics.py`
//! checks independently with python-chess.
//!
//! Waits have generous deadlines (they only guard against hangs); nothing
//! here measures speed.

mod book;
mod harness;
mod play;
mod protocol;
mod search;
