//! `atlas.cpus`: the CPU models the atlas covers, each with its record,
//! how long its run took and how far its rounds spread, and the models
//! seen in other records that have none yet.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::{RoundRange, ranked_rates};
use crate::atlas::AtlasRecord;
use crate::measure::host::family_name;
use crate::measure::stats::median;
use crate::record::Records;
use crate::render::format::record_link;

/// How far one technique's isolated rounds spread: their range over
/// their median (0.1 = the rounds differ by a tenth of the median).
fn spread(rounds: &[f64]) -> Option<f64> {
    if rounds.len() < 2 {
        return None;
    }
    let r = RoundRange::of(rounds)?;
    (r.median > 0.0).then(|| (r.hi - r.lo) / r.median)
}

/// The record's typical round-to-round spread: the median over its
/// techniques of [`spread`] in the ranked mode. It says how much a CPU's
/// figures move between rounds on that host (a quiet host: a few per
/// cent), so a reader knows why one CPU's tiers are broader than
/// another's.
fn typical_spread(r: &AtlasRecord) -> Option<f64> {
    let all: Vec<f64> = ranked_rates(r)
        .0
        .values()
        .filter_map(|v| spread(v))
        .collect();
    (!all.is_empty()).then(|| median(&all))
}

/// " (builds 9, ..., peers 4)": where a run's minutes went, for the
/// records that keep it (format 4).
fn phases_text(r: &AtlasRecord) -> String {
    if r.phase_seconds.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = r
        .phase_seconds
        .iter()
        .map(|(name, seconds)| format!("{name} {:.1}", seconds / 60.0))
        .collect();
    format!(" ({})", parts.join(", "))
}

pub(super) fn cpus_block(cpus: &[(&str, &AtlasRecord)], records: &Records, page: &str) -> String {
    let mut s = String::new();
    for (i, (file, r)) in cpus.iter().enumerate() {
        writeln!(
            s,
            "{}. **{}** ({}, {} logical cores): commit `{}`, {}, {}, timed with `RUSTFLAGS='{}'`{}; {} techniques, {} left out{}; record {}. The run took {:.0} minutes{}{}.",
            i + 1,
            r.cpu,
            r.host.cpu_model_name,
            r.host.logical_cores,
            r.commit.short,
            r.date_utc.get(..10).unwrap_or(""),
            r.rustc,
            r.timing_rustflags,
            r.instruction_rustflags
                .as_ref()
                .map_or(String::new(), |f| format!(", instructions counted with `RUSTFLAGS='{f}'`")),
            r.techniques.len(),
            r.left_out.len(),
            if r.left_out.is_empty() {
                String::new()
            } else {
                format!(
                    " ({})",
                    r.left_out
                        .iter()
                        .map(|(n, why)| format!("`{n}`: needs {why}"))
                        .collect::<Vec<_>>()
                        .join("; ")
                )
            },
            record_link(page, file),
            r.run_seconds / 60.0,
            phases_text(r),
            typical_spread(r).map_or(String::new(), |x| format!(
                "; its isolated rounds spread by {:.0} % of their median (the median over techniques of each one's range)",
                100.0 * x
            ))
        )
        .unwrap();
    }
    let covered: BTreeSet<&str> = cpus.iter().map(|(_, r)| r.cpu.as_str()).collect();
    let mut seen: BTreeSet<String> = records
        .lab
        .iter()
        .map(|(_, r)| family_name(&r.host))
        .collect();
    seen.retain(|c| !covered.contains(c.as_str()));
    if seen.is_empty() {
        writeln!(
            s,
            "\nEvery CPU model in the lab's other records is covered."
        )
        .unwrap();
    } else {
        writeln!(
            s,
            "\nNot yet covered (CPU models of other lab records in `reports/data/`, no atlas record): {}.",
            seen.into_iter().collect::<Vec<_>>().join("; ")
        )
        .unwrap();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::spread;

    #[test]
    fn spread_is_range_over_median() {
        let s = spread(&[90.0, 100.0, 120.0]).unwrap();
        assert!((s - 0.3).abs() < 1e-12, "{s}");
        assert_eq!(spread(&[100.0]), None);
        assert_eq!(spread(&[0.0, 0.0]), None);
    }
}
