//! What bounds a search, and the signals the protocol thread sends it.

use crate::types::{Color, Move};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The limits of one search, already sanitised by the caller (no negative
/// numbers; `searchmoves` legal in the root position).
///
/// Built from one of the bounded constructors, [`Limits::depth`],
/// [`Limits::nodes`] and [`Limits::movetime`], then refined with struct
/// update syntax. There is no `Default`: a search with no limit at all
/// (`infinite`) runs until its [`Signals`] stop it, so it has to be asked
/// for by name.
///
/// ```
/// use quince::search::Limits;
/// let quick = Limits::depth(6);
/// let analysis = Limits { multi_pv: 3, ..Limits::movetime(std::time::Duration::from_millis(200)) };
/// assert_eq!(quick.depth, Some(6));
/// assert_eq!(analysis.movetime, Some(200));
/// ```
#[derive(Clone, Debug)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<i32>,
    /// Stop after about this many nodes (checked at every node, so searches
    /// with a node limit are deterministic).
    pub nodes: Option<u64>,
    /// A hard node cap that, unlike `nodes`, may cut even the first
    /// iteration short (the best root move so far is then played). Only
    /// for fuzzing, where the search is not what is being tested.
    pub node_cap: Option<u64>,
    /// Exact time to use, in milliseconds.
    pub movetime: Option<u64>,
    /// Remaining clock time per colour (White, Black) in milliseconds.
    pub time: [Option<u64>; 2],
    /// Increment per move per colour, in milliseconds.
    pub increment: [u64; 2],
    /// Moves until the next time control, if not sudden death.
    pub moves_to_go: Option<u64>,
    /// Search until `stop`, whatever happens.
    pub infinite: bool,
    /// Pondering: no time limit until `ponderhit` clears [`Signals::ponder`].
    pub ponder: bool,
    /// Stop once a mate in this many moves (or fewer) is found.
    pub mate: Option<u32>,
    /// Only these root moves (empty: all).
    pub search_moves: Vec<Move>,
    /// Number of principal variations to report (at least 1).
    pub multi_pv: usize,
    /// Milliseconds to keep in reserve per move for GUI and pipe latency.
    pub move_overhead: u64,
    /// Syzygy tablebases to probe (`None`: none).
    #[cfg(feature = "syzygy")]
    pub tablebase: Option<super::tablebase::TablebaseUse>,
}

impl Limits {
    /// No limit at all: the base the constructors refine (private, so that
    /// an unbounded search is only made on purpose, with `infinite`).
    const UNBOUNDED: Limits = Limits {
        depth: None,
        nodes: None,
        node_cap: None,
        movetime: None,
        time: [None, None],
        increment: [0, 0],
        moves_to_go: None,
        infinite: false,
        ponder: false,
        mate: None,
        search_moves: Vec::new(),
        multi_pv: 1,
        move_overhead: 0,
        #[cfg(feature = "syzygy")]
        tablebase: None,
    };

    /// Search to `plies` plies (at least 1): deterministic, the same answer
    /// on every machine.
    pub fn depth(plies: i32) -> Limits {
        Limits {
            depth: Some(plies.max(1)),
            ..Limits::UNBOUNDED
        }
    }

    /// Search about `nodes` nodes (checked at every node: deterministic too).
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::UNBOUNDED
        }
    }

    /// Search for this long (at least the first iteration is finished).
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(u64::try_from(time.as_millis()).unwrap_or(u64::MAX)),
            ..Limits::UNBOUNDED
        }
    }

    /// Search until [`Signals::stop`] is set (UCI's `go infinite`): only for
    /// a caller that holds the signals and will set them. The search also
    /// stops by itself at its deepest iteration, 120 plies
    /// (`search::score::MAX_PLY` less the margin its stacks keep), which a
    /// position with few legal moves can reach in seconds.
    pub fn infinite() -> Limits {
        Limits {
            infinite: true,
            ..Limits::UNBOUNDED
        }
    }

    /// Whether a search with these limits ends by itself (a depth, node or
    /// time limit, and not `infinite`).
    pub fn is_bounded(&self) -> bool {
        let timed = self.movetime.is_some() || self.time.iter().any(Option::is_some);
        !self.infinite && (self.depth.is_some() || self.nodes.is_some() || timed)
    }
}

/// Shared between the protocol thread and the search thread.
#[derive(Debug, Default)]
pub struct Signals {
    /// Set by `stop`/`quit`: abort as soon as possible.
    pub stop: AtomicBool,
    /// Set while pondering; `ponderhit` clears it and the clock starts.
    pub ponder: AtomicBool,
}

impl Signals {
    /// Whether `stop` (or `quit`) has been received.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether the search is still pondering (no `ponderhit` yet).
    pub fn pondering(&self) -> bool {
        self.ponder.load(Ordering::Relaxed)
    }
}

/// The time allotted to one move: after `soft`, no new iteration starts;
/// at `hard` the search is aborted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Elapsed time after which no new iteration starts.
    pub soft: Duration,
    /// Elapsed time at which the running search is aborted.
    pub hard: Duration,
}

/// Moves assumed to remain in a sudden-death game.
const DEFAULT_MOVES_TO_GO: u64 = 30;

impl Limits {
    /// The time budget for `side`, or `None` without a time limit.
    ///
    /// With a clock: a base share `clock / moves_to_go + 3/4 * increment`,
    /// soft at 80 % of it and hard at three times it, but never more than
    /// 40 % (soft) and 75 % (hard) of the clock left after the overhead, so
    /// a large increment or a nearly empty clock cannot overdraw it.
    pub fn budget(&self, side: Color) -> Option<Budget> {
        let overhead = self.move_overhead;
        if let Some(movetime) = self.movetime {
            let t = Duration::from_millis(movetime.saturating_sub(overhead));
            return Some(Budget { soft: t, hard: t });
        }
        let clock = self.time[side.index()]?;
        // u128 arithmetic: `go wtime 99999999999999999999` must not overflow.
        let available = u128::from(clock.saturating_sub(overhead));
        let increment = u128::from(self.increment[side.index()]);
        // `movestogo 0` comes from GUIs that mean "not set"; taken as one
        // move to go it would spend most of the clock on this move.
        let moves_to_go = self.moves_to_go.filter(|&n| n > 0);
        let moves = u128::from(moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 50));
        let base = available / moves + increment.min(available) * 3 / 4;
        let soft = (base * 8 / 10).min(available * 4 / 10);
        let hard = (base * 3).min(available * 3 / 4).max(soft);
        let (soft, hard) = (
            soft.min(u64::MAX as u128) as u64,
            hard.min(u64::MAX as u128) as u64,
        );
        Some(Budget {
            soft: Duration::from_millis(soft),
            hard: Duration::from_millis(hard),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Duration) -> u64 {
        d.as_millis() as u64
    }

    #[test]
    fn budgets_stay_inside_the_clock() {
        let mut limits = Limits {
            move_overhead: 30,
            ..Limits::UNBOUNDED
        };
        assert_eq!(limits.budget(Color::White), None);
        for (clock, inc, mtg) in [
            (10_000, 100, None),
            (300, 0, None),
            (200, 5_000, None),
            (0, 0, None),
            (60_000, 0, Some(1)),
            (u64::MAX / 2, u64::MAX / 4, None),
        ] {
            limits.time = [Some(clock), Some(clock)];
            limits.increment = [inc, inc];
            limits.moves_to_go = mtg;
            let budget = limits.budget(Color::Black).unwrap();
            assert!(budget.soft <= budget.hard);
            let limit = u128::from(clock.saturating_sub(30)) * 3 / 4;
            assert!(u128::from(ms(budget.hard)) <= limit, "{clock} {inc}");
        }
        // `movestogo 0` is "not set": the sudden-death share, not the whole clock.
        limits.time = [Some(1000), Some(1000)];
        limits.increment = [0, 0];
        limits.moves_to_go = Some(0);
        let odd = limits.budget(Color::White).unwrap();
        limits.moves_to_go = None;
        assert_eq!(odd, limits.budget(Color::White).unwrap());
        assert!(ms(odd.hard) <= 200, "{odd:?}");
        limits.movetime = Some(1000);
        assert_eq!(ms(limits.budget(Color::White).unwrap().hard), 970);
    }
}
