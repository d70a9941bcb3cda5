//! Perft: count the leaf nodes of the legal move tree to a fixed depth.
//!
//! *Bulk counting* (the default) stops one ply early and adds the number of
//! legal moves of each position at depth 1, a popcount per piece. *Full*
//! counting (`--no-bulk`) makes and unmakes every leaf move, which measures
//! make/unmake as well as generation.

mod batch_children;
mod by_name;
pub mod hash;
pub mod split;
pub mod stats;
pub mod strategy;
pub mod techniques;
pub mod threads;

pub use stats::{Stats, perft_stats};
pub use strategy::{CopyMake, KingCapture, Legal, LegalWith, MakeStyle, Pseudo, Strategy, Unmake};

use crate::movegen::MoveList;
use crate::movegen::legal::fill_list;
use crate::position::Position;
use crate::types::Move;

/// Leaf count at `depth` with bulk counting at the last ply (legal
/// generation, copy-make: the fastest combination measured here).
///
/// ```
/// use quince::{Position, perft};
/// let pos = Position::startpos();
/// assert_eq!(perft::perft(&pos, 3), 8902);
/// ```
///
/// It takes `&Position` and works on a copy of it (one copy per call, not
/// per node); [`Strategy::perft`] runs in place on a `&mut Position`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    Legal::perft::<CopyMake>(&mut pos.clone(), depth)
}

/// Leaf count at `depth`, making every move including the leaves.
pub fn perft_full(pos: &Position, depth: u32) -> u64 {
    Legal::perft_full::<CopyMake>(&mut pos.clone(), depth)
}

/// Perft with the chosen counting method.
pub fn count(pos: &Position, depth: u32, bulk: bool) -> u64 {
    if bulk {
        perft(pos, depth)
    } else {
        perft_full(pos, depth)
    }
}

/// The leaf count below each root move (`depth >= 1`), in generation order.
pub fn divide(pos: &Position, depth: u32, bulk: bool) -> Vec<(Move, u64)> {
    collect(pos)
        .into_iter()
        .map(|mv| {
            (
                mv,
                count(&pos.play_unchecked(mv), depth.saturating_sub(1), bulk),
            )
        })
        .collect()
}

#[inline]
fn collect(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    fill_list(pos, &mut list);
    list
}
