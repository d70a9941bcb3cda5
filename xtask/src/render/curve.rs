//! The thread-curve tables of a `curve` record: perft's speed-up over one
//! thread per position, and the search's nodes per second and time to
//! depth.

use std::fmt::Write as _;

use super::format::{coverage_note, ratio_text};
use crate::measure::stats::{self, Interval};
use crate::measure::{Ratio, Timings};
use crate::record::{Comparison, LabRecord, SearchRun};
use crate::util::Result;

/// One row per thread count: speed-up over one thread (geometric mean
/// over the positions, with its interval), that speed-up per thread, and
/// each position's leaves per second.
pub fn perft_table(c: &Comparison) -> String {
    let t: &Timings = &c.timings;
    let mut s = String::from("| threads | speed-up over 1 thread | per thread |");
    for w in &t.workloads {
        write!(s, " {} d{}, Mnodes/s |", w.position, w.depth).unwrap();
    }
    s.push_str("\n| --- | --- | --- |");
    s.push_str(&" --- |".repeat(t.workloads.len()));
    s.push('\n');
    for x in &c.contenders {
        let threads = threads_of(&x.name);
        let speedup = if x.name == c.reference {
            "1 (reference)".to_string()
        } else {
            t.geomean_ratio(&t.workloads[0].kind, &x.name, &c.reference)
                .map_or("-".into(), |r| ratio_text(&r))
        };
        let per_thread = t
            .geomean_ratio(&t.workloads[0].kind, &x.name, &c.reference)
            .map_or("-".into(), |r| {
                format!("{:.0} %", 100.0 * r.interval.median / threads)
            });
        write!(s, "| {threads} | {speedup} | {per_thread} |").unwrap();
        for w in &t.workloads {
            let m = t.mnps(w, &x.name).map_or("-".into(), |v| format!("{v:.0}"));
            write!(s, " {m} |").unwrap();
        }
        s.push('\n');
    }
    write!(
        s,
        "\nSpeed-up: one thread's seconds over N threads', {}.\n",
        coverage_note(t)
    )
    .unwrap();
    s
}

/// "8 threads" -> 8.
fn threads_of(name: &str) -> f64 {
    name.split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1.0)
}

/// One row per thread count: the search's nodes per second (all threads)
/// and time to the bench depth, each over one thread's, round by round.
pub fn search_table(file: &str, r: &LabRecord) -> Result<String> {
    let one = r
        .search
        .iter()
        .find(|s| s.threads == 1)
        .ok_or_else(|| format!("{file} has no one-thread search run"))?;
    let nps = |s: &SearchRun| -> Vec<f64> {
        s.nodes
            .iter()
            .zip(&s.seconds)
            .map(|(&n, &t)| n as f64 / t)
            .collect()
    };
    let mut s = String::from(
        "| threads | Mnodes/s (all threads) | nodes/s over 1 thread | time to depth, speed-up over 1 thread |\n| --- | --- | --- | --- |\n",
    );
    for run in &r.search {
        let mnps = stats::median(&nps(run)) / 1e6;
        let (speed, depth) = if run.threads == 1 {
            ("1 (reference)".to_string(), "1 (reference)".to_string())
        } else {
            let per_round = |f: &dyn Fn(usize) -> f64| {
                Ratio::of(
                    (0..run.seconds.len().min(one.seconds.len()))
                        .map(f)
                        .collect(),
                )
            };
            let speed = per_round(&|i| nps(run)[i] / nps(one)[i]);
            let depth = per_round(&|i| one.seconds[i] / run.seconds[i]);
            (ratio_text(&speed), ratio_text(&depth))
        };
        writeln!(s, "| {} | {mnps:.2} | {speed} | {depth} |", run.threads).unwrap();
    }
    let rounds = one.seconds.len();
    let coverage = Interval::of(&vec![1.0; rounds]).coverage;
    write!(
        s,
        "\n`quince bench --depth {} --threads N` (the 12 bench positions; the search's own time and nodes as bench prints them), median of {rounds} rounds in rotating order; in brackets the order-statistic interval of the median (coverage {:.1} %).\n",
        one.depth,
        100.0 * coverage
    )
    .unwrap();
    Ok(s)
}
