//! The legality strategies and make styles the lab compares, each a type so
//! that perft is monomorphised per combination: no runtime branch on the
//! strategy in the hot loop.
//!
//! | strategy | how illegal moves are removed |
//! | --- | --- |
//! | [`Legal`] | never generated: check and pin masks (`movegen::legal`) |
//! | [`Pseudo`] | pseudo-legal generation, then make + "is my king attacked?" for the moves that can be illegal: king moves, pinned pieces, e.p., and everything when in check |
//! | [`KingCapture`] | micro-Max: pseudo-legal moves are made blindly; a position where the side to move can capture the enemy king (or "capture" a square a castling king left or crossed) proves the previous move illegal |
//!
//! For king-capture perft the leaf ply still needs the reply's test (one
//! more pseudo-legal generation, reduced to the union of capture targets),
//! because only legal leaves count; that is the price of the scheme.
//!
//! Each strategy has a file of its own (`legal`, `pseudo`, `king_capture`);
//! the [`Strategy`] trait and the two make styles they share are here.

mod king_capture;
mod legal;
mod pseudo;

pub use king_capture::KingCapture;
pub use legal::{Legal, LegalWith};
pub use pseudo::Pseudo;

use crate::movegen::MoveList;
use crate::position::Position;
use crate::types::Move;

// The run-time choice by name lives in `by_name`; its items stay
// reachable here, where they were first published.
pub use super::by_name::{Job, dispatch, divide_by_name, perft_by_name};

/// Make/unmake or copy-make: how a child position is visited.
pub trait MakeStyle {
    /// The name `--make` accepts for this style (see [`MAKE_STYLES`]).
    const NAME: &'static str;
    /// Whether children are copies (so a child can be made from a shared
    /// borrow, straight from the generator's batches).
    const COPIES: bool;
    /// Runs `f` on the position after `mv` and returns its result; `pos`
    /// is unchanged afterwards.
    fn with_child<R>(pos: &mut Position, mv: Move, f: impl FnOnce(&mut Position) -> R) -> R;
}

/// Make the move in place, then unmake it.
pub struct Unmake;
/// Copy the position and make the move on the copy.
pub struct CopyMake;

impl MakeStyle for Unmake {
    const NAME: &'static str = "unmake";
    const COPIES: bool = false;
    #[inline]
    fn with_child<R>(pos: &mut Position, mv: Move, f: impl FnOnce(&mut Position) -> R) -> R {
        let undo = pos.make(mv);
        let result = f(pos);
        pos.unmake(mv, undo);
        result
    }
}

impl MakeStyle for CopyMake {
    const NAME: &'static str = "copy";
    const COPIES: bool = true;
    #[inline]
    fn with_child<R>(pos: &mut Position, mv: Move, f: impl FnOnce(&mut Position) -> R) -> R {
        // A full-make perft's leaf closure ignores the child; without this
        // the optimiser could drop the (side-effect free) copy-make entirely.
        with_copy(pos, mv, |child| f(std::hint::black_box(child)))
    }
}

/// Runs `f` on the position after `mv`, made in a local copy of `pos`
/// ([`Position::with_move`], which says why not `play`).
#[inline(always)]
fn with_copy<R>(pos: &Position, mv: Move, f: impl FnOnce(&mut Position) -> R) -> R {
    pos.with_move(mv, f)
}

/// A way of producing only legal moves, for perft and statistics.
pub trait Strategy {
    /// The name used by `--legality` and in JSON.
    const NAME: &'static str;

    /// Perft with bulk counting where the strategy allows it.
    fn perft<M: MakeStyle>(pos: &mut Position, depth: u32) -> u64;

    /// Perft making every leaf move.
    fn perft_full<M: MakeStyle>(pos: &mut Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = Self::legal_moves::<M>(pos);
        let mut nodes = 0;
        for &mv in moves.iter() {
            nodes += M::with_child(pos, mv, |child| Self::perft_full::<M>(child, depth - 1));
        }
        nodes
    }

    /// The legal moves of `pos`, found the strategy's way.
    fn legal_moves<M: MakeStyle>(pos: &mut Position) -> MoveList;
}

/// Names accepted by `--legality`.
pub const STRATEGIES: [&str; 3] = [Legal::NAME, Pseudo::NAME, KingCapture::NAME];
/// Names accepted by `--make`.
pub const MAKE_STYLES: [&str; 2] = [Unmake::NAME, CopyMake::NAME];
