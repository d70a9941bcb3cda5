//! The match tables of `reports/strength.md`, `reports/nnue.md` and
//! `reports/tuning.md`, rendered from match records
//! (`reports/data/match-*.json`, read by [`crate::record::matches`]).
//!
//! A page asks for a block with a marker, `<!-- render: NAME ARGS -->`,
//! and the renderer puts what [`block`] returns between it and
//! `<!-- /render -->`. The names:
//!
//! * `matches.table [SELECTOR...]`: one row per host of every selected
//!   match (a match played on two hosts has a row for each and one for all
//!   its games): engines and options, time control, games, W/D/L, score,
//!   pentanomial count, Elo with its 95 % margin, LLR and verdict when
//!   there is an SPRT, time losses / illegal moves / crashes, host, date and
//!   a link to the record; with the word `titles`, a first column with
//!   each record's title. Under a table with a Stockfish `UCI_Elo`
//!   opponent, a sentence on the time control that scale is calibrated at.
//! * `matches.sprt [SELECTOR...]`: the SPRT log (by default every record
//!   of `reports/sprt/`): change, commits, games, W/D/L, pentanomial, Elo,
//!   LLR, verdict and what was done, host, record.
//! * `matches.records [SELECTOR...]`: the records themselves: kind, games,
//!   hosts, whether backfilled, and which facts are not recorded.
//! * `matches.value RECORD FIELD [HOST]`: one figure inline (`FIELD` is
//!   one of [`FIELDS`]); `HOST`, from 1, takes the figure over the games of
//!   that host only (in the order of the table's rows).
//!
//! A SELECTOR is `kind:match|sprt|sweep`, `vs:WORD` (the opponent's label
//! or name contains WORD, any case; a bare WORD means the same), `a:WORD`
//! (the same for engine A), `log:PREFIX` (the games log's path),
//! `tc:BASE+INC`, `name:RECORD` (repeatable: exactly these, in this
//! order), or `newest` (newest first; the default is oldest first). Every
//! condition must hold; a selection of no record is an error.
//!
//! Tables come back as whole lines (ending in a newline); values inline,
//! without one. Links are relative to `reports/`, where the pages are.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::record::matches::{Elo, Host, Kind, MatchRecord, Stats, ranges};
use crate::util::Result;

/// The fields `matches.value` knows.
pub const FIELDS: &[&str] = &[
    "games",
    "pairs",
    "wins",
    "draws",
    "losses",
    "wdl",
    "score",
    "pentanomial",
    "elo",
    "elo_estimate",
    "elo_margin",
    "elo_low",
    "elo_high",
    "elo_trinomial",
    "llr",
    "verdict",
    "bounds",
    "time_losses",
    "illegal_moves",
    "crashes",
    "hangs",
    "endings",
    "nps_a",
    "nps_b",
    "tc",
    "date",
    "host",
    "hosts",
    "a",
    "b",
    "a_commit",
    "b_commit",
    "a_options",
    "b_options",
    "openings",
    "concurrency",
    "games_planned",
    "title",
    "outcome",
];

/// The markdown for the rendered block `name` (with its arguments), or
/// `None` when the block is not a match block.
pub fn block(name: &str, args: &[&str], matches: &[MatchRecord]) -> Option<Result<String>> {
    let out = match name {
        "matches.table" => {
            let titles = args.contains(&"titles");
            let args: Vec<&str> = args.iter().filter(|a| **a != "titles").copied().collect();
            select(&args, matches).and_then(|r| table(&r, titles))
        }
        "matches.sprt" => {
            let default: &[&str] = &["kind:sprt", "log:reports/sprt/"];
            let args = if args.iter().all(|a| *a == "newest") {
                [default, args].concat()
            } else {
                args.to_vec()
            };
            select(&args, matches).map(|r| sprt_log(&r))
        }
        "matches.records" => select(args, matches).map(|r| records(&r)),
        "matches.value" => value(args, matches),
        _ => return None,
    };
    Some(out.map_err(|e| format!("{name} {}: {e}", args.join(" "))))
}

// ---------------------------------------------------------------------------
// Selecting records.

fn contains(haystack: &str, needle: &str) -> bool {
    haystack.to_lowercase().contains(&needle.to_lowercase())
}

fn engine_matches(e: &crate::record::matches::Engine, word: &str) -> bool {
    contains(&e.label, word)
        || e.id_name.as_deref().is_some_and(|n| contains(n, word))
        || e.path.as_deref().is_some_and(|p| contains(p, word))
}

/// A condition a selector puts on a record.
type Test<'a> = Box<dyn Fn(&MatchRecord) -> bool + 'a>;

/// The records a selector names, in its order.
fn select<'a>(args: &[&str], matches: &'a [MatchRecord]) -> Result<Vec<&'a MatchRecord>> {
    let mut names: Vec<&str> = Vec::new();
    let mut newest = false;
    let mut tests: Vec<Test<'_>> = Vec::new();
    for &arg in args {
        let (key, word) = arg.split_once(':').unwrap_or(("vs", arg));
        match key {
            _ if arg == "newest" => newest = true,
            "name" => names.push(word),
            "kind" => {
                let kind = match word {
                    "match" => Kind::Match,
                    "sprt" => Kind::Sprt,
                    "sweep" => Kind::Sweep,
                    _ => return Err(format!("unknown kind {word:?} (match, sprt, sweep)")),
                };
                tests.push(Box::new(move |r| r.kind == kind));
            }
            "vs" => tests.push(Box::new(move |r| engine_matches(&r.engines.b, word))),
            "a" => tests.push(Box::new(move |r| engine_matches(&r.engines.a, word))),
            "log" => tests.push(Box::new(move |r| r.games_log.starts_with(word))),
            "tc" => tests.push(Box::new(move |r| r.time_control.as_deref() == Some(word))),
            _ => return Err(format!("unknown selector {arg:?}")),
        }
    }
    let mut out: Vec<&MatchRecord> = if names.is_empty() {
        let mut all: Vec<&MatchRecord> = matches.iter().collect();
        all.sort_by_key(|r| (r.sort_key(), r.name.clone()));
        all
    } else {
        names
            .iter()
            .map(|n| {
                matches
                    .iter()
                    .find(|r| r.name == *n)
                    .ok_or_else(|| format!("no match record named {n:?}"))
            })
            .collect::<Result<_>>()?
    };
    out.retain(|r| tests.iter().all(|t| t(r)));
    if newest {
        out.reverse();
    }
    if out.is_empty() {
        return Err("no match record selected".into());
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Formatting.

/// A percentage: two decimals where they are exact (52.75 %), else one.
pub fn percent(fraction: f64) -> String {
    let p = fraction * 100.0;
    let hundredths = (p * 100.0).round();
    if (p * 100.0 - hundredths).abs() < 1e-6 && hundredths % 10.0 != 0.0 {
        format!("{p:.2} %")
    } else {
        format!("{p:.1} %")
    }
}

fn signed(x: f64, decimals: usize) -> String {
    // No "-0.0".
    let s = format!("{x:+.decimals$}");
    if s.trim_start_matches(['+', '-'])
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        s.replacen('-', "+", 1)
    } else {
        s
    }
}

fn elo_text(e: &Elo) -> String {
    format!("{} ± {:.1}", signed(e.estimate, 1), e.margin)
}

fn wdl(s: &Stats) -> String {
    let [w, d, l] = s.tally.wdl;
    format!("{w} / {d} / {l}")
}

fn ptnml(s: &Stats) -> String {
    if s.per_game || s.tally.pairs() == 0 {
        "–".into()
    } else {
        s.tally.ptnml.map(|n| n.to_string()).join(" ")
    }
}

fn nps(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else {
        format!("{:.0} k", x / 1e3)
    }
}

fn option_value(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn options(e: &crate::record::matches::Engine) -> String {
    e.options
        .iter()
        .map(|(k, v)| format!("`{k}={}`", option_value(v)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn short(commit: &str) -> &str {
    &commit[..commit.len().min(7)]
}

/// The engine as a table names it: its label, the commit where the label
/// does not carry it, the options set.
fn engine_cell(e: &crate::record::matches::Engine) -> String {
    let mut s = e.label.clone();
    if let Some(c) = &e.commit
        && !e.label.contains(short(c))
    {
        let _ = write!(s, " `{}`", short(c));
    }
    if !e.options.is_empty() {
        let _ = write!(s, ": {}", options(e));
    }
    s
}

/// The microarchitecture of a CPU where vendor, family and model say it
/// plainly (the names of the lab's records).
fn microarchitecture(h: &Host) -> Option<String> {
    if let Some(m) = &h.microarchitecture {
        return Some(m.clone());
    }
    crate::measure::host::microarchitecture(h.cpu_vendor.as_deref()?, h.cpu_family?, h.cpu_model)
        .map(str::to_string)
}

/// A host in words: model name, microarchitecture (family, model), cores.
pub fn host_label(host: Option<&Host>) -> String {
    let Some(h) = host else {
        return "host not recorded".into();
    };
    let mut parts: Vec<String> = Vec::new();
    if let Some(n) = &h.cpu_model_name {
        parts.push(n.replace("(R)", "").replace("(TM)", ""));
    } else if let Some(v) = &h.cpu_vendor {
        parts.push(v.clone());
    }
    let numbers = match (h.cpu_family, h.cpu_model) {
        (Some(f), Some(m)) => format!("family {f}, model {m}"),
        (Some(f), None) => format!("family {f}"),
        _ => String::new(),
    };
    match (microarchitecture(h), numbers.is_empty()) {
        (Some(a), false) => parts.push(format!("{a} ({numbers})")),
        (Some(a), true) => parts.push(a),
        (None, false) => parts.push(numbers),
        (None, true) => {}
    }
    if let Some(c) = h.logical_cores {
        parts.push(format!("{c} cores"));
    }
    if parts.is_empty() {
        "host not recorded".into()
    } else {
        parts.join(", ")
    }
}

fn day(s: &Stats, r: &MatchRecord) -> String {
    s.tally
        .first_finished
        .map(|t| crate::record::matches::iso_utc(t)[..10].to_string())
        .or_else(|| r.day())
        .unwrap_or_else(|| "–".into())
}

/// "0", or the count with each engine's share: "1 (B)".
fn event_count(counts: [u32; 2], a: &str, b: &str) -> String {
    let total = counts[0] + counts[1];
    match counts {
        [0, 0] => "0".into(),
        [_, 0] => format!("{total} ({a})"),
        [0, _] => format!("{total} ({b})"),
        _ => format!("{total} ({a} {}, {b} {})", counts[0], counts[1]),
    }
}

fn failures(s: &Stats, r: &MatchRecord) -> String {
    let t = &s.tally;
    let (a, b) = (&r.engines.a.label, &r.engines.b.label);
    let crashes = [t.crashes[0] + t.hangs[0], t.crashes[1] + t.hangs[1]];
    format!(
        "{} / {} / {}",
        event_count(t.time_losses, a, b),
        event_count(t.illegal_moves, a, b),
        event_count(crashes, a, b)
    )
}

fn record_link(r: &MatchRecord) -> String {
    let mut s = format!("[{}](data/{})", r.file, r.file);
    if r.backfilled {
        s.push_str(" (backfilled)");
    }
    s
}

fn verdict_text(s: &Stats, r: &MatchRecord) -> String {
    match (s.verdict, &r.outcome) {
        (Some(v), Some(o)) => format!("{}: {o}", v.as_str()),
        (Some(v), None) => v.as_str().to_string(),
        (None, _) => "–".into(),
    }
}

/// Footnote marks an Elo cell needs.
#[derive(Default)]
struct Notes {
    per_game: bool,
    unbounded: bool,
}

impl Notes {
    fn elo(&mut self, s: &Stats) -> String {
        let Some(e) = &s.elo else {
            return "–".into();
        };
        let mut text = elo_text(e);
        if s.per_game {
            self.per_game = true;
            text.push_str(" ¹");
        }
        if e.unbounded {
            self.unbounded = true;
            text.push_str(" ²");
        }
        text
    }

    fn write(&self, out: &mut String) {
        if self.per_game {
            out.push_str(
                "\n¹ From single games (W/D/L), as the first runner computed it: it did not \
                 count pairs.\n",
            );
        }
        if self.unbounded {
            out.push_str(
                "\n² The 95 % interval reaches a score of 0 or 1, where the Elo scale has no \
                 end: read it as \"clearly stronger\" (or weaker), nothing more precise.\n",
            );
        }
    }
}

/// One table row per host (and one for all games when there are several).
fn rows(r: &MatchRecord) -> Vec<(String, Stats, bool)> {
    let hosts = r.by_host();
    let mut out: Vec<(String, Stats, bool)> = hosts
        .iter()
        .map(|(h, s)| (host_label(h.as_ref()), s.clone(), hosts.len() == 1))
        .collect();
    if hosts.len() > 1 {
        out.push((
            if hosts.len() == 2 {
                "both hosts".to_string()
            } else {
                format!("all {} hosts", hosts.len())
            },
            r.results.overall.clone(),
            true,
        ));
    }
    if out.is_empty() {
        out.push(("–".into(), r.results.overall.clone(), true));
    }
    out
}

/// The sentence under a table with a Stockfish `UCI_Elo` opponent.
fn calibration(rs: &[&MatchRecord]) -> Option<String> {
    let mut tcs: Vec<&str> = rs
        .iter()
        .filter(|r| {
            [&r.engines.a, &r.engines.b]
                .iter()
                .any(|e| e.options.keys().any(|k| k.eq_ignore_ascii_case("UCI_Elo")))
        })
        .filter_map(|r| r.time_control.as_deref())
        .collect();
    if tcs.is_empty() {
        return None;
    }
    tcs.sort_unstable();
    tcs.dedup();
    Some(format!(
        "\nStockfish calibrates its `UCI_Elo` scale at 60+0.6 (its `src/search.cpp`: anchored \
         to CCRL Elo, Goldfish 1.13 = 2000, and fitted to match results at 60+0.6); the games \
         above were played at {}, so a `UCI_Elo` setting names an opponent here, not a rating at \
         this time control.\n",
        tcs.join(" and ")
    ))
}

fn table(rs: &[&MatchRecord], titles: bool) -> Result<String> {
    let sprt = rs.iter().any(|r| r.sprt.is_some());
    let mut out = String::from(if titles { "| Test " } else { "" });
    let mut rule = String::from(if titles { "|---" } else { "" });
    out.push_str(
        "| Engine | Opponent | Time control | Games | W / D / L | Score | Pentanomial | Elo (95 %) |",
    );
    rule.push_str("|---|---|---|---|---|---|---|---|");
    if sprt {
        out.push_str(" LLR | Verdict |");
        rule.push_str("---|---|");
    }
    out.push_str(" Time losses / illegal moves / crashes | Host | Date | Record |\n");
    rule.push_str("---|---|---|---|\n");
    out.push_str(&rule);
    let mut notes = Notes::default();
    for r in rs {
        let mut engine = engine_cell(&r.engines.a);
        if r.discarded {
            engine.push_str(" (discarded run)");
        }
        for (host, s, whole) in rows(r) {
            if titles {
                let _ = write!(out, "| {} ", r.title.as_deref().unwrap_or("–"));
            }
            let _ = write!(
                out,
                "| {engine} | {} | {} | {} | {} | {} | {} | {} |",
                engine_cell(&r.engines.b),
                r.time_control.as_deref().unwrap_or("–"),
                s.tally.games(),
                wdl(&s),
                s.score.map(percent).unwrap_or_else(|| "–".into()),
                ptnml(&s),
                notes.elo(&s),
            );
            if sprt {
                match (whole, s.llr) {
                    (true, Some(llr)) => {
                        let _ = write!(out, " {} | {} |", signed(llr, 2), verdict_text(&s, r));
                    }
                    _ => out.push_str(" – | – |"),
                }
            }
            let _ = writeln!(
                out,
                " {} | {host} | {} | {} |",
                failures(&s, r),
                day(&s, r),
                record_link(r)
            );
        }
    }
    notes.write(&mut out);
    if let Some(c) = calibration(rs) {
        out.push_str(&c);
    }
    Ok(out)
}

fn sprt_log(rs: &[&MatchRecord]) -> String {
    let bounds: Vec<String> = {
        let mut b: Vec<String> = rs
            .iter()
            .filter_map(|r| r.sprt.as_ref())
            .map(|s| format!("[{}, {}]", s.elo0, s.elo1))
            .collect();
        b.dedup();
        b
    };
    let llr_head = if bounds.len() == 1 {
        format!("LLR {}", bounds[0])
    } else {
        "LLR [elo0, elo1]".into()
    };
    let mut out = format!(
        "| Change | New vs base | Games | W / D / L | Pentanomial | Elo (95 %) | {llr_head} | Verdict | Host | Record |\n\
         |---|---|---|---|---|---|---|---|---|---|\n"
    );
    let mut notes = Notes::default();
    for r in rs {
        let change = r
            .title
            .clone()
            .unwrap_or_else(|| format!("{} vs {}", r.engines.a.label, r.engines.b.label));
        let commits = match (&r.engines.a.commit, &r.engines.b.commit) {
            (Some(a), Some(b)) if a == b => format!(
                "{} vs {} (both `{}`)",
                r.engines.a.label,
                r.engines.b.label,
                short(a)
            ),
            (Some(a), Some(b)) => format!("`{}` vs `{}`", short(a), short(b)),
            _ => format!("{} vs {}", r.engines.a.label, r.engines.b.label),
        };
        for (host, s, whole) in rows(r) {
            let (llr, verdict) = match (whole, s.llr) {
                (true, Some(llr)) => (signed(llr, 2), verdict_text(&s, r)),
                _ => ("–".into(), "–".into()),
            };
            let bounds = match (&r.sprt, bounds.len()) {
                (Some(b), n) if n > 1 => format!(" [{}, {}]", b.elo0, b.elo1),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "| {change} | {commits} | {} | {} | {} | {} | {llr}{bounds} | {verdict} | {host} | {} |",
                s.tally.games(),
                wdl(&s),
                ptnml(&s),
                notes.elo(&s),
                record_link(r)
            );
        }
    }
    notes.write(&mut out);
    out
}

/// Pair indices as the logs number them: "pairs 0-78, 80".
fn pairs_text(indices: &[u32]) -> String {
    let parts: Vec<String> = ranges(indices)
        .iter()
        .map(|[lo, hi]| {
            if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}-{hi}")
            }
        })
        .collect();
    match parts.as_slice() {
        [] => "no pairs".into(),
        [one] if !one.contains('-') => format!("pair {one}"),
        _ => format!("pairs {}", parts.join(", ")),
    }
}

/// The facts a record leaves `null`.
fn unknowns(r: &MatchRecord) -> Vec<String> {
    let mut out = Vec::new();
    for (role, e) in [("A", &r.engines.a), ("B", &r.engines.b)] {
        let quince = e.label.to_lowercase().contains("quince")
            || e.id_name
                .as_deref()
                .is_some_and(|n| n.to_lowercase().contains("quince"))
            || e.path.as_deref().is_some_and(|p| p.contains("target/"));
        if quince && e.commit.is_none() {
            out.push(format!("{role}'s commit"));
        }
        if e.sha256.is_none() {
            out.push(format!("{role}'s binary hash"));
        }
    }
    if r.time_control.is_none() {
        out.push("time control".into());
    }
    if r.openings.is_none() {
        out.push("openings".into());
    }
    if r.concurrency.is_none() {
        out.push("games at once".into());
    }
    if r.adjudication.is_none() {
        out.push("adjudication".into());
    }
    let hosts = r.by_host();
    if hosts.is_empty() || hosts.iter().any(|(h, _)| h.is_none()) {
        out.push("host".into());
    } else if hosts
        .iter()
        .any(|(h, _)| h.as_ref().is_some_and(|h| h.cpu_family.is_none()))
    {
        out.push("CPU family and model".into());
    } else if hosts
        .iter()
        .any(|(h, _)| h.as_ref().is_some_and(|h| h.cpu_model.is_none()))
    {
        out.push("CPU model number".into());
    }
    out
}

fn records(rs: &[&MatchRecord]) -> String {
    let mut out = String::from(
        "| Record | Kind | Engines | Games | Hosts | Written | Not recorded |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for r in rs {
        let kind = match r.kind {
            Kind::Match => "match",
            Kind::Sprt => "SPRT",
            Kind::Sweep => "sweep",
        };
        let hosts: Vec<String> = r
            .by_host()
            .iter()
            .map(|(h, s)| {
                format!(
                    "{}: {} games, {}",
                    host_label(h.as_ref()),
                    s.tally.games(),
                    pairs_text(&s.tally.pair_indices)
                )
            })
            .collect();
        let unknown = unknowns(r);
        let _ = writeln!(
            out,
            "| [{}](data/{}) | {kind} | {} vs {} | {} | {} | {} | {} |",
            r.name,
            r.file,
            r.engines.a.label,
            r.engines.b.label,
            r.results.overall.tally.games(),
            hosts.join("; "),
            if r.backfilled {
                "backfilled"
            } else {
                "by the runner"
            },
            if unknown.is_empty() {
                "–".into()
            } else {
                unknown.join(", ")
            }
        );
    }
    out
}

// ---------------------------------------------------------------------------
// Single figures.

/// How the runner's terminations read in prose, singular and plural.
fn ending_words(termination: &str) -> (String, String) {
    let (one, many) = match termination {
        "adjudication (resign)" => (
            "resignation by adjudication",
            "resignations by adjudication",
        ),
        "adjudication (draw)" => ("draw by adjudication", "draws by adjudication"),
        "threefold_repetition" => ("threefold repetition", "threefold repetitions"),
        "fivefold_repetition" => ("fivefold repetition", "fivefold repetitions"),
        "fifty_moves" => ("fifty-move draw", "fifty-move draws"),
        "seventyfive_moves" => ("seventy-five-move draw", "seventy-five-move draws"),
        "checkmate" => ("mate", "mates"),
        "stalemate" => ("stalemate", "stalemates"),
        "insufficient_material" => (
            "draw by insufficient material",
            "draws by insufficient material",
        ),
        "time forfeit" => ("loss on time", "losses on time"),
        "time forfeit (engine hung)" => ("loss by a hung engine", "losses by a hung engine"),
        "illegal move" => ("illegal move", "illegal moves"),
        "engine error" => ("loss by an engine error", "losses by an engine error"),
        other => (other, other),
    };
    (one.to_string(), many.to_string())
}

fn endings(t: &BTreeMap<String, u32>) -> String {
    let mut items: Vec<(&String, &u32)> = t.iter().collect();
    items.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let words: Vec<String> = items
        .into_iter()
        .map(|(k, &n)| {
            let (one, many) = ending_words(k);
            format!("{n} {}", if n == 1 { one } else { many })
        })
        .collect();
    match words.len() {
        0 => "none".into(),
        1 => words[0].clone(),
        n => format!("{} and {}", words[..n - 1].join(", "), words[n - 1]),
    }
}

fn value(args: &[&str], matches: &[MatchRecord]) -> Result<String> {
    let (name, field, host) = match args {
        [n, f] => (*n, *f, None),
        [n, f, h] => (
            *n,
            *f,
            Some(
                h.parse::<usize>()
                    .ok()
                    .filter(|&h| h >= 1)
                    .ok_or_else(|| format!("HOST must be a number from 1, got {h:?}"))?,
            ),
        ),
        _ => return Err("usage: matches.value RECORD FIELD [HOST]".into()),
    };
    let r = matches
        .iter()
        .find(|r| r.name == name)
        .ok_or_else(|| format!("no match record named {name:?}"))?;
    let hosts = r.by_host();
    let (host, s) = match host {
        None => (None, r.results.overall.clone()),
        Some(h) => {
            let (host, s) = hosts
                .get(h - 1)
                .ok_or_else(|| format!("{name} was played on {} host(s), not {h}", hosts.len()))?;
            (Some(host.clone()), s.clone())
        }
    };
    let t = &s.tally;
    let elo = || {
        s.elo
            .ok_or_else(|| "no Elo estimate (fewer than two pairs)".to_string())
    };
    let text = match field {
        "games" => t.games().to_string(),
        "pairs" => t.pairs().to_string(),
        "wins" => t.wdl[0].to_string(),
        "draws" => t.wdl[1].to_string(),
        "losses" => t.wdl[2].to_string(),
        "wdl" => wdl(&s),
        "score" => s.score.map(percent).ok_or("no games")?,
        "pentanomial" => ptnml(&s),
        "elo" => elo_text(&elo()?),
        "elo_estimate" => signed(elo()?.estimate, 1),
        "elo_margin" => format!("{:.1}", elo()?.margin),
        "elo_low" => signed(elo()?.estimate - elo()?.margin, 1),
        "elo_high" => signed(elo()?.estimate + elo()?.margin, 1),
        "elo_trinomial" => elo_text(&s.elo_trinomial.ok_or("no games")?),
        "llr" => signed(s.llr.ok_or_else(|| format!("{name} is not an SPRT"))?, 2),
        "verdict" => s
            .verdict
            .ok_or_else(|| format!("{name} is not an SPRT"))?
            .as_str()
            .to_string(),
        "bounds" => r
            .sprt
            .as_ref()
            .map(|b| format!("[{}, {}]", b.elo0, b.elo1))
            .ok_or_else(|| format!("{name} is not an SPRT"))?,
        "time_losses" => (t.time_losses[0] + t.time_losses[1]).to_string(),
        "illegal_moves" => (t.illegal_moves[0] + t.illegal_moves[1]).to_string(),
        "crashes" => (t.crashes[0] + t.crashes[1]).to_string(),
        "hangs" => (t.hangs[0] + t.hangs[1]).to_string(),
        "endings" => endings(&t.terminations),
        "nps_a" => nps(s.nps(0).ok_or("nodes/s not logged")?),
        "nps_b" => nps(s.nps(1).ok_or("nodes/s not logged")?),
        "tc" => r.time_control.clone().ok_or("time control not recorded")?,
        "date" => day(&s, r),
        "host" => match host {
            Some(h) => host_label(h.as_ref()),
            None if hosts.len() == 1 => host_label(hosts[0].0.as_ref()),
            None => {
                return Err(format!(
                    "{name} was played on {} hosts: give HOST",
                    hosts.len()
                ));
            }
        },
        "hosts" => {
            let parts: Vec<String> = hosts
                .iter()
                .map(|(h, s)| format!("{} games on {}", s.tally.games(), host_label(h.as_ref())))
                .collect();
            parts.join(" and ")
        }
        "a" => r.engines.a.label.clone(),
        "b" => r.engines.b.label.clone(),
        "a_commit" => short(
            r.engines
                .a
                .commit
                .as_deref()
                .ok_or("A's commit not recorded")?,
        )
        .into(),
        "b_commit" => short(
            r.engines
                .b
                .commit
                .as_deref()
                .ok_or("B's commit not recorded")?,
        )
        .into(),
        "a_options" => options(&r.engines.a),
        "b_options" => options(&r.engines.b),
        "openings" => match (&r.openings, t.openings) {
            (Some(o), Some((lo, hi))) => format!(
                "{} {lo}-{hi}",
                o.file.as_deref().unwrap_or("the built-in lines")
            ),
            (Some(o), None) => o
                .file
                .clone()
                .unwrap_or_else(|| "the built-in lines".into()),
            (None, _) => return Err("openings not recorded".into()),
        },
        "concurrency" => r
            .concurrency
            .ok_or("games at once not recorded")?
            .to_string(),
        "games_planned" => r.games_planned.ok_or("not recorded")?.to_string(),
        "title" => r.title.clone().ok_or("no title")?,
        "outcome" => r.outcome.clone().ok_or("no outcome")?,
        other => {
            return Err(format!(
                "unknown field {other:?} (one of {})",
                FIELDS.join(", ")
            ));
        }
    };
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::matches::{
        Engine, Engines, LogFormat, Results, Segment, SegmentResult, SprtBounds, Tally,
    };

    fn engine(label: &str, commit: Option<&str>, options: &[(&str, serde_json::Value)]) -> Engine {
        Engine {
            label: label.into(),
            path: None,
            protocol: None,
            id_name: None,
            commit: commit.map(String::from),
            sha256: None,
            options: options
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        }
    }

    fn host(vendor: &str, family: u32, model: Option<u32>) -> Host {
        Host {
            cpu_vendor: Some(vendor.into()),
            cpu_family: Some(family),
            cpu_model: model,
            cpu_stepping: None,
            cpu_model_name: Some(if vendor == "GenuineIntel" {
                "Intel(R) Xeon(R) Processor".into()
            } else {
                "AMD EPYC".into()
            }),
            microarchitecture: None,
            logical_cores: Some(2),
        }
    }

    fn tally(wdl: [u32; 3], ptnml: [u32; 5]) -> Tally {
        Tally {
            wdl,
            ptnml,
            ..Tally::default()
        }
    }

    /// The v4 match against Stockfish as its log has it: 158 games on the
    /// Intel host, 42 on the AMD one.
    fn v4() -> MatchRecord {
        let sprt = None;
        let intel = tally([62, 47, 49], [9, 10, 28, 23, 9]);
        let mut amd = tally([14, 12, 16], [3, 6, 5, 4, 3]);
        amd.terminations.insert("adjudication (resign)".into(), 30);
        amd.terminations.insert("checkmate".into(), 1);
        amd.terminations.insert("threefold_repetition".into(), 11);
        let mut all = intel.clone();
        for i in 0..3 {
            all.wdl[i] += amd.wdl[i];
        }
        for i in 0..5 {
            all.ptnml[i] += amd.ptnml[i];
        }
        let seg = |h: Host, t: &Tally| SegmentResult {
            host: Some(h),
            source: None,
            stats: Stats::from_tally(t.clone(), false, sprt),
        };
        MatchRecord {
            format_version: 1,
            name: "quince-nnue4-stockfish2400-200".into(),
            kind: Kind::Match,
            title: None,
            games_log: "reports/quince-nnue4-stockfish2400-200.jsonl".into(),
            log_format: LogFormat::Pairs,
            pgn: None,
            engines: Engines {
                a: engine("Quince 1f4a046 (NNUE v4)", Some("1f4a046aaaa"), &[]),
                b: engine(
                    "Stockfish 15.1 UCI_Elo 2400",
                    None,
                    &[
                        ("UCI_Elo", serde_json::json!(2400)),
                        ("UCI_LimitStrength", serde_json::json!(true)),
                        ("Move Overhead", serde_json::json!(100)),
                    ],
                ),
            },
            time_control: Some("10+0.1".into()),
            openings: None,
            games_planned: Some(200),
            concurrency: Some(2),
            adjudication: None,
            sprt: None,
            started_utc: None,
            date: Some("2026-11-25".into()),
            segments: vec![],
            backfilled: true,
            source: None,
            notes: None,
            outcome: None,
            discarded: false,
            file: "match-quince-nnue4-stockfish2400-200.json".into(),
            results: Results {
                overall: Stats::from_tally(all, false, None),
                segments: vec![
                    seg(host("GenuineIntel", 6, Some(167)), &intel),
                    seg(host("AuthenticAMD", 25, Some(17)), &amd),
                ],
            },
        }
    }

    fn an_sprt() -> MatchRecord {
        let bounds = SprtBounds {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let t = tally([184, 120, 112], [12, 33, 72, 53, 38]);
        let mut r = v4();
        r.name = "sprt-7055d2f-vs-a83f0b6".into();
        r.file = "match-sprt-7055d2f-vs-a83f0b6.json".into();
        r.kind = Kind::Sprt;
        r.title = Some("evaluation: NNUE v3".into());
        r.games_log = "reports/sprt/7055d2f-vs-a83f0b6.jsonl".into();
        r.engines.a = engine("new 7055d2f", Some("7055d2f0"), &[]);
        r.engines.b = engine("base a83f0b6", Some("a83f0b61"), &[]);
        r.time_control = Some("2+0.02".into());
        r.outcome = Some("kept".into());
        r.results = Results {
            overall: Stats::from_tally(t.clone(), false, Some(&bounds)),
            segments: vec![SegmentResult {
                host: Some(host("GenuineIntel", 6, Some(167))),
                source: None,
                stats: Stats::from_tally(t, false, Some(&bounds)),
            }],
        };
        r.sprt = Some(bounds);
        r.date = Some("2026-11-25T16:58:00Z".into());
        r
    }

    #[test]
    fn unknown_blocks_are_left_alone() {
        assert!(block("lab.table", &[], &[v4()]).is_none());
        assert!(block("matches.nope", &[], &[v4()]).is_none());
    }

    #[test]
    fn formats() {
        assert_eq!(percent(0.5275), "52.75 %");
        assert_eq!(percent(108.0 / 2.0 / 200.0 + 0.0), "27.0 %");
        assert_eq!(percent(85.5 / 158.0), "54.1 %");
        assert_eq!(percent(0.5), "50.0 %");
        assert_eq!(signed(-0.001, 2), "+0.00");
        assert_eq!(signed(-3.1, 1), "-3.1");
        assert_eq!(nps(2_290_000.0), "2.29 M");
        assert_eq!(nps(868_000.0), "868 k");
        assert_eq!(
            host_label(Some(&host("GenuineIntel", 6, Some(167)))),
            "Intel Xeon Processor, Rocket Lake (family 6, model 167), 2 cores"
        );
        assert_eq!(
            host_label(Some(&host("AuthenticAMD", 26, None))),
            "AMD EPYC, Zen 5 (family 26), 2 cores"
        );
        assert_eq!(host_label(None), "host not recorded");
    }

    #[test]
    fn a_match_on_two_hosts_has_a_row_for_each_and_one_for_all() {
        let records = [v4()];
        let out = block("matches.table", &["stockfish"], &records)
            .unwrap()
            .unwrap();
        let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("| Quince")).collect();
        assert_eq!(rows.len(), 3, "{out}");
        assert!(
            rows[0].contains("| 158 | 62 / 47 / 49 | 54.1 % |") && rows[0].contains("Rocket Lake")
        );
        assert!(rows[1].contains("| 42 | 14 / 12 / 16 | 47.6 % |") && rows[1].contains("Zen 4"));
        assert!(
            rows[2].contains("| 200 | 76 / 59 / 65 | 52.75 % | 12 16 33 27 12 | +19.1 ± 40.3 |")
        );
        assert!(rows[2].contains("both hosts"));
        assert!(out.contains("`Move Overhead=100`, `UCI_Elo=2400`, `UCI_LimitStrength=true`"));
        assert!(out.contains("[match-quince-nnue4-stockfish2400-200.json](data/match-quince-nnue4-stockfish2400-200.json) (backfilled)"));
        assert!(
            out.contains("calibrates its `UCI_Elo` scale at 60+0.6")
                && out.contains("played at 10+0.1")
        );
        assert!(out.ends_with('\n'));
    }

    #[test]
    fn values_inline() {
        let records = [v4(), an_sprt()];
        let v = |args: &[&str]| block("matches.value", args, &records).unwrap();
        let name = "quince-nnue4-stockfish2400-200";
        assert_eq!(v(&[name, "score"]).unwrap(), "52.75 %");
        assert_eq!(v(&[name, "score", "1"]).unwrap(), "54.1 %");
        assert_eq!(v(&[name, "games", "2"]).unwrap(), "42");
        assert_eq!(v(&[name, "elo"]).unwrap(), "+19.1 ± 40.3");
        assert_eq!(v(&[name, "elo_low"]).unwrap(), "-21.1");
        assert_eq!(v(&[name, "wdl"]).unwrap(), "76 / 59 / 65");
        assert_eq!(
            v(&[name, "endings", "2"]).unwrap(),
            "30 resignations by adjudication, 11 threefold repetitions and 1 mate"
        );
        assert!(
            v(&[name, "hosts"])
                .unwrap()
                .starts_with("158 games on Intel")
        );
        assert!(v(&[name, "host"]).is_err(), "two hosts: which one?");
        assert!(v(&[name, "score", "3"]).is_err());
        assert!(v(&[name, "llr"]).is_err());
        assert!(v(&[name, "bogus"]).is_err());
        assert!(v(&["nope", "score"]).is_err());
        let sprt = "sprt-7055d2f-vs-a83f0b6";
        assert_eq!(v(&[sprt, "llr"]).unwrap(), "+3.03");
        assert_eq!(v(&[sprt, "verdict"]).unwrap(), "H1");
        assert_eq!(v(&[sprt, "bounds"]).unwrap(), "[0, 10]");
        assert_eq!(v(&[sprt, "a_commit"]).unwrap(), "7055d2f");
    }

    #[test]
    fn the_sprt_log_and_selectors() {
        let records = [v4(), an_sprt()];
        let out = block("matches.sprt", &[], &records).unwrap().unwrap();
        assert!(out.contains("| evaluation: NNUE v3 | `7055d2f` vs `a83f0b6` | 416 | 184 / 120 / 112 | 12 33 72 53 38 | +60.7 ± 27.3 | +3.03 | H1: kept |"), "{out}");
        assert!(!out.contains("Stockfish"));
        let t = block("matches.table", &["kind:sprt", "titles"], &records)
            .unwrap()
            .unwrap();
        assert!(t.contains("| LLR | Verdict |") && !t.contains("calibrates"));
        assert!(
            t.starts_with("| Test | Engine |") && t.contains("| evaluation: NNUE v3 | new 7055d2f")
        );
        let both = block("matches.table", &["newest", "tc:10+0.1"], &records)
            .unwrap()
            .unwrap();
        assert!(!both.contains("LLR"));
        assert!(
            block("matches.table", &["vs:fairy"], &records)
                .unwrap()
                .is_err()
        );
        assert!(
            block("matches.table", &["bogus:1"], &records)
                .unwrap()
                .is_err()
        );
        let named = block(
            "matches.records",
            &[
                "name:sprt-7055d2f-vs-a83f0b6",
                "name:quince-nnue4-stockfish2400-200",
            ],
            &records,
        )
        .unwrap()
        .unwrap();
        let lines: Vec<&str> = named.lines().skip(2).collect();
        assert!(lines[0].contains("sprt-7055d2f") && lines[1].contains("nnue4"));
        assert!(lines[1].contains("B's binary hash") && !lines[1].contains("A's commit"));
    }

    #[test]
    fn pair_ranges_read_as_the_logs_number_them() {
        assert_eq!(pairs_text(&[0, 1, 2, 5]), "pairs 0-2, 5");
        assert_eq!(pairs_text(&[7]), "pair 7");
        assert_eq!(pairs_text(&[]), "no pairs");
    }

    #[test]
    fn endings_read_as_prose() {
        let mut t = BTreeMap::new();
        assert_eq!(endings(&t), "none");
        t.insert("fifty_moves".to_string(), 1);
        assert_eq!(endings(&t), "1 fifty-move draw");
        t.insert("adjudication (draw)".to_string(), 17);
        assert_eq!(
            endings(&t),
            "17 draws by adjudication and 1 fifty-move draw"
        );
    }

    #[test]
    fn segments_without_games_are_not_rows() {
        let mut r = v4();
        r.results.segments.push(SegmentResult::default());
        r.segments.push(Segment {
            host: None,
            pairs: Some(vec![]),
            started_utc: None,
            finished_utc: None,
            source: None,
        });
        assert_eq!(r.by_host().len(), 2);
    }
}
