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
//!   one of [`FIELDS`](value::FIELDS)); `HOST`, from 1, takes the figure
//!   over the games of that host only (in the order of the table's rows).
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
//!
//! Here: the dispatch and the selectors. Beside it: `cells` (how a
//! figure or a fact reads in a cell), `table` (`matches.table`), `sprt`
//! (`matches.sprt`), `records` (`matches.records`) and `value`
//! (`matches.value`).

pub(super) mod cells;
#[cfg(test)]
mod fixtures;
mod records;
mod sprt;
mod table;
mod value;

use crate::record::matches::{Kind, MatchRecord};
use crate::util::Result;
use records::records;
use sprt::sprt_log;
use table::table;
use value::value;

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
            .map(|n| named(matches, n))
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

/// The match record called `name` (its file name without `match-` and
/// `.json`), or an error naming it.
pub(super) fn named<'a>(matches: &'a [MatchRecord], name: &str) -> Result<&'a MatchRecord> {
    matches
        .iter()
        .find(|r| r.name == name)
        .ok_or_else(|| format!("no match record named {name:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::matches::fixtures::v4;

    #[test]
    fn unknown_blocks_are_left_alone() {
        assert!(block("lab.table", &[], &[v4()]).is_none());
        assert!(block("matches.nope", &[], &[v4()]).is_none());
    }
}
