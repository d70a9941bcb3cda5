//! The counts read from a games log (per pair, per segment, per record)
//! and the figures computed from them.

use std::collections::BTreeMap;

use super::stats::{
    approximate_llr, elo_estimate, elo_estimate_trinomial, sprt_llr, sprt_llr_trinomial,
};
use super::{Elo, Host, SprtBounds};

/// Per engine: A, B.
pub type PerEngine = [u32; 2];

/// The counts read from a games log (or a part of it).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    /// A's wins, draws, losses.
    pub wdl: [u32; 3],
    /// Pairs by A's points: 0, 0.5, 1, 1.5, 2.
    pub ptnml: [u32; 5],
    /// How each game ended, as the runner wrote it.
    pub terminations: BTreeMap<String, u32>,
    pub time_losses: PerEngine,
    pub illegal_moves: PerEngine,
    pub crashes: PerEngine,
    pub hangs: PerEngine,
    /// Unix time of the first and last finished pair, where logged.
    pub first_finished: Option<f64>,
    pub last_finished: Option<f64>,
    /// Lowest and highest opening number used.
    pub openings: Option<(u32, u32)>,
    /// Pair indices played.
    pub pair_indices: Vec<u32>,
    /// Sum and count of the per-pair mean nodes/s, where logged.
    pub nps_sum: [f64; 2],
    pub nps_n: PerEngine,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wdl.iter().sum()
    }

    pub fn pairs(&self) -> u32 {
        self.ptnml.iter().sum()
    }

    pub(super) fn add(&mut self, other: &Tally) {
        for i in 0..3 {
            self.wdl[i] += other.wdl[i];
        }
        for i in 0..5 {
            self.ptnml[i] += other.ptnml[i];
        }
        for (k, v) in &other.terminations {
            *self.terminations.entry(k.clone()).or_default() += v;
        }
        for i in 0..2 {
            self.time_losses[i] += other.time_losses[i];
            self.illegal_moves[i] += other.illegal_moves[i];
            self.crashes[i] += other.crashes[i];
            self.hangs[i] += other.hangs[i];
            self.nps_sum[i] += other.nps_sum[i];
            self.nps_n[i] += other.nps_n[i];
        }
        self.first_finished = min_opt(self.first_finished, other.first_finished);
        self.last_finished = max_opt(self.last_finished, other.last_finished);
        self.openings = match (self.openings, other.openings) {
            (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.max(b.1))),
            (a, b) => a.or(b),
        };
        self.pair_indices.extend_from_slice(&other.pair_indices);
        self.pair_indices.sort_unstable();
    }
}

fn min_opt(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

fn max_opt(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, y) => x.or(y),
    }
}

/// An SPRT's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The change gains (LLR at or above the upper bound).
    H1,
    /// It does not (LLR at or below the lower bound).
    H0,
    /// Stopped before a bound was crossed.
    Open,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::H1 => "H1",
            Verdict::H0 => "H0",
            Verdict::Open => "open",
        }
    }
}

impl SprtBounds {
    /// The verdict an LLR reaches between these bounds.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.llr_bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Open
        }
    }
}

/// The figures of a tally.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    pub tally: Tally,
    /// A's points per game.
    pub score: Option<f64>,
    /// From the pairs (the text log: from the games).
    pub elo: Option<Elo>,
    /// From the games as if independent.
    pub elo_trinomial: Option<Elo>,
    /// Whether `elo` is the per-game (trinomial) estimate.
    pub per_game: bool,
    pub llr: Option<f64>,
    pub verdict: Option<Verdict>,
    /// The verdict under the normal approximation the project used before
    /// the exact LLR, where it differs from [`Stats::verdict`].
    pub approximate_verdict: Option<Verdict>,
}

impl Stats {
    pub fn from_tally(tally: Tally, per_game: bool, sprt: Option<&SprtBounds>) -> Stats {
        let games = tally.games();
        let score =
            (games > 0).then(|| (tally.wdl[0] as f64 + tally.wdl[1] as f64 / 2.0) / games as f64);
        let elo_trinomial = if games > 1 {
            elo_estimate_trinomial(tally.wdl)
        } else {
            None
        };
        let elo = if per_game {
            elo_trinomial
        } else if tally.pairs() > 1 {
            elo_estimate(tally.ptnml)
        } else {
            None
        };
        let (llr, verdict, approximate_verdict) = match sprt {
            Some(s) => {
                let llr = if per_game {
                    sprt_llr_trinomial(tally.wdl, s.elo0, s.elo1)
                } else {
                    sprt_llr(tally.ptnml, s.elo0, s.elo1)
                };
                let pairs = (!per_game).then_some(tally.ptnml);
                let verdict = s.verdict(llr);
                let approximate = s.verdict(approximate_llr(pairs, tally.wdl, s.elo0, s.elo1));
                (
                    Some(llr),
                    Some(verdict),
                    (approximate != verdict).then_some(approximate),
                )
            }
            None => (None, None, None),
        };
        Stats {
            tally,
            score,
            elo,
            elo_trinomial,
            per_game,
            llr,
            verdict,
            approximate_verdict,
        }
    }

    /// Mean nodes/s of engine `role` (0: A, 1: B), where logged.
    pub fn nps(&self, role: usize) -> Option<f64> {
        let n = self.tally.nps_n[role];
        (n > 0).then(|| self.tally.nps_sum[role] / n as f64)
    }
}

/// One segment's pairs and figures.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SegmentResult {
    pub host: Option<Host>,
    pub source: Option<String>,
    pub stats: Stats,
}

/// Everything computed from a record's games log.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Results {
    pub overall: Stats,
    /// One per segment of the record, in its order, then one for pairs no
    /// segment claims (host not recorded), if any.
    pub segments: Vec<SegmentResult>,
}
