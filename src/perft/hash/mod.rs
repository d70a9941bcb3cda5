//! Perft through a hash table shared by all threads: (position, remaining
//! depth) -> leaf count (or, with `--stats`, the whole statistics row), so
//! that a position reached by transposition is counted once.
//!
//! * [`keys`]: the two independent 64-bit keys an entry is checked against
//!   (the Zobrist key and a second hash of the bitboards).
//! * [`count_table`]: leaf counts in 16-byte entries, four to a cache line,
//!   lockless, the smallest count replaced; what `perft --hash` uses.
//! * [`stats_table`]: whole statistics rows, for `perft --stats --hash`.
//! * [`memory`]: one zeroed block on huge pages, refused up front when the
//!   machine does not have the memory.
//!
//! How the count table earns its memory (each step measured in
//! `reports/perft-hash.md`, rendered from the lab's records):
//!
//! 1. Counts are stored only from [`MIN_COUNT_DEPTH`] plies up: a
//!    position one ply from the leaves is recounted with one bulk count,
//!    which costs less than a probe that misses the cache.
//! 2. Compact entries (16 bytes), four per 64-byte bucket, so that a probe
//!    is one cache miss and a table holds twice the entries of 32-byte
//!    ones.
//! 3. The children's buckets are prefetched before any child is probed
//!    ([`HashOptions::prefetch`]): the loads of a node's 20 to 40
//!    children overlap instead of waiting one after another.
//! 4. Huge pages ([`memory::Pages`]): a random probe of a large table also
//!    misses the TLB; 2 MiB pages make its page walk short or absent.

pub mod count_table;
pub mod keys;
pub mod memory;
pub mod stats_table;

pub use count_table::CountTable;
pub use keys::{Keys, verification_key};
pub use memory::Pages;
pub use stats_table::StatsTable;

use super::stats::{Stats, perft_stats};
use super::strategy::{MakeStyle, Strategy};
use crate::position::Position;

/// Counts are stored only from this remaining depth up: below it the
/// subtree is cheaper to recount (a bulk count is one generation) than a
/// probe, which is usually a cache miss.
pub const MIN_COUNT_DEPTH: u32 = 2;
/// Statistics rows are stored from remaining depth 1: classifying leaf
/// moves (make, check test, mate test) is expensive enough to be worth it.
pub const MIN_STATS_DEPTH: u32 = 1;

/// Children whose buckets are prefetched together: about as many loads as
/// a core keeps in flight.
const PREFETCH_CHUNK: usize = 16;

/// How hashed perft uses its table (the lab turns each step off to
/// measure what it buys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashOptions {
    /// Prefetch every child's bucket before probing the first one.
    pub prefetch: bool,
}

impl Default for HashOptions {
    fn default() -> Self {
        HashOptions { prefetch: true }
    }
}

/// Perft through the table: positions with at least [`MIN_COUNT_DEPTH`]
/// plies left are looked up before and stored after being counted; the
/// rest is the strategy's own perft (bulk or full). The table's
/// [`HashOptions`] say how.
pub fn perft_hashed<S: Strategy, M: MakeStyle>(
    pos: &mut Position,
    depth: u32,
    bulk: bool,
    table: &CountTable,
) -> u64 {
    if depth < MIN_COUNT_DEPTH {
        return unhashed::<S, M>(pos, depth, bulk);
    }
    let keys = Keys::of(pos);
    if let Some(nodes) = table.probe(keys, depth) {
        return nodes;
    }
    let nodes = children::<S, M>(pos, depth, bulk, table);
    table.store(keys, depth, nodes);
    nodes
}

/// The strategy's own perft, without the table.
#[inline]
fn unhashed<S: Strategy, M: MakeStyle>(pos: &mut Position, depth: u32, bulk: bool) -> u64 {
    if bulk {
        S::perft::<M>(pos, depth)
    } else {
        S::perft_full::<M>(pos, depth)
    }
}

/// The sum over the children of a position that missed the table.
fn children<S: Strategy, M: MakeStyle>(
    pos: &mut Position,
    depth: u32,
    bulk: bool,
    table: &CountTable,
) -> u64 {
    let below = depth - 1;
    if below < MIN_COUNT_DEPTH {
        // No child is looked up: the strategy's own perft counts this
        // subtree, with its batch-wise light makes at the leaves' parents,
        // rather than a move list and a full make per child.
        return unhashed::<S, M>(pos, depth, bulk);
    }
    let moves = S::legal_moves::<M>(pos);
    if !table.options().prefetch {
        return moves
            .iter()
            .map(|&mv| {
                M::with_child(pos, mv, |child| {
                    perft_hashed::<S, M>(child, below, bulk, table)
                })
            })
            .sum();
    }
    // Two passes over each chunk of moves: the first makes each child only
    // to learn its keys and start loading its bucket; the second probes
    // (by then mostly in cache) and counts the misses. A child's extra
    // make is cheap beside the subtree below it (at least two plies).
    // Chunks of PREFETCH_CHUNK keep the key array small (no 4 KiB array
    // to initialise per node) while still overlapping that many loads.
    let mut nodes = 0;
    for chunk in moves.chunks(PREFETCH_CHUNK) {
        let mut keys = [Keys {
            zobrist: 0,
            verify: 0,
        }; PREFETCH_CHUNK];
        for (slot, &mv) in keys.iter_mut().zip(chunk) {
            *slot = M::with_child(pos, mv, |child| Keys::of(child));
            table.prefetch(*slot);
        }
        for (&child_keys, &mv) in keys.iter().zip(chunk) {
            nodes += match table.probe(child_keys, below) {
                Some(count) => count,
                None => {
                    let count =
                        M::with_child(pos, mv, |child| children::<S, M>(child, below, bulk, table));
                    table.store(child_keys, below, count);
                    count
                }
            };
        }
    }
    nodes
}

/// The statistics of perft(`depth`) through a table of whole rows.
pub fn perft_stats_hashed<S: Strategy, M: MakeStyle>(
    pos: &mut Position,
    depth: u32,
    table: &StatsTable,
) -> Stats {
    if depth < MIN_STATS_DEPTH {
        return perft_stats::<S, M>(pos, depth);
    }
    let keys = Keys::of(pos);
    if let Some(values) = table.probe(keys, depth) {
        return stats_from(values);
    }
    let stats = if depth == 1 {
        perft_stats::<S, M>(pos, 1)
    } else {
        let moves = S::legal_moves::<M>(pos);
        let mut total = Stats::default();
        for &mv in moves.iter() {
            total += M::with_child(pos, mv, |child| {
                perft_stats_hashed::<S, M>(child, depth - 1, table)
            });
        }
        total
    };
    table.store(keys, depth, stats.values());
    stats
}

/// A statistics row from its values in column order.
pub fn stats_from(v: [u64; 9]) -> Stats {
    Stats {
        nodes: v[0],
        captures: v[1],
        en_passant: v[2],
        castles: v[3],
        promotions: v[4],
        checks: v[5],
        discovery_checks: v[6],
        double_checks: v[7],
        checkmates: v[8],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::{CopyMake, Legal, Unmake};

    #[test]
    fn hashed_counts_are_exact_with_and_without_prefetch() {
        let kiwipete = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let expected = [48, 2039, 97_862, 4_085_603];
        for prefetch in [true, false] {
            let options = HashOptions { prefetch };
            // A tiny table: constant replacement, and every count still exact.
            let table = CountTable::new(1).unwrap().with_options(options);
            for (depth, &nodes) in (1..).zip(&expected) {
                let mut pos = kiwipete.clone();
                let got = perft_hashed::<Legal, CopyMake>(&mut pos, depth, true, &table);
                assert_eq!(got, nodes, "depth {depth}, {options:?}");
                let full = perft_hashed::<Legal, Unmake>(&mut pos, depth.min(3), false, &table);
                assert_eq!(full, expected[depth.min(3) as usize - 1]);
                assert_eq!(pos, kiwipete);
            }
        }
    }
}
