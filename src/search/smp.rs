//! Lazy SMP: more threads search the same position at once, sharing only
//! the transposition table, and the main thread's result is played.
//!
//! Why it works: the helpers fill the table with results the main thread
//! then finds instead of searching (cut-offs, exact scores, move
//! ordering), and because threads race, each ends up exploring a slightly
//! different tree. Half of the helpers start one ply deeper than the main
//! thread, so they do not walk in lockstep. No work is split explicitly:
//! no locks, no messages, and a thread count of 1 is the single-threaded
//! search unchanged (node counts and `bench` signatures included).
//!
//! The helpers obey no clock and report nothing. The main thread keeps
//! every limit (time, depth, nodes counted over all threads, `stop`,
//! `ponderhit`) and, when its search is over, tells the helpers to stop
//! and waits for them, so `bestmove` comes only after every thread is
//! done.

use super::{Limits, Outcome, Report, Searcher, Signals};
use crate::position::Position;
use crate::search::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// The most search threads, a bound against typing errors (each thread
/// holds about 2 MB of search state).
pub const MAX_THREADS: usize = 1024;

/// Stack size of a helper thread: the search recurses up to `MAX_PLY`
/// plies with move lists in every frame (the UCI search thread gets the
/// same).
const HELPER_STACK: usize = 64 << 20;

/// What the main thread and its helpers share besides the table.
#[derive(Default)]
pub(super) struct Shared {
    /// Set when the main thread's search is over: the helpers stop.
    pub done: AtomicBool,
    /// Nodes searched by the helpers so far (added in batches).
    pub helper_nodes: AtomicU64,
}

/// The role of a [`Searcher`] among the search threads.
#[derive(Clone, Copy)]
pub(super) struct Role<'a> {
    /// What the threads share; `None` for a search on one thread.
    pub shared: Option<&'a Shared>,
    /// A helper (not the main thread).
    pub helper: bool,
    /// Plies added to the first iteration's depth (helpers only).
    pub depth_offset: i32,
}

impl Role<'_> {
    /// The single thread of a one-thread search.
    pub const ALONE: Role<'static> = Role {
        shared: None,
        helper: false,
        depth_offset: 0,
    };

    /// For a helper, at each of its checks (every `batch` nodes): adds
    /// the batch to the shared count and says whether the main thread is
    /// done. Always `false` for the main thread.
    #[inline]
    pub fn helper_batch_ends(&self, batch: u64) -> bool {
        match self.shared {
            Some(shared) if self.helper => {
                shared.helper_nodes.fetch_add(batch, Relaxed);
                shared.done.load(Relaxed)
            }
            _ => false,
        }
    }

    /// The helpers' nodes so far, as the main thread sees them (0 alone
    /// or for a helper itself).
    #[inline]
    pub fn helper_nodes(&self) -> u64 {
        match self.shared {
            Some(shared) if !self.helper => shared.helper_nodes.load(Relaxed),
            _ => 0,
        }
    }
}

/// A helper's limits: the main thread's depth and root moves, no clock,
/// no node limit, one line (it reports nothing).
fn helper_limits(limits: &Limits) -> Limits {
    Limits {
        depth: limits.depth,
        node_cap: limits.node_cap,
        search_moves: limits.search_moves.clone(),
        ..Limits::infinite()
    }
}

/// [`super::search`] on `threads` threads (at least 1): the calling thread
/// is the main thread, `threads - 1` helpers run beside it. A helper that
/// the system refuses to start is left out; the search goes on with the
/// others.
pub(super) fn search_on_threads(
    pos: &Position,
    history: &[u64],
    tt: &TranspositionTable,
    limits: &Limits,
    signals: &Signals,
    threads: usize,
    report: &mut dyn FnMut(&Report),
) -> Outcome {
    let shared = Shared::default();
    let helper_limits = helper_limits(limits);
    let mut outcome = std::thread::scope(|scope| {
        for index in 1..threads.min(MAX_THREADS) {
            let (shared, helper_limits) = (&shared, &helper_limits);
            let role = Role {
                shared: Some(shared),
                helper: true,
                depth_offset: (index % 2) as i32,
            };
            // A refused thread only means fewer helpers.
            let _ = std::thread::Builder::new()
                .name(format!("helper {index}"))
                .stack_size(HELPER_STACK)
                .spawn_scoped(scope, move || {
                    let mut quiet = |_: &Report| {};
                    let mut searcher =
                        Searcher::new(pos, history, tt, helper_limits, signals, &mut quiet, role);
                    searcher.iterate();
                    let unreported = searcher.nodes % super::CHECK_EVERY;
                    shared.helper_nodes.fetch_add(unreported, Relaxed);
                });
        }
        let role = Role {
            shared: Some(&shared),
            helper: false,
            depth_offset: 0,
        };
        let outcome = Searcher::new(pos, history, tt, limits, signals, report, role).iterate();
        super::wait_for_stop(limits, signals);
        shared.done.store(true, Relaxed);
        outcome
    });
    // The scope has joined the helpers: every node of theirs is counted.
    outcome.nodes += shared.helper_nodes.load(Relaxed);
    outcome
}
