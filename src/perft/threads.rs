//! Perft on several threads (and through the shared hash table).
//!
//! Splitting only at the root leaves threads idle: the start position has
//! 20 root moves of very different sizes, and the last big one runs alone.
//! So the tree is expanded (with [`split`](super::split), transpositions
//! merged) until there are at least [`UNITS_PER_THREAD`] subtrees per
//! thread, and the threads take subtrees from a shared counter until none
//! are left. Every subtree is counted by the same strategy code as a
//! single-threaded perft, so the counts are identical.
//!
//! The legality strategy and make style are chosen by name once, here, and
//! everything below is monomorphised ([`Job`] / [`dispatch`]).

use super::hash::{CountTable, StatsTable, perft_hashed, perft_stats_hashed};
use super::split::{Node, expand_until};
use super::stats::{Stats, perft_stats};
pub use super::strategy::{Job, dispatch};
use super::strategy::{MakeStyle, Strategy};
use crate::position::Position;
use crate::types::Move;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

/// Subtrees per thread: enough that the unequal sizes even out and no
/// thread is left alone with the last big subtree. At 8, two threads split
/// the start position only at its 20 root moves, and the biggest ones
/// finished alone; at 64 they get its 400 ply-2 positions.
pub const UNITS_PER_THREAD: usize = 64;

/// `--threads 0` means every core the OS offers.
pub fn resolve_threads(requested: usize) -> usize {
    if requested == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        requested
    }
}

/// Where a run is, for progress lines.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Subtrees finished and in all.
    pub done: usize,
    /// Subtrees in all.
    pub total: usize,
    /// Leaves counted so far (multiplicities applied).
    pub nodes: u64,
    /// Seconds since the start.
    pub elapsed: f64,
}

/// Called after each finished subtree (from the worker threads, one at a time).
pub type ProgressFn<'a> = &'a (dyn Fn(Progress) + Sync);

/// Runs `work(i)` for `i in 0..jobs` on `threads` scoped threads, handing
/// out indices from a shared counter; returns the results in index order.
/// `weight(i, &result)` is the node count reported to `progress`.
pub fn run_indexed<T: Send>(
    jobs: usize,
    threads: usize,
    work: impl Fn(usize) -> T + Sync,
    weight: impl Fn(usize, &T) -> u64 + Sync,
    progress: ProgressFn,
) -> Vec<T> {
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let nodes = AtomicU64::new(0);
    let report = Mutex::new(());
    let worker = || {
        let mut out = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= jobs {
                break;
            }
            let result = work(i);
            let so_far = nodes.fetch_add(weight(i, &result), Ordering::Relaxed);
            let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
            if let Ok(_guard) = report.lock() {
                progress(Progress {
                    done: finished,
                    total: jobs,
                    nodes: so_far + weight(i, &result),
                    elapsed: start.elapsed().as_secs_f64(),
                });
            }
            out.push((i, result));
        }
        out
    };
    let threads = threads.clamp(1, jobs.max(1));
    let mut results: Vec<(usize, T)> = if threads == 1 {
        worker()
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        })
    };
    results.sort_unstable_by_key(|&(i, _)| i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// The settings shared by the parallel entry points.
#[derive(Clone, Copy)]
pub struct Settings<'a> {
    /// Worker threads (resolve a requested 0 with [`resolve_threads`]
    /// first); the tree is split into about [`UNITS_PER_THREAD`] subtrees
    /// per thread.
    pub threads: usize,
    /// Bulk counting at the last ply (ignored for statistics).
    pub bulk: bool,
    /// Called after each finished subtree.
    pub progress: ProgressFn<'a>,
}

/// Counts one subtree with the strategy, through the table if there is one.
fn count_subtree<S: Strategy, M: MakeStyle>(
    pos: &mut Position,
    depth: u32,
    bulk: bool,
    table: Option<&CountTable>,
) -> u64 {
    match table {
        Some(table) => perft_hashed::<S, M>(pos, depth, bulk, table),
        None if bulk => S::perft::<M>(pos, depth),
        None => S::perft_full::<M>(pos, depth),
    }
}

/// Parallel (and/or hashed) divide: the count below each root move, in the
/// strategy's move order, exactly as `strategy::divide_by_name` gives it.
pub struct Divide<'a> {
    /// The root position.
    pub position: &'a Position,
    /// The perft depth, counted from the root.
    pub depth: u32,
    /// A shared hash table for the subtree counts, if any.
    pub table: Option<&'a CountTable>,
    /// Threads, counting method, progress.
    pub settings: Settings<'a>,
}

impl Job for Divide<'_> {
    type Output = Vec<(Move, u64)>;

    fn run<S: Strategy, M: MakeStyle>(self) -> Vec<(Move, u64)> {
        if self.depth == 0 {
            return Vec::new();
        }
        let mut root = self.position.clone();
        let root_moves = S::legal_moves::<M>(&mut root);
        let seeds: Vec<Node> = root_moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| Node::new(root.play_unchecked(mv), i as u32))
            .collect();
        // Leave at least one ply (none at depth 1) below the split.
        let target = UNITS_PER_THREAD * self.settings.threads;
        let (units, plies) = expand_until(seeds, target, self.depth.saturating_sub(2), &mut |p| {
            S::legal_moves::<M>(p)
        });
        let below = self.depth - 1 - plies;
        let counts = run_indexed(
            units.len(),
            self.settings.threads,
            |i| {
                let mut pos = units[i].position.clone();
                count_subtree::<S, M>(&mut pos, below, self.settings.bulk, self.table)
            },
            |i, &n| n * units[i].multiplicity(),
            self.settings.progress,
        );
        let mut per_root = vec![0u64; root_moves.len()];
        for (unit, n) in units.iter().zip(counts) {
            for &(tag, paths) in &unit.paths {
                per_root[tag as usize] += n * paths;
            }
        }
        root_moves.iter().copied().zip(per_root).collect()
    }
}

/// Parallel (and/or hashed) statistics of perft(`depth`). Subtrees keep at
/// least one ply, since a leaf's statistics depend on the move into it.
pub struct StatsJob<'a> {
    /// The root position.
    pub position: &'a Position,
    /// The perft depth, counted from the root.
    pub depth: u32,
    /// A shared hash table for the subtree statistics, if any.
    pub table: Option<&'a StatsTable>,
    /// Threads and progress (`bulk` is ignored).
    pub settings: Settings<'a>,
}

impl Job for StatsJob<'_> {
    type Output = Stats;

    fn run<S: Strategy, M: MakeStyle>(self) -> Stats {
        let mut pos = self.position.clone();
        if self.depth == 0 {
            return perft_stats::<S, M>(&mut pos, 0);
        }
        let target = UNITS_PER_THREAD * self.settings.threads;
        let (units, plies) =
            expand_until(vec![Node::new(pos, 0)], target, self.depth - 1, &mut |p| {
                S::legal_moves::<M>(p)
            });
        let below = self.depth - plies;
        let rows = run_indexed(
            units.len(),
            self.settings.threads,
            |i| {
                let mut pos = units[i].position.clone();
                match self.table {
                    Some(table) => perft_stats_hashed::<S, M>(&mut pos, below, table),
                    None => perft_stats::<S, M>(&mut pos, below),
                }
            },
            |i, s| s.nodes * units[i].multiplicity(),
            self.settings.progress,
        );
        let mut total = Stats::default();
        for (unit, row) in units.iter().zip(rows) {
            total += scale(row, unit.multiplicity());
        }
        total
    }
}

/// Every counter of `row` times `k`.
pub fn scale(row: Stats, k: u64) -> Stats {
    let v = row.values().map(|x| x * k);
    super::hash::stats_from(v)
}

/// The count (or statistics row) of one position, split over the threads
/// (used by `quince perft work` for each unit).
pub struct Subtree<'a> {
    /// The unit's position.
    pub position: &'a Position,
    /// The depth left below it.
    pub depth: u32,
    /// A shared hash table for leaf counts, if any.
    pub counts: Option<&'a CountTable>,
    /// With `Some`, statistics are computed (and `counts` is ignored).
    pub stats: Option<Option<&'a StatsTable>>,
    /// Threads, counting method, progress.
    pub settings: Settings<'a>,
}

impl Job for Subtree<'_> {
    type Output = (u64, Option<Stats>);

    fn run<S: Strategy, M: MakeStyle>(self) -> (u64, Option<Stats>) {
        if let Some(table) = self.stats {
            let stats = StatsJob {
                position: self.position,
                depth: self.depth,
                table,
                settings: self.settings,
            }
            .run::<S, M>();
            return (stats.nodes, Some(stats));
        }
        if self.depth == 0 {
            return (1, None);
        }
        let divide = Divide {
            position: self.position,
            depth: self.depth,
            table: self.counts,
            settings: self.settings,
        }
        .run::<S, M>();
        (divide.iter().map(|&(_, n)| n).sum(), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet(_: Progress) {}

    #[test]
    fn threaded_divide_matches_the_single_threaded_one() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let single = pos.clone();
        let expected = super::super::divide(&single, 4, true);
        let table = CountTable::new(1).unwrap();
        for (threads, table) in [(1, None), (2, None), (3, Some(&table))] {
            let got = dispatch(
                "legal",
                "unmake",
                Divide {
                    position: &pos,
                    depth: 4,
                    table,
                    settings: Settings {
                        threads,
                        bulk: true,
                        progress: &quiet,
                    },
                },
            )
            .unwrap();
            assert_eq!(got, expected, "threads {threads}");
        }
    }
}
