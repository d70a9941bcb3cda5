//! The lab's one measurement protocol, used by `lab` (backends against each
//! other) and `report` (Quince against its peers).
//!
//! Every wall-time comparison is **paired**: in each round every contender
//! runs each workload once as a whole process, in an order that rotates
//! from round to round, so a slow minute of the shared machine hits all of
//! them alike. Each run lasts at least [`MIN_SECONDS`] (the depth, and where
//! every contender can repeat in-process, the repeat count, are picked per
//! position from a calibration run of the fastest contender). A round's
//! ratio is one contender's seconds over another's *in that round*; a
//! record keeps every round and summarises each ratio by its median and an
//! order-statistic interval ([`stats`]). Instruction counts (callgrind) are
//! deterministic and need none of this.

pub mod build;
pub mod host;
pub mod instructions;
pub mod stats;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::util::Result;
use stats::Interval;

/// The shortest run the protocol accepts, in seconds.
pub const MIN_SECONDS: f64 = 0.5;
/// The shortest single process of a run made of repeated whole processes
/// (a C perft program cannot repeat a depth itself). Why a floor: each
/// process pays its start-up (a few milliseconds at most for these
/// programs), which must stay a small part of what is timed. Why
/// repeating at all: perft depths grow 20 to 40 times per ply, so
/// without it the shallowest depth that lasts half a second can last 20
/// (position 4 at depth 7: 94 s a round for the four programs, 11 of a
/// peers run's 37 minutes on an Emerald Rapids host).
pub const MIN_PROCESS_SECONDS: f64 = 0.1;
/// Rounds by default: with 7 the 95 % order-statistic interval of the
/// median is the range of the rounds (coverage 98.4 %).
pub const DEFAULT_ROUNDS: usize = 7;

/// One program taking part in a comparison.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Contender {
    /// The name pages use ("quince", "gigantua", "pext", ...).
    pub name: String,
    /// The program and its arguments; `{fen}`, `{depth}`, `{nodes}`,
    /// `{repeat}` and `{kind}` are filled in per run.
    pub argv: Vec<String>,
    /// The directory it runs in (absent: the workspace root).
    pub cwd: Option<PathBuf>,
    /// SHA-256 of the program's binary.
    pub sha256: String,
    /// How it was built or which version it is.
    pub version: String,
}

impl Contender {
    fn command(&self, w: &Workload) -> Command {
        let fill = |a: &String| {
            a.replace("{fen}", &w.fen)
                .replace("{depth}", &w.depth.to_string())
                .replace("{nodes}", &w.nodes.to_string())
                .replace("{repeat}", &w.repeat.to_string())
                .replace("{kind}", &w.kind)
        };
        let mut cmd = Command::new(fill(&self.argv[0]));
        cmd.args(self.argv[1..].iter().map(fill));
        if let Some(dir) = &self.cwd {
            cmd.current_dir(dir);
        }
        cmd
    }

    /// Whether the program repeats a workload itself (its arguments
    /// take `{repeat}`).
    pub fn repeats_in_process(&self) -> bool {
        self.argv.iter().any(|a| a.contains("{repeat}"))
    }

    /// Runs one workload; returns its wall seconds. A program that takes
    /// `{repeat}` repeats it in one process; any other runs as `repeat`
    /// whole processes back to back, their seconds summed (see
    /// [`calibrate`]: each of them lasts at least [`MIN_PROCESS_SECONDS`]).
    pub fn run(&self, w: &Workload) -> Result<f64> {
        if w.repeat <= 1 || self.repeats_in_process() {
            return self.run_process(w);
        }
        (0..w.repeat).map(|_| self.run_process(w)).sum()
    }

    /// Runs one workload as one whole process; returns its wall seconds.
    /// The run must exit 0 and print the expected leaf count (Gigantua
    /// prints nothing and checks the count itself, given `{nodes}`).
    fn run_process(&self, w: &Workload) -> Result<f64> {
        let mut cmd = self.command(w);
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let start = Instant::now();
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.argv[0]))?;
        let seconds = start.elapsed().as_secs_f64();
        let stdout = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            return Err(format!(
                "{} on {} failed ({}): {}",
                self.name,
                w.id,
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        let printed_count = stdout.contains(&w.nodes.to_string());
        let checks_itself = self.argv.iter().any(|a| a.contains("{nodes}"));
        if !printed_count && !checks_itself {
            return Err(format!(
                "{} on {}: a wrong leaf count: expected {}, its output ends '{}'",
                self.name,
                w.id,
                w.nodes,
                stdout.trim().lines().last().unwrap_or("")
            ));
        }
        Ok(seconds)
    }

    /// The command line of one workload, as the record states it.
    pub fn command_line(&self, w: &Workload) -> String {
        let cmd = self.command(w);
        let mut parts = vec![cmd.get_program().to_string_lossy().into_owned()];
        parts.extend(cmd.get_args().map(|a| {
            let a = a.to_string_lossy();
            if a.contains(' ') {
                format!("'{a}'")
            } else {
                a.into_owned()
            }
        }));
        parts.join(" ")
    }
}

/// One timed task: a position at a depth, repeated `repeat` times: in one
/// process by the programs that take `{repeat}` (the lab's harness), as
/// that many whole processes back to back by the others.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Workload {
    /// `<position>-<bulk|full>-d<depth>[x<repeat>]`.
    pub id: String,
    pub position: String,
    pub fen: String,
    /// `"bulk"` or `"full"`.
    pub kind: String,
    pub depth: u32,
    pub repeat: u32,
    /// Leaves of one repetition.
    pub nodes: u64,
}

impl Workload {
    /// A fixed-depth workload of a standard position, as hashed and
    /// threaded perft is timed (at the depths people compare it at, not
    /// calibrated); `kind` names it (`"bulk"`, `"hash"`, ...).
    pub fn standard(name: &str, kind: &str, depth: u32) -> Result<Workload> {
        let positions = crate::util::standard_positions()?;
        let (_, fen, counts) = positions
            .iter()
            .find(|(n, _, _)| *n == name)
            .ok_or_else(|| format!("no standard position '{name}'"))?;
        let nodes = *counts
            .get(depth as usize - 1)
            .ok_or_else(|| format!("{name}: no reference count at depth {depth}"))?;
        Ok(Workload {
            id: format!("{name}-{kind}-d{depth}"),
            position: name.to_string(),
            fen: fen.clone(),
            kind: kind.to_string(),
            depth,
            repeat: 1,
            nodes,
        })
    }
}

/// The timings of one comparison: every round of every contender.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Timings {
    pub rounds: usize,
    pub min_seconds: f64,
    /// How the order of contenders changed between rounds.
    pub order: String,
    pub workloads: Vec<Workload>,
    /// workload id -> contender -> wall seconds per round.
    pub seconds: BTreeMap<String, BTreeMap<String, Vec<f64>>>,
    /// Runs that failed (a wrong leaf count, an error exit): that
    /// contender is left out of that workload from then on, its rounds
    /// there dropped, and the pages say so.
    #[serde(default)]
    pub failures: Vec<Failure>,
}

/// A run that did not give the expected result.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Failure {
    pub workload: String,
    pub contender: String,
    /// The round it failed in (from 1).
    pub round: usize,
    pub error: String,
}

/// A ratio summarised: every round, its median and interval, and the two
/// flags the pages show.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Ratio {
    pub rounds: Vec<f64>,
    pub interval: Interval,
    /// The interval holds 1.0: rendered as a tie.
    pub tie: bool,
    /// Two clusters of rounds (see [`stats::is_bimodal`]): every round is
    /// shown beside it.
    pub bimodal: bool,
}

impl Ratio {
    pub fn of(rounds: Vec<f64>) -> Ratio {
        let interval = Interval::of(&rounds);
        Ratio {
            tie: interval.is_tie(),
            bimodal: stats::is_bimodal(&rounds),
            rounds,
            interval,
        }
    }
}

impl Timings {
    /// How many times faster `a` is than `b` on one workload, round by
    /// round (b's seconds over a's in the same round).
    pub fn ratio(&self, workload: &str, a: &str, b: &str) -> Option<Ratio> {
        let w = self.seconds.get(workload)?;
        let (ta, tb) = (w.get(a)?, w.get(b)?);
        Some(Ratio::of(ta.iter().zip(tb).map(|(x, y)| y / x).collect()))
    }

    /// The same over every workload of `kind` at once: the geometric mean of
    /// the workloads' ratios, round by round, over the workloads where both
    /// have every round (see [`Timings::missing`] for the others).
    pub fn geomean_ratio(&self, kind: &str, a: &str, b: &str) -> Option<Ratio> {
        let per_workload: Vec<Vec<f64>> = self
            .workloads
            .iter()
            .filter(|w| w.kind == kind)
            .filter_map(|w| self.ratio(&w.id, a, b).map(|r| r.rounds))
            .filter(|r| r.len() == self.rounds)
            .collect();
        if per_workload.is_empty() {
            return None;
        }
        let rounds = (0..self.rounds)
            .map(|r| stats::geomean(per_workload.iter().map(|v| v[r])))
            .collect::<Option<Vec<f64>>>()?;
        Some(Ratio::of(rounds))
    }

    /// The positions of `kind` on which `contender` has no timings (it
    /// failed there).
    pub fn missing(&self, kind: &str, contender: &str) -> Vec<&str> {
        self.workloads
            .iter()
            .filter(|w| w.kind == kind)
            .filter(|w| {
                self.seconds
                    .get(&w.id)
                    .is_none_or(|m| !m.contains_key(contender))
            })
            .map(|w| w.position.as_str())
            .collect()
    }

    /// The geometric mean, over the workloads of `kind`, of `contender`'s
    /// median seconds: the figure that ranks contenders timed on the same
    /// workloads. None where it has no timing on one of them.
    pub fn geomean_median_seconds(&self, kind: &str, contender: &str) -> Option<f64> {
        let medians: Option<Vec<f64>> = self
            .workloads
            .iter()
            .filter(|w| w.kind == kind)
            .map(|w| {
                let rounds = self.seconds.get(&w.id)?.get(contender)?;
                (!rounds.is_empty()).then(|| stats::median(rounds))
            })
            .collect();
        stats::geomean(medians?)
    }

    /// Million leaves per second at the median seconds of a contender.
    pub fn mnps(&self, workload: &Workload, contender: &str) -> Option<f64> {
        let s = stats::median(self.seconds.get(&workload.id)?.get(contender)?);
        Some(workload.nodes as f64 * workload.repeat as f64 / s / 1e6)
    }
}

/// workload id -> contender -> the exact command line of that run, as a
/// record states it.
pub fn command_lines(
    contenders: &[Contender],
    workloads: &[Workload],
) -> BTreeMap<String, BTreeMap<String, String>> {
    workloads
        .iter()
        .map(|w| {
            (
                w.id.clone(),
                contenders
                    .iter()
                    .map(|c| (c.name.clone(), c.command_line(w)))
                    .collect(),
            )
        })
        .collect()
}

/// A position to calibrate: its name, FEN and reference leaf counts
/// (index = depth - 1).
pub struct Position<'a> {
    pub name: &'a str,
    pub fen: &'a str,
    pub counts: &'a [u64],
}

fn progress(text: &str) {
    eprintln!("[measure] {text}");
}

/// How the contenders of a comparison can lengthen a run by repeating a
/// shallower depth (see [`calibrate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repeat {
    /// Every contender repeats in one process (the lab's harness): any
    /// depth may be repeated.
    InProcess,
    /// Some contender can only be run again as a whole process: a depth
    /// is repeated only where one process of it lasts at least
    /// [`MIN_PROCESS_SECONDS`].
    WholeProcesses,
}

/// Picks the depth (and repeat count) of each position so that `fastest`
/// runs at least [`MIN_SECONDS`]: the shallowest depth that does, unless
/// the next depth would run more than twice the minimum, in which case
/// the shallower depth is repeated (as far as `repeat` allows).
pub fn calibrate(
    fastest: &Contender,
    positions: &[Position],
    kind: &str,
    start_depth: impl Fn(&str) -> u32,
    repeat: Repeat,
) -> Result<Vec<Workload>> {
    calibrate_to(MIN_SECONDS, fastest, positions, kind, start_depth, repeat)
}

/// [`calibrate`] to another minimum: the atlas's in-generator view, 33
/// techniques by 12 workloads by 3 rounds, takes 19-23 minutes at the
/// protocol's half second and must leave room in a 40-minute run.
pub fn calibrate_to(
    min_seconds: f64,
    fastest: &Contender,
    positions: &[Position],
    kind: &str,
    start_depth: impl Fn(&str) -> u32,
    repeat: Repeat,
) -> Result<Vec<Workload>> {
    let mut out = Vec::new();
    for p in positions {
        let mut depth = start_depth(p.name);
        loop {
            let nodes = *p
                .counts
                .get(depth as usize - 1)
                .ok_or_else(|| format!("{}: no reference count at depth {depth}", p.name))?;
            let w = workload(p, kind, depth, 1, nodes);
            let t = fastest.run(&w)?;
            let next = p.counts.get(depth as usize).copied();
            if t >= min_seconds {
                out.push(w);
                break;
            }
            let next_seconds = next.map(|n| t * n as f64 / nodes as f64);
            let can_repeat = match repeat {
                Repeat::InProcess => true,
                Repeat::WholeProcesses => t >= MIN_PROCESS_SECONDS,
            };
            if can_repeat && next_seconds.is_none_or(|s| s > 2.0 * min_seconds) {
                // 20 % headroom: a run a little faster than the calibration
                // must still last the minimum.
                let repeat = ((1.2 * min_seconds / t).ceil() as u32).max(1);
                out.push(workload(p, kind, depth, repeat, nodes));
                break;
            }
            if next.is_none() {
                return Err(format!(
                    "{}: no depth with reference counts runs {min_seconds} s",
                    p.name
                ));
            }
            depth += 1;
        }
        let w = out.last().expect("pushed");
        progress(&format!(
            "{} {kind}: depth {} x{} ({} leaves each)",
            p.name, w.depth, w.repeat, w.nodes
        ));
    }
    Ok(out)
}

fn workload(p: &Position, kind: &str, depth: u32, repeat: u32, nodes: u64) -> Workload {
    let id = if repeat > 1 {
        format!("{}-{kind}-d{depth}x{repeat}", p.name)
    } else {
        format!("{}-{kind}-d{depth}", p.name)
    };
    Workload {
        id,
        position: p.name.to_string(),
        fen: p.fen.to_string(),
        kind: kind.to_string(),
        depth,
        repeat,
        nodes,
    }
}

/// Runs `rounds` paired rounds: in round r the contenders start at index
/// r (mod their number) and go round, each running every workload once.
/// A round whose shortest run falls under [`MIN_SECONDS`] is noted on
/// stderr (the record keeps it: the page shows every round).
pub fn paired_rounds(
    contenders: &[Contender],
    workloads: &[Workload],
    rounds: usize,
) -> Result<Timings> {
    paired_rounds_to(MIN_SECONDS, contenders, workloads, rounds)
}

/// [`paired_rounds`] of workloads calibrated to another minimum
/// ([`calibrate_to`]): the record states it.
pub fn paired_rounds_to(
    min_seconds: f64,
    contenders: &[Contender],
    workloads: &[Workload],
    rounds: usize,
) -> Result<Timings> {
    let mut seconds: BTreeMap<String, BTreeMap<String, Vec<f64>>> = BTreeMap::new();
    let mut failures: Vec<Failure> = Vec::new();
    let n = contenders.len();
    for r in 0..rounds {
        for w in workloads {
            for k in 0..n {
                let c = &contenders[(r + k) % n];
                if failures
                    .iter()
                    .any(|f| f.workload == w.id && f.contender == c.name)
                {
                    continue;
                }
                match c.run(w) {
                    Ok(t) => {
                        if t < min_seconds {
                            progress(&format!(
                                "note: {} on {} took {t:.3} s, under {min_seconds} s",
                                c.name, w.id
                            ));
                        }
                        seconds
                            .entry(w.id.clone())
                            .or_default()
                            .entry(c.name.clone())
                            .or_default()
                            .push(t);
                    }
                    Err(error) => {
                        progress(&format!(
                            "{error}\n  {} is left out of {} from now on",
                            c.name, w.id
                        ));
                        if let Some(m) = seconds.get_mut(&w.id) {
                            m.remove(&c.name);
                        }
                        failures.push(Failure {
                            workload: w.id.clone(),
                            contender: c.name.clone(),
                            round: r + 1,
                            error,
                        });
                    }
                }
            }
        }
        progress(&format!("round {}/{rounds} done", r + 1));
    }
    Ok(Timings {
        rounds,
        min_seconds,
        order: "rotating: round r starts with contender r mod n; every workload in a round before the next round".into(),
        workloads: workloads.to_vec(),
        seconds,
        failures,
    })
}

#[cfg(test)]
mod tests;
