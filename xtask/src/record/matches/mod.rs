//! Match and SPRT records (`reports/data/match-*.json`): the header of one
//! match (engines, options, time control, openings, adjudication, hosts)
//! beside its games log, and the statistics the pages render from them.
//!
//! `tools/match.py` writes the header before the first game and appends a
//! host segment when a match is resumed on another host; the records of
//! the matches played before it did are backfilled (`"backfilled": true`,
//! with a `"source"` for every fact and `null` where a fact is lost).
//!
//! The figures are not stored: [`load`](fn@load) reads each record's games log and
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
//!
//! Here: the header's types and the figures per host. Beside it:
//! `results` (the counts of a games log and the figures computed from
//! them), `stats` (the formulas of `tools/sprt.py`), `log` (reading the
//! two log formats) and `load` (reading the records, each with the
//! figures of its log, over all its pairs and per segment).

mod load;
mod log;
pub mod pgn;
mod results;
pub mod stats;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use load::load;
pub use results::{Results, SegmentResult, Stats, Tally};
pub use stats::Elo;

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
    /// `.json` (set by [`load`](fn@load)).
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
    /// The record's file name (set by [`load`](fn@load)).
    #[serde(skip)]
    pub file: String,
    /// The figures computed from the games log (set by [`load`](fn@load)).
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

    #[test]
    fn ranges_and_dates() {
        assert_eq!(ranges(&[0, 1, 2, 5, 6, 9]), vec![[0, 2], [5, 6], [9, 9]]);
        assert!(ranges(&[]).is_empty());
        assert_eq!(iso_utc(1795638783.3), "2026-11-25T20:33:03Z");
        assert_eq!(iso_utc(0.0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_utc(951_782_400.0), "2000-02-29T00:00:00Z");
    }
}
