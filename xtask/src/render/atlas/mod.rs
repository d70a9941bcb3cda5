//! `reports/atlas.md`: every sliding-attack technique on every CPU model
//! with an atlas record ([`crate::atlas`]), the newest clean record per
//! model. Blocks:
//!
//! * `atlas.cpus`: the CPU models covered, each with its record, and the
//!   models seen in other records that have no atlas record yet;
//! * `atlas.table`: one row per technique, one column per CPU: in-generator
//!   tier and speed against that CPU's fastest technique (bulk perft), and
//!   the isolated rank;
//! * `atlas.best`: per CPU, the fastest technique overall and the fastest
//!   portable one (no BMI2, AVX2, AVX-512 or GFNI needed), and where the
//!   default `hq` stands;
//! * `atlas.detail N`: the N-th CPU's full figures: isolated rate with
//!   interval, instructions per lookup, tables, the reference's figure for
//!   the same technique, and bulk and full-make ratios with tiers;
//! * `atlas.lead`: per CPU, the generator against the C/C++ perft programs
//!   from the newest peers record on that CPU model.

mod best;
mod cpus;
mod detail;
mod lead;
mod reference_gap;
mod table;

use std::collections::BTreeMap;

use crate::atlas::AtlasRecord;
use crate::atlas::reference::ReferenceRecord;
use crate::measure::stats::{Interval, median, tiers};
use crate::measure::{Ratio, Timings};
use crate::record::Records;
use crate::util::Result;

pub use lead::{PositionLead, leads};

/// The newest clean atlas record of each CPU model, in order of first
/// appearance.
pub fn per_cpu(records: &Records) -> Vec<(&str, &AtlasRecord)> {
    let mut newest: BTreeMap<&str, (&str, &AtlasRecord)> = BTreeMap::new();
    for (file, r) in &records.atlas {
        if r.commit.dirty {
            continue;
        }
        let slot = newest.entry(r.cpu.as_str()).or_insert((file, r));
        if r.date_utc > slot.1.date_utc {
            *slot = (file, r);
        }
    }
    let mut out: Vec<_> = newest.into_values().collect();
    out.sort_by(|a, b| a.1.date_utc.cmp(&b.1.date_utc));
    out
}

/// Bulk perft of technique `a` against `b` (how many times faster `a`
/// is) in the newest clean atlas record of the CPU model `cpu`, with that
/// record's file: for pages that quote a build other than the default and
/// must say where the default stands.
pub fn bulk_ratio<'a>(
    records: &'a Records,
    cpu: &str,
    a: &str,
    b: &str,
) -> Option<(&'a str, Ratio)> {
    let (file, r) = per_cpu(records).into_iter().find(|(_, r)| r.cpu == cpu)?;
    let ratio = r.generator.as_ref()?.geomean_ratio("bulk", a, b)?;
    Some((file, ratio))
}

/// One CPU's in-generator figures for one perft kind: each technique's
/// speed against the fastest (its seconds over the technique's, so 1 is
/// the fastest), and tiers.
struct Generator {
    fastest: String,
    ratio: BTreeMap<String, Ratio>,
    tier: BTreeMap<String, usize>,
}

fn generator(t: &Timings, names: &[String], kind: &str) -> Option<Generator> {
    let medians: Vec<(String, f64)> = names
        .iter()
        .filter_map(|n| Some((n.clone(), t.geomean_median_seconds(kind, n)?)))
        .collect();
    let fastest = medians.iter().min_by(|a, b| a.1.total_cmp(&b.1))?.0.clone();
    let ratio: BTreeMap<String, Ratio> = medians
        .iter()
        .filter_map(|(n, _)| Some((n.clone(), t.geomean_ratio(kind, n, &fastest)?)))
        .collect();
    let order: Vec<&String> = ratio.keys().collect();
    let intervals: Vec<Interval> = order.iter().map(|n| ratio[*n].interval).collect();
    let tier = tiers(&intervals, true)
        .into_iter()
        .zip(&order)
        .map(|(t, n)| ((*n).clone(), t))
        .collect();
    Some(Generator {
        fastest,
        ratio,
        tier,
    })
}

/// The mode the isolated rank reads: one lookup at a time, as a move
/// generator asks for them, where the record has it (format 2); batch in
/// format 1 records, which have nothing else.
fn ranked_rates(r: &AtlasRecord) -> (&BTreeMap<String, Vec<f64>>, &'static str) {
    if r.isolated.one_at_a_time.is_empty() {
        (&r.isolated.mqueens_per_s, "batch")
    } else {
        (&r.isolated.one_at_a_time, "one at a time")
    }
}

/// Medians with ranges of one mode's rates.
fn medians(rates: &BTreeMap<String, Vec<f64>>) -> BTreeMap<&str, Interval> {
    rates
        .iter()
        .map(|(n, v)| (n.as_str(), Interval::of(v)))
        .collect()
}

/// Isolated medians and ranks (1 = highest rate), in [`ranked_rates`]'s
/// mode.
fn isolated(r: &AtlasRecord) -> (BTreeMap<&str, Interval>, BTreeMap<&str, usize>) {
    let rates = medians(ranked_rates(r).0);
    let mut order: Vec<&str> = rates.keys().copied().collect();
    order.sort_by(|a, b| rates[b].median.total_cmp(&rates[a].median));
    let rank = order.iter().enumerate().map(|(i, n)| (*n, i + 1)).collect();
    (rates, rank)
}

fn names(r: &AtlasRecord) -> Vec<String> {
    r.techniques.iter().map(|t| t.name.clone()).collect()
}

pub fn block(name: &str, args: &[&str], records: &Records, page: &str) -> Option<Result<String>> {
    let cpus = per_cpu(records);
    let none = || {
        Ok("No clean atlas record in `reports/data/` yet (`cargo run --release -p xtask -- atlas`).\n".to_string())
    };
    Some(match name {
        "atlas.cpus" if cpus.is_empty() => none(),
        "atlas.cpus" => Ok(cpus::cpus_block(&cpus, records, page)),
        "atlas.table" if cpus.is_empty() => none(),
        "atlas.table" => Ok(table::table_block(&cpus)),
        "atlas.best" if cpus.is_empty() => none(),
        "atlas.best" => Ok(best::best_block(&cpus)),
        "atlas.lead" => Ok(lead::lead_block(&cpus, records, page)),
        "atlas.detail" if cpus.is_empty() => none(),
        "atlas.detail" => (|| {
            let index: usize = args
                .first()
                .and_then(|a| a.parse().ok())
                .ok_or("atlas.detail wants the CPU's number (1 = first covered)")?;
            let (file, r) = cpus
                .get(index.wrapping_sub(1))
                .ok_or_else(|| format!("atlas.detail {index}: no such CPU in the atlas"))?;
            let repeats: Vec<&ReferenceRecord> = records
                .atlas_reference
                .iter()
                .map(|(_, x)| x)
                .filter(|x| x.cpu == r.cpu)
                .collect();
            detail::detail_block(file, r, &repeats, page)
        })(),
        _ => return None,
    })
}

/// A figure's median over rounds and the range of the rounds.
pub(super) struct RoundRange {
    pub(super) median: f64,
    pub(super) lo: f64,
    pub(super) hi: f64,
}

impl RoundRange {
    /// None for no rounds.
    pub(super) fn of(rounds: &[f64]) -> Option<RoundRange> {
        if rounds.is_empty() {
            return None;
        }
        let (lo, hi) = rounds
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
                (lo.min(x), hi.max(x))
            });
        Some(RoundRange {
            median: median(rounds),
            lo,
            hi,
        })
    }
}
