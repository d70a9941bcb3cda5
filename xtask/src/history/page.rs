//! `reports/history.md` and `reports/history.svg`, drawn from the cache.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::chart::{HistoryChart, NOTABLE_STEP, Point, render};
use super::{Cache, CommitRef, baseline};
use crate::util::{Result, root};

/// A change of at least this many percent from the previous measured
/// commit is marked in the table (and its hash written on the chart).
const NOTABLE_PERCENT: f64 = NOTABLE_STEP;

/// How many measured commits the page and chart show (the newest).
pub const SHOWN: usize = 30;

/// The chart and the page for the newest [`SHOWN`] measured commits of the
/// cache, as (path, text): what `history` writes and what `report
/// --render` and `--check` render, from the cache alone (no git), so the
/// page is the same on every clone.
pub fn files(cache: &Cache) -> Result<Vec<(PathBuf, String)>> {
    let mut entries: Vec<&super::Entry> = cache.entries.values().collect();
    entries.sort_by(|a, b| a.date.cmp(&b.date).then(a.commit.cmp(&b.commit)));
    let skip = entries.len().saturating_sub(SHOWN);
    let commits: Vec<CommitRef> = entries[skip..]
        .iter()
        .map(|e| CommitRef {
            hash: e.commit.clone(),
            date: e.date.clone(),
            subject: e.subject.clone(),
        })
        .collect();
    let reports = root().join("reports");
    let base = baseline();
    let points: Vec<Point> = commits
        .iter()
        .map(|c| Point {
            label: c.hash[..7].to_string(),
            date: c.date.get(5..10).unwrap_or("").to_string(),
            value: cache.entries.get(&c.hash).and_then(|e| e.per_node),
        })
        .collect();
    let svg = render(&HistoryChart {
        title: {
            let newest = commits.last();
            let host = commits
                .iter()
                .rev()
                .filter_map(|c| cache.entries.get(&c.hash))
                .map(|e| e.cpu.as_str())
                .find(|cpu| !cpu.is_empty())
                .unwrap_or("an unrecorded host");
            format!(
                "CI perft workload, instructions per node, {} commits to {} ({}), counted on {host}",
                commits.len(),
                newest.map_or("", |c| &c.hash[..7]),
                newest.map_or("", |c| c.date.get(..10).unwrap_or("")),
            )
        },
        points,
        baseline: base.as_ref().map(|(b, g, _)| (*b, *g)),
    })?;
    Ok(vec![
        (reports.join("history.svg"), svg),
        (reports.join("history.md"), markdown(cache, &commits, base)),
    ])
}

/// Writes the chart and the page ([`files`]); returns the paths written.
pub fn write(cache: &Cache) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for (path, text) in files(cache)? {
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

fn markdown(cache: &Cache, commits: &[CommitRef], base: Option<(f64, f64, String)>) -> String {
    let mut s = String::new();
    let nodes: u64 = cache.workloads.iter().map(|w| w.nodes).sum();
    let _ = writeln!(s, "# Perft node rate over history\n");
    let _ = writeln!(
        s,
        "Instructions per node of the CI perft-tracking workload (the one `.ci/stages/70-perft-tracking.sh` gates on: {} workloads, {} nodes, default `hq` build, one thread) at each of the newest {} measured commits that changed `src/` (the newest on the chart's title; commits since then are not measured until `history` runs). Counted by callgrind, net of start-up, so the figure is the same on every run of a given binary: a step in the line is a change in the code (or the compiler), not noise. Measure new commits with `cargo run -p xtask -- history` (cached per commit in [`data/perft-history.json`](data/perft-history.json); only commits not in it are measured); `cargo run -p xtask -- report --render` redraws this page and its chart from that cache, and `report --check` fails when they differ from it.\n",
        cache.workloads.len(),
        nodes,
        commits.len()
    );
    if let Some((b, g, c)) = &base {
        let _ = writeln!(
            s,
            "The CI baseline ([`perft-baseline.json`](perft-baseline.json)), {b:.3} instructions per node, was recorded at `{c}`; CI fails when a change needs more than {g} % more.\n"
        );
    }
    let _ = writeln!(s, "![instructions per node over commits](history.svg)\n");
    let measured: Vec<_> = commits
        .iter()
        .filter_map(|c| cache.entries.get(&c.hash))
        .collect();
    let mut tools: Vec<String> = measured
        .iter()
        .map(|e| format!("{}; {}; {}", e.rustc, e.valgrind, e.cpu))
        .collect();
    tools.sort();
    tools.dedup();
    for t in &tools {
        let _ = writeln!(s, "Measured with {t}.");
    }
    let _ = writeln!(
        s,
        "\nChanges of {NOTABLE_PERCENT} % or more from the previous commit are in bold.\n"
    );
    let _ = writeln!(
        s,
        "| # | commit | date | instructions/node | change | subject |\n| ---: | --- | --- | ---: | ---: | --- |"
    );
    let mut previous: Option<f64> = None;
    for (k, c) in commits.iter().enumerate() {
        let entry = cache.entries.get(&c.hash);
        let value = entry.and_then(|e| e.per_node);
        let (figure, change) = match (value, entry) {
            (Some(v), _) => {
                let change = match previous {
                    Some(p) => {
                        let pct = (v / p - 1.0) * 100.0;
                        let text = format!("{pct:+.1} %");
                        if pct.abs() >= NOTABLE_PERCENT {
                            format!("**{text}**")
                        } else {
                            text
                        }
                    }
                    None => String::new(),
                };
                previous = Some(v);
                (format!("{v:.3}"), change)
            }
            (None, Some(e)) => (
                "not measured".to_string(),
                e.error.clone().unwrap_or_default().replace('|', "/"),
            ),
            (None, None) => ("not yet measured".to_string(), String::new()),
        };
        let subject: String = c.subject.chars().take(110).collect();
        let ellipsis = if c.subject.chars().count() > 110 {
            "..."
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "| {} | `{}` | {} | {} | {} | {}{} |",
            k + 1,
            &c.hash[..7],
            c.date.get(..10).unwrap_or(&c.date),
            figure,
            change,
            subject.replace('|', "/"),
            ellipsis
        );
    }
    s
}
