//! Perft: count the leaf nodes of the legal move tree to a fixed depth.
//!
//! *Bulk counting* (the default) stops one ply early and adds the number of
//! legal moves of each position at depth 1, a popcount per piece. *Full*
//! counting (`--no-bulk`) makes and unmakes every leaf move, which measures
//! make/unmake as well as generation.

pub mod stats;
pub mod strategy;

pub use stats::{Stats, perft_stats};
pub use strategy::{CopyMake, KingCapture, Legal, MakeStyle, Pseudo, Strategy, Unmake};

use crate::movegen::{MoveList, count_legal, generate};
use crate::position::Position;
use crate::types::Move;

/// Leaf count at `depth` with bulk counting at the last ply.
///
/// ```
/// use quince::{Position, perft};
/// let mut pos = Position::startpos();
/// assert_eq!(perft::perft(&mut pos, 3), 8902);
/// ```
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(pos),
        _ => {
            let moves = collect(pos);
            let mut nodes = 0;
            for &mv in moves.as_slice() {
                let undo = pos.make(mv);
                nodes += perft(pos, depth - 1);
                pos.unmake(mv, undo);
            }
            nodes
        }
    }
}

/// Leaf count at `depth`, making and unmaking every move including the leaves.
pub fn perft_full(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = collect(pos);
    let mut nodes = 0;
    for &mv in moves.as_slice() {
        let undo = pos.make(mv);
        nodes += if depth == 1 {
            1
        } else {
            perft_full(pos, depth - 1)
        };
        pos.unmake(mv, undo);
    }
    nodes
}

/// Perft with the chosen counting method.
pub fn count(pos: &mut Position, depth: u32, bulk: bool) -> u64 {
    if bulk {
        perft(pos, depth)
    } else {
        perft_full(pos, depth)
    }
}

/// The leaf count below each root move (`depth >= 1`), in generation order.
pub fn divide(pos: &mut Position, depth: u32, bulk: bool) -> Vec<(Move, u64)> {
    let moves = collect(pos);
    moves
        .as_slice()
        .iter()
        .map(|&mv| {
            let undo = pos.make(mv);
            let nodes = count(pos, depth.saturating_sub(1), bulk);
            pos.unmake(mv, undo);
            (mv, nodes)
        })
        .collect()
}

#[inline]
fn collect(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, |batch| {
        for mv in batch.moves() {
            list.push(mv);
        }
        false
    });
    list
}
