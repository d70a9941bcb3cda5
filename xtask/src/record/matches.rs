//! Match and SPRT records (`reports/data/match-*.json`): the header of one
//! match (engines, options, time control, openings, adjudication, hosts)
//! beside its games log, and the statistics the pages render from them.
//!
//! `tools/match.py` writes the header before the first game and appends a
//! host segment when a match is resumed on another host; the records of
//! the matches played before it did are backfilled (`"backfilled": true`,
//! with a `"source"` for every fact and `null` where a fact is lost).
//!
//! The figures are not stored: [`load`] reads each record's games log and
//! computes them with the formulas of `tools/sprt.py` (pentanomial Elo and
//! its 95 % margin, the GSPRT's log-likelihood ratio), so they agree with
//! what the runner printed. Two log formats are read:
//!
//! * `pairs` (`tools/match.py --state`): one JSON line per pair of games
//!   (`pair`, `opening`, `games` with `a_white`, `result`, `termination`;
//!   `events`; `finished`; since the headers, `segment` and `nps`).
//! * `text` (the first runner, 2026-11-22): one line per game,
//!   `game N/M: WHITE - BLACK RESULT (OPENING, TERMINATION) ...`. Its
//!   figures are per game (trinomial), as that runner printed them.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::util::Result;

/// The header format this code reads.
pub const FORMAT_VERSION: u32 = 1;

/// What a match was for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A fixed number of games.
    Match,
    /// A GSPRT that stops when it decides (`tools/sprt-vs.sh`).
    Sprt,
    /// One point of a parameter sweep (`tools/sweep-margins.sh`).
    Sweep,
}

/// How the games log is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// `tools/match.py --state`: a JSON line per pair of games.
    #[default]
    Pairs,
    /// The first runner's text log: a line per game.
    Text,
}

/// One match's header record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    pub format_version: u32,
    /// What the pages call the match: the file name without `match-` and
    /// `.json` (set by [`load`]).
    #[serde(default)]
    pub name: String,
    pub kind: Kind,
    /// A short description (for an SPRT, the change it decides).
    #[serde(default)]
    pub title: Option<String>,
    /// The games log, relative to the repository root.
    pub games_log: String,
    #[serde(default)]
    pub log_format: LogFormat,
    #[serde(default)]
    pub pgn: Option<String>,
    pub engines: Engines,
    /// `BASE+INC` in seconds, as given to the runner.
    #[serde(default)]
    pub time_control: Option<String>,
    #[serde(default)]
    pub openings: Option<Openings>,
    /// `--games`: the most games the run would play.
    #[serde(default)]
    pub games_planned: Option<u32>,
    /// Games played at once.
    #[serde(default)]
    pub concurrency: Option<u32>,
    /// `null`: not known.
    #[serde(default)]
    pub adjudication: Option<Adjudication>,
    #[serde(default)]
    pub sprt: Option<SprtBounds>,
    /// When the first run started (UTC, ISO 8601), where recorded.
    #[serde(default)]
    pub started_utc: Option<String>,
    /// The day the match began (`YYYY-MM-DD`), for records without times.
    #[serde(default)]
    pub date: Option<String>,
    /// Which pairs were played on which host.
    #[serde(default)]
    pub segments: Vec<Segment>,
    /// Written after the fact from logs, commits and prose.
    #[serde(default)]
    pub backfilled: bool,
    /// Where the backfilled facts come from.
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub notes: Option<String>,
    /// What was done with the change an SPRT decided (kept, reverted, ...).
    #[serde(default)]
    pub outcome: Option<String>,
    /// A run stopped and not counted (kept for its evidence).
    #[serde(default)]
    pub discarded: bool,
    /// The record's file name (set by [`load`]).
    #[serde(skip)]
    pub file: String,
    /// The figures computed from the games log (set by [`load`]).
    #[serde(skip)]
    pub results: Results,
}

/// The two engines: A is the one measured (its wins are the record's wins).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Engines {
    pub a: Engine,
    pub b: Engine,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Engine {
    /// The name in the PGN and the summary.
    pub label: String,
    /// The binary, relative to the repository root where it lies inside it.
    #[serde(default)]
    pub path: Option<String>,
    /// `uci` or `xboard`.
    #[serde(default)]
    pub protocol: Option<String>,
    /// The engine's own name (`id name`).
    #[serde(default)]
    pub id_name: Option<String>,
    /// The commit a Quince build was built from.
    #[serde(default)]
    pub commit: Option<String>,
    /// SHA-256 of the binary.
    #[serde(default)]
    pub sha256: Option<String>,
    /// Every option the runner set.
    #[serde(default)]
    pub options: BTreeMap<String, serde_json::Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Openings {
    /// The FEN file; `null`: the runner's built-in lines.
    #[serde(default)]
    pub file: Option<String>,
    #[serde(default)]
    pub sha256: Option<String>,
    /// How many openings the file (or book) holds.
    #[serde(default)]
    pub count: Option<u32>,
    /// How pairs pick their opening.
    #[serde(default)]
    pub order: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Adjudication {
    pub enabled: bool,
    #[serde(default)]
    pub resign_cp: Option<i32>,
    #[serde(default)]
    pub resign_plies: Option<u32>,
    #[serde(default)]
    pub draw_cp: Option<i32>,
    #[serde(default)]
    pub draw_plies: Option<u32>,
    #[serde(default)]
    pub draw_from_ply: Option<u32>,
}

/// A GSPRT's hypotheses and error rates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SprtBounds {
    pub elo0: f64,
    pub elo1: f64,
    #[serde(default = "five_percent")]
    pub alpha: f64,
    #[serde(default = "five_percent")]
    pub beta: f64,
}

fn five_percent() -> f64 {
    0.05
}

impl SprtBounds {
    /// (lower, upper) LLR bounds: below lower H0 is accepted, above upper H1.
    pub fn llr_bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }
}

/// Pairs played on one host.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Segment {
    /// `null`: not recorded.
    #[serde(default)]
    pub host: Option<Host>,
    /// Inclusive ranges of pair indices; `null`: the pairs that name this
    /// segment, or else every pair no other segment claims.
    #[serde(default)]
    pub pairs: Option<Vec<[u32; 2]>>,
    #[serde(default)]
    pub started_utc: Option<String>,
    #[serde(default)]
    pub finished_utc: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
}

/// The machine, as `/proc/cpuinfo` names it (the fields of the lab's
/// records).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Host {
    #[serde(default)]
    pub cpu_vendor: Option<String>,
    #[serde(default)]
    pub cpu_family: Option<u32>,
    #[serde(default)]
    pub cpu_model: Option<u32>,
    #[serde(default)]
    pub cpu_stepping: Option<u32>,
    #[serde(default)]
    pub cpu_model_name: Option<String>,
    /// Where a source names the microarchitecture but not the model.
    #[serde(default)]
    pub microarchitecture: Option<String>,
    #[serde(default)]
    pub logical_cores: Option<u32>,
}

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

    fn add(&mut self, other: &Tally) {
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

/// An Elo difference with its 95 % margin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Elo {
    pub estimate: f64,
    pub margin: f64,
    /// The interval reached a score of 0 or 1 (its end is unbounded).
    pub unbounded: bool,
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
        let (llr, verdict) = match sprt {
            Some(s) => {
                let llr = if per_game {
                    sprt_llr_trinomial(tally.wdl, s.elo0, s.elo1)
                } else {
                    sprt_llr(tally.ptnml, s.elo0, s.elo1)
                };
                let (lower, upper) = s.llr_bounds();
                let verdict = if llr >= upper {
                    Verdict::H1
                } else if llr <= lower {
                    Verdict::H0
                } else {
                    Verdict::Open
                };
                (Some(llr), Some(verdict))
            }
            None => (None, None),
        };
        Stats {
            tally,
            score,
            elo,
            elo_trinomial,
            per_game,
            llr,
            verdict,
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

impl MatchRecord {
    /// The figures per host: segments on equal hosts together, in order of
    /// first appearance; segments without games left out.
    pub fn by_host(&self) -> Vec<(Option<Host>, Stats)> {
        let mut groups: Vec<(Option<Host>, Tally)> = Vec::new();
        for s in &self.results.segments {
            if s.stats.tally.games() == 0 {
                continue;
            }
            match groups.iter_mut().find(|(h, _)| *h == s.host) {
                Some((_, t)) => t.add(&s.stats.tally),
                None => groups.push((s.host.clone(), s.stats.tally.clone())),
            }
        }
        let per_game = self.log_format == LogFormat::Text;
        groups
            .into_iter()
            .map(|(h, t)| (h, Stats::from_tally(t, per_game, self.sprt.as_ref())))
            .collect()
    }

    /// When the match began, for ordering: the recorded start, else the
    /// first logged pair, else the day.
    pub fn sort_key(&self) -> String {
        self.started_utc
            .clone()
            .or_else(|| self.results.overall.tally.first_finished.map(iso_utc))
            .or_else(|| self.date.clone())
            .unwrap_or_default()
    }

    /// The day the match began (`YYYY-MM-DD`), where known.
    pub fn day(&self) -> Option<String> {
        let key = self.sort_key();
        (key.len() >= 10).then(|| key[..10].to_string())
    }
}

// ---------------------------------------------------------------------------
// Statistics: the formulas of tools/sprt.py.

/// The score a logistic Elo difference predicts.
pub fn expected_score(elo_diff: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo_diff / 400.0))
}

const SCORE_CLAMP: f64 = 1e-6;

/// The logistic Elo difference of a score in (0, 1).
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(SCORE_CLAMP, 1.0 - SCORE_CLAMP);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Mean, variance and count of a distribution given as counts over values.
fn moments(counts: &[u32], values: &[f64]) -> (f64, f64, u32) {
    let n: u32 = counts.iter().sum();
    if n == 0 {
        return (0.0, 0.0, 0);
    }
    let nf = n as f64;
    let mean = counts
        .iter()
        .zip(values)
        .map(|(&c, x)| c as f64 * x)
        .sum::<f64>()
        / nf;
    let var = counts
        .iter()
        .zip(values)
        .map(|(&c, x)| c as f64 * (x - mean).powi(2))
        .sum::<f64>()
        / nf;
    (mean, var, n)
}

const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

fn pentanomial_moments(ptnml: [u32; 5]) -> (f64, f64, u32) {
    moments(&ptnml, &PAIR_SCORES)
}

fn trinomial_moments(wdl: [u32; 3]) -> (f64, f64, u32) {
    moments(&[wdl[2], wdl[1], wdl[0]], &[0.0, 0.5, 1.0])
}

fn elo_interval((mean, var, n): (f64, f64, u32)) -> Option<Elo> {
    if n == 0 {
        return None;
    }
    let sigma = (var / n as f64).sqrt();
    let (low, high) = (mean - 1.96 * sigma, mean + 1.96 * sigma);
    Some(Elo {
        estimate: elo(mean),
        margin: (elo(high) - elo(low)) / 2.0,
        unbounded: low <= SCORE_CLAMP || high >= 1.0 - SCORE_CLAMP,
    })
}

/// Elo and its 95 % margin from a pentanomial count (`None` without pairs).
pub fn elo_estimate(ptnml: [u32; 5]) -> Option<Elo> {
    elo_interval(pentanomial_moments(ptnml))
}

/// Elo and its 95 % margin from W/D/L (`None` without games).
pub fn elo_estimate_trinomial(wdl: [u32; 3]) -> Option<Elo> {
    elo_interval(trinomial_moments(wdl))
}

fn llr((mean, var, n): (f64, f64, u32), elo0: f64, elo1: f64) -> f64 {
    if n == 0 || var <= 0.0 {
        return 0.0;
    }
    let (s0, s1) = (expected_score(elo0), expected_score(elo1));
    n as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// The GSPRT's log-likelihood ratio of H1 (elo1) against H0 (elo0).
pub fn sprt_llr(ptnml: [u32; 5], elo0: f64, elo1: f64) -> f64 {
    llr(pentanomial_moments(ptnml), elo0, elo1)
}

/// The same test from single games.
pub fn sprt_llr_trinomial(wdl: [u32; 3], elo0: f64, elo1: f64) -> f64 {
    llr(trinomial_moments(wdl), elo0, elo1)
}

// ---------------------------------------------------------------------------
// Reading the records and their logs.

/// Every match record under `dir` (`match-*.json`), each with the figures
/// of its games log, ordered by file name.
pub fn load(dir: &Path) -> Result<Vec<MatchRecord>> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", dir.display())),
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("match-") && n.ends_with(".json"))
        })
        .collect();
    paths.sort();
    paths.iter().map(|p| load_one(p)).collect()
}

/// One record and its log.
pub fn load_one(path: &Path) -> Result<MatchRecord> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut record: MatchRecord =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if record.format_version > FORMAT_VERSION {
        return Err(format!(
            "{}: format_version {} is newer than this reader ({FORMAT_VERSION})",
            path.display(),
            record.format_version
        ));
    }
    let file = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_string();
    record.name = file
        .trim_start_matches("match-")
        .trim_end_matches(".json")
        .to_string();
    record.file = file;
    let log_path = find_log(path, &record.games_log)?;
    let log = fs::read_to_string(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    let pairs = match record.log_format {
        LogFormat::Pairs => parse_pairs(&log),
        LogFormat::Text => parse_text(&log, &record.engines.a),
    }
    .map_err(|e| format!("{}: {e}", log_path.display()))?;
    record.results = results(&record, &pairs);
    Ok(record)
}

/// The games log named `relative` (to the repository root): looked up
/// from each directory above the record.
fn find_log(record: &Path, relative: &str) -> Result<PathBuf> {
    let rel = Path::new(relative);
    if rel.is_absolute() {
        return Ok(rel.to_path_buf());
    }
    record
        .ancestors()
        .skip(1)
        .map(|dir| dir.join(rel))
        .find(|p| p.is_file())
        .ok_or_else(|| format!("{}: games log {relative} not found", record.display()))
}

/// One pair of games as the log has it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pair {
    pub index: u32,
    pub opening: Option<u32>,
    pub tally: Tally,
    /// The header segment this pair names (logs since the headers).
    pub segment: Option<usize>,
}

#[derive(Deserialize)]
struct PairLine {
    pair: u32,
    #[serde(default)]
    opening: Option<String>,
    games: Vec<GameLine>,
    #[serde(default)]
    events: BTreeMap<String, BTreeMap<String, u32>>,
    #[serde(default)]
    finished: Option<f64>,
    #[serde(default)]
    segment: Option<usize>,
    #[serde(default)]
    nps: BTreeMap<String, f64>,
}

#[derive(Deserialize)]
struct GameLine {
    a_white: bool,
    result: String,
    termination: String,
}

/// A's points for a result from White's view.
fn a_points(result: &str, a_white: bool) -> Result<f64> {
    let white = match result {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        other => return Err(format!("unknown result {other:?}")),
    };
    Ok(if a_white { white } else { 1.0 - white })
}

/// The opening number at the end of a label such as `openings.epd:17`.
fn opening_number(label: &str) -> Option<u32> {
    label.rsplit_once(':').and_then(|(_, n)| n.parse().ok())
}

fn role_index(role: &str) -> Option<usize> {
    match role {
        "A" => Some(0),
        "B" => Some(1),
        _ => None,
    }
}

/// Adds one game (A's points) to a tally.
fn add_game(t: &mut Tally, points: f64, termination: &str) {
    let slot = if points == 1.0 {
        0
    } else if points == 0.5 {
        1
    } else {
        2
    };
    t.wdl[slot] += 1;
    *t.terminations.entry(termination.to_string()).or_default() += 1;
}

/// The pairs of a `tools/match.py` state file.
pub fn parse_pairs(log: &str) -> Result<Vec<Pair>> {
    let mut pairs = Vec::new();
    for (number, line) in log.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let p: PairLine =
            serde_json::from_str(line).map_err(|e| format!("line {}: {e}", number + 1))?;
        let mut t = Tally::default();
        let mut points = 0.0;
        for g in &p.games {
            let a =
                a_points(&g.result, g.a_white).map_err(|e| format!("line {}: {e}", number + 1))?;
            points += a;
            add_game(&mut t, a, &g.termination);
        }
        if p.games.len() == 2 {
            t.ptnml[(points * 2.0).round() as usize] += 1;
        }
        for (event, roles) in &p.events {
            for (role, &n) in roles {
                let Some(i) = role_index(role) else { continue };
                match event.as_str() {
                    "time_losses" => t.time_losses[i] += n,
                    "illegal" => t.illegal_moves[i] += n,
                    "crashes" => t.crashes[i] += n,
                    "hangs" => t.hangs[i] += n,
                    _ => {}
                }
            }
        }
        for (role, &v) in &p.nps {
            if let Some(i) = role_index(role) {
                t.nps_sum[i] += v;
                t.nps_n[i] += 1;
            }
        }
        t.first_finished = p.finished;
        t.last_finished = p.finished;
        let opening = p.opening.as_deref().and_then(opening_number);
        t.openings = opening.map(|n| (n, n));
        t.pair_indices = vec![p.pair];
        pairs.push(Pair {
            index: p.pair,
            opening,
            tally: t,
            segment: p.segment,
        });
    }
    Ok(pairs)
}

/// One game line of the first runner's log.
struct TextGame {
    number: u32,
    white: String,
    black: String,
    result: String,
    termination: String,
}

fn parse_text_game(line: &str) -> Option<TextGame> {
    let rest = line.strip_prefix("game")?.trim_start();
    let (numbers, rest) = rest.split_once(": ")?;
    let number = numbers.split('/').next()?.trim().parse().ok()?;
    let (at, result) = ["1-0", "0-1", "1/2-1/2"]
        .iter()
        .filter_map(|r| rest.find(&format!(" {r} (")).map(|i| (i, *r)))
        .min()?;
    let (white, black) = rest[..at].split_once(" - ")?;
    let after = &rest[at + result.len() + 3..];
    let inside = &after[..after.find(')')?];
    let (_opening, termination) = inside.rsplit_once(", ")?;
    Some(TextGame {
        number,
        white: white.to_string(),
        black: black.to_string(),
        result: result.to_string(),
        termination: termination.to_string(),
    })
}

/// The games of the first runner's text log, as pairs (games 2k-1 and 2k
/// share an opening with colours swapped). Engine A is the one whose name
/// is `a`'s label or `id name`.
pub fn parse_text(log: &str, a: &Engine) -> Result<Vec<Pair>> {
    let is_a = |name: &str| name == a.label || a.id_name.as_deref() == Some(name);
    let mut pairs: Vec<Pair> = Vec::new();
    for (number, line) in log.lines().enumerate() {
        if !line.starts_with("game ") {
            continue;
        }
        let g =
            parse_text_game(line).ok_or_else(|| format!("line {}: not a game line", number + 1))?;
        let a_white = if is_a(&g.white) {
            true
        } else if is_a(&g.black) {
            false
        } else {
            return Err(format!(
                "line {}: neither {:?} nor {:?} is engine A ({:?})",
                number + 1,
                g.white,
                g.black,
                a.label
            ));
        };
        let points = a_points(&g.result, a_white)?;
        let index = (g.number - 1) / 2;
        if pairs.last().is_none_or(|p| p.index != index) {
            pairs.push(Pair {
                index,
                tally: Tally {
                    pair_indices: vec![index],
                    ..Tally::default()
                },
                ..Pair::default()
            });
        }
        let pair = pairs.last_mut().expect("pushed above");
        let t = &mut pair.tally;
        add_game(t, points, &g.termination);
        if g.termination.starts_with("time forfeit") && points == 0.0 {
            t.time_losses[0] += 1;
        } else if g.termination.starts_with("time forfeit") {
            t.time_losses[1] += 1;
        }
        if g.termination == "illegal move" {
            t.illegal_moves[if points == 0.0 { 0 } else { 1 }] += 1;
        }
    }
    // Pentanomial counts only for whole pairs.
    for p in &mut pairs {
        if p.tally.games() == 2 {
            let points = p.tally.wdl[0] as f64 + p.tally.wdl[1] as f64 / 2.0;
            p.tally.ptnml[(points * 2.0).round() as usize] += 1;
        }
    }
    Ok(pairs)
}

/// Which segment a pair belongs to: the one it names, else the one whose
/// ranges hold it, else the one without ranges; `segments.len()` for none.
pub fn segment_of(segments: &[Segment], pair: &Pair) -> usize {
    if let Some(k) = pair.segment.filter(|&k| k < segments.len()) {
        return k;
    }
    if let Some(k) = segments.iter().position(|s| {
        s.pairs
            .as_ref()
            .is_some_and(|r| r.iter().any(|[lo, hi]| (*lo..=*hi).contains(&pair.index)))
    }) {
        return k;
    }
    segments
        .iter()
        .position(|s| s.pairs.is_none())
        .unwrap_or(segments.len())
}

fn results(record: &MatchRecord, pairs: &[Pair]) -> Results {
    let per_game = record.log_format == LogFormat::Text;
    let sprt = record.sprt.as_ref();
    let n = record.segments.len();
    let mut tallies = vec![Tally::default(); n + 1];
    let mut overall = Tally::default();
    for p in pairs {
        tallies[segment_of(&record.segments, p)].add(&p.tally);
        overall.add(&p.tally);
    }
    let mut segments: Vec<SegmentResult> = record
        .segments
        .iter()
        .zip(&tallies)
        .map(|(s, t)| SegmentResult {
            host: s.host.clone(),
            source: s.source.clone(),
            stats: Stats::from_tally(t.clone(), per_game, sprt),
        })
        .collect();
    if tallies[n].games() > 0 {
        segments.push(SegmentResult {
            host: None,
            source: None,
            stats: Stats::from_tally(tallies[n].clone(), per_game, sprt),
        });
    }
    Results {
        overall: Stats::from_tally(overall, per_game, sprt),
        segments,
    }
}

/// Inclusive ranges of sorted indices: `[0, 1, 2, 5]` gives `[[0, 2], [5, 5]]`.
pub fn ranges(indices: &[u32]) -> Vec<[u32; 2]> {
    let mut out: Vec<[u32; 2]> = Vec::new();
    for &i in indices {
        match out.last_mut() {
            Some(r) if i == r[1] + 1 => r[1] = i,
            Some(r) if i == r[1] => {}
            _ => out.push([i, i]),
        }
    }
    out
}

/// Unix seconds as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn iso_utc(unix: f64) -> String {
    let secs = unix.floor() as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn statistics_agree_with_sprt_py() {
        // sprt.py's self-test.
        assert!(elo_estimate([5, 10, 20, 10, 5]).unwrap().estimate.abs() < 1e-9);
        assert!(elo_estimate([1, 5, 20, 10, 4]).unwrap().estimate > 0.0);
        assert!(sprt_llr([1, 5, 20, 10, 4], 0.0, 10.0) > 0.0);
        assert!(sprt_llr([4, 10, 20, 5, 1], 0.0, 10.0) < 0.0);
        assert_eq!(sprt_llr([0, 0, 30, 0, 0], 0.0, 5.0), 0.0);
        let b = SprtBounds {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lower, upper) = b.llr_bounds();
        assert!(close(lower, -2.944, 5e-4) && close(upper, 2.944, 5e-4));
        assert_eq!(
            elo_estimate_trinomial([50, 20, 30])
                .unwrap()
                .estimate
                .round(),
            70.0
        );
        // Figures the runner printed: v4 against Stockfish (200 games) and
        // the v3 SPRT (416 games, LLR 3.03).
        let v4 = elo_estimate([12, 16, 33, 27, 12]).unwrap();
        assert!(
            close(v4.estimate, 19.1, 0.05) && close(v4.margin, 40.3, 0.05),
            "{v4:?}"
        );
        let v3 = elo_estimate([12, 33, 72, 53, 38]).unwrap();
        assert!(
            close(v3.estimate, 60.7, 0.05) && close(v3.margin, 27.3, 0.05),
            "{v3:?}"
        );
        assert!(close(
            sprt_llr([12, 33, 72, 53, 38], 0.0, 10.0),
            3.03,
            0.005
        ));
        // The first runner's Fairy-Max match: 99/0/1, +798 +- 897, whose
        // upper end is unbounded.
        let fm = elo_estimate_trinomial([99, 0, 1]).unwrap();
        assert!(
            close(fm.estimate, 798.0, 0.5) && close(fm.margin, 897.0, 1.0),
            "{fm:?}"
        );
        assert!(fm.unbounded && !v4.unbounded);
    }

    #[test]
    fn pairs_log_is_counted() {
        let log = r#"{"pair": 0, "opening": "openings.epd:1", "games": [{"a_white": true, "result": "1-0", "termination": "adjudication (resign)"}, {"a_white": false, "result": "1/2-1/2", "termination": "threefold_repetition"}], "events": {}, "finished": 1795638783.3}

{"pair": 1, "opening": "openings.epd:2", "games": [{"a_white": true, "result": "0-1", "termination": "time forfeit"}, {"a_white": false, "result": "0-1", "termination": "checkmate"}], "events": {"time_losses": {"A": 1}}, "finished": 1795638797.4, "segment": 1, "nps": {"A": 2000000, "B": 1000000}}
"#;
        let pairs = parse_pairs(log).unwrap();
        assert_eq!(pairs.len(), 2);
        assert_eq!(pairs[0].tally.wdl, [1, 1, 0]);
        assert_eq!(pairs[0].tally.ptnml, [0, 0, 0, 1, 0]);
        assert_eq!(pairs[1].tally.wdl, [1, 0, 1]);
        assert_eq!(pairs[1].tally.ptnml, [0, 0, 1, 0, 0]);
        assert_eq!(pairs[1].tally.time_losses, [1, 0]);
        assert_eq!(pairs[1].segment, Some(1));
        assert_eq!(pairs[1].opening, Some(2));
        assert_eq!(pairs[1].tally.nps_n, [1, 1]);
        assert!(parse_pairs("{\"pair\": 0}\n").is_err());
    }

    fn engine(label: &str) -> Engine {
        Engine {
            label: label.into(),
            path: None,
            protocol: None,
            id_name: None,
            commit: None,
            sha256: None,
            options: BTreeMap::new(),
        }
    }

    #[test]
    fn text_log_is_counted() {
        let log = "\
 20:01:56 up  4:04,  0 user,  load average: 4.11, 3.82, 3.19
game   1/20: Quince 0.1.0 - Stockfish 15.1 UCI_Elo 2000 1-0 (Italian, time forfeit)   Quince 0.1.0: +1 =0 -0
game   2/20: Stockfish 15.1 UCI_Elo 2000 - Quince 0.1.0 1/2-1/2 (Italian, threefold_repetition)   Quince 0.1.0: +1 =1 -0
game   3/20: Quince 0.1.0 - Stockfish 15.1 UCI_Elo 2000 0-1 (Queen's Gambit Declined, checkmate)   Quince 0.1.0: +1 =1 -1

Quince 0.1.0 vs Stockfish 15.1 UCI_Elo 2000, 3 games at 10+0.1
W/D/L: 1/1/1  score 50.0 %
";
        let pairs = parse_text(log, &engine("Quince 0.1.0")).unwrap();
        assert_eq!(pairs.len(), 2);
        assert_eq!(pairs[0].tally.wdl, [1, 1, 0]);
        assert_eq!(pairs[0].tally.ptnml, [0, 0, 0, 1, 0]);
        assert_eq!(pairs[0].tally.time_losses, [0, 1]);
        assert_eq!(pairs[1].tally.wdl, [0, 0, 1]);
        assert_eq!(
            pairs[1].tally.ptnml, [0; 5],
            "half a pair has no pentanomial count"
        );
        assert_eq!(pairs[1].tally.terminations["checkmate"], 1);
        assert!(parse_text(log, &engine("Quince 9")).is_err());
    }

    fn segment(pairs: Option<Vec<[u32; 2]>>, family: Option<u32>) -> Segment {
        Segment {
            host: family.map(|f| Host {
                cpu_vendor: Some("AuthenticAMD".into()),
                cpu_family: Some(f),
                cpu_model: None,
                cpu_stepping: None,
                cpu_model_name: None,
                microarchitecture: None,
                logical_cores: Some(2),
            }),
            pairs,
            started_utc: None,
            finished_utc: None,
            source: None,
        }
    }

    #[test]
    fn pairs_find_their_segment() {
        let segs = vec![
            segment(Some(vec![[0, 3], [7, 7]]), Some(26)),
            segment(None, Some(25)),
        ];
        let pair = |index, segment| Pair {
            index,
            segment,
            ..Pair::default()
        };
        assert_eq!(segment_of(&segs, &pair(2, None)), 0);
        assert_eq!(segment_of(&segs, &pair(7, None)), 0);
        assert_eq!(segment_of(&segs, &pair(5, None)), 1);
        assert_eq!(segment_of(&segs, &pair(2, Some(1))), 1);
        assert_eq!(segment_of(&segs, &pair(2, Some(9))), 0);
        assert_eq!(segment_of(&segs[..1], &pair(5, None)), 1);
        assert_eq!(segment_of(&[], &pair(5, None)), 0);
    }

    #[test]
    fn ranges_and_dates() {
        assert_eq!(ranges(&[0, 1, 2, 5, 6, 9]), vec![[0, 2], [5, 6], [9, 9]]);
        assert!(ranges(&[]).is_empty());
        assert_eq!(iso_utc(1795638783.3), "2026-11-25T20:33:03Z");
        assert_eq!(iso_utc(0.0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_utc(951_782_400.0), "2000-02-29T00:00:00Z");
    }

    fn write(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    fn game(a_white: bool, result: &str) -> String {
        format!(r#"{{"a_white": {a_white}, "result": "{result}", "termination": "checkmate"}}"#)
    }

    #[test]
    fn load_reads_records_and_logs_per_host() {
        let root = std::env::temp_dir().join(format!("xtask-matches-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let mut log = String::new();
        for i in 0..6 {
            let (g1, g2) = if i < 4 {
                (game(true, "1-0"), game(false, "1/2-1/2"))
            } else {
                (game(true, "0-1"), game(false, "1-0"))
            };
            log += &format!(
                "{{\"pair\": {i}, \"opening\": \"openings.epd:{}\", \"games\": [{g1}, {g2}], \"events\": {{}}, \"finished\": {}}}\n",
                i + 1,
                1795638783 + i * 60
            );
        }
        write(&root.join("reports/sprt/x-vs-y.jsonl"), &log);
        let record = r#"{
  "format_version": 1, "kind": "sprt", "games_log": "reports/sprt/x-vs-y.jsonl",
  "engines": {"a": {"label": "new x"}, "b": {"label": "base y"}},
  "time_control": "2+0.02",
  "sprt": {"elo0": 0, "elo1": 10},
  "segments": [
    {"host": {"cpu_vendor": "GenuineIntel", "cpu_family": 6, "cpu_model": 167}, "pairs": [[0, 3]]},
    {"host": {"cpu_vendor": "AuthenticAMD", "cpu_family": 25, "cpu_model": 17}, "pairs": [[4, 4]]}
  ],
  "an_unknown_field": [1, 2]
}"#;
        write(&root.join("reports/data/match-sprt-x-vs-y.json"), record);
        write(&root.join("reports/data/peers-other.json"), "{}");
        let records = load(&root.join("reports/data")).unwrap();
        let _ = fs::remove_dir_all(&root);
        assert_eq!(records.len(), 1);
        let r = &records[0];
        assert_eq!(r.name, "sprt-x-vs-y");
        assert_eq!(r.file, "match-sprt-x-vs-y.json");
        assert_eq!(r.results.overall.tally.wdl, [4, 4, 4]);
        assert_eq!(r.results.overall.tally.ptnml, [2, 0, 0, 4, 0]);
        assert_eq!(r.results.overall.tally.openings, Some((1, 6)));
        assert_eq!(r.results.overall.verdict, Some(Verdict::Open));
        // Pair 5 is claimed by no segment: a third, host not recorded.
        assert_eq!(r.results.segments.len(), 3);
        assert_eq!(r.results.segments[0].stats.tally.wdl, [4, 4, 0]);
        assert_eq!(r.results.segments[1].stats.tally.wdl, [0, 0, 2]);
        assert!(r.results.segments[2].host.is_none());
        let hosts = r.by_host();
        assert_eq!(hosts.len(), 3);
        assert_eq!(r.day().as_deref(), Some("2026-11-25"));
        assert!(r.sort_key().starts_with("2026-11-25T20:33"));
    }

    #[test]
    fn load_without_directory_is_empty_and_a_missing_log_is_an_error() {
        let root =
            std::env::temp_dir().join(format!("xtask-matches-missing-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        assert!(load(&root.join("reports/data")).unwrap().is_empty());
        write(
            &root.join("reports/data/match-x.json"),
            r#"{"format_version": 1, "kind": "match", "games_log": "reports/nope.jsonl",
               "engines": {"a": {"label": "a"}, "b": {"label": "b"}}}"#,
        );
        let err = load(&root.join("reports/data")).unwrap_err();
        let _ = fs::remove_dir_all(&root);
        assert!(err.contains("reports/nope.jsonl"), "{err}");
    }
}
