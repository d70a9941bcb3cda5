//! The Syzygy probing table: the newest clean record per CPU model.

use std::collections::BTreeMap;

use crate::measure::host::family_name;
use crate::measure::stats::Interval;
use crate::record::syzygy::SyzygyRecord;
use crate::render::format::{human_rate, record_link};
use crate::util::Result;

pub fn block(name: &str, records: &[(String, SyzygyRecord)], page: &str) -> Option<Result<String>> {
    match name {
        "syzygy.table" => Some(Ok(table(records, page))),
        _ => None,
    }
}

/// `1.18 M [1.10 M, 1.21 M]`: the median and its interval.
fn rate(values: impl Iterator<Item = f64>) -> String {
    let values: Vec<f64> = values.collect();
    let i = Interval::of(&values);
    format!(
        "{} [{}, {}]",
        human_rate(i.median),
        human_rate(i.lo),
        human_rate(i.hi)
    )
}

fn table(records: &[(String, SyzygyRecord)], page: &str) -> String {
    let mut newest: BTreeMap<String, (&str, &SyzygyRecord)> = BTreeMap::new();
    for (file, r) in records.iter().filter(|(_, r)| !r.commit.dirty) {
        let slot = newest.entry(family_name(&r.host)).or_insert((file, r));
        if r.date_utc > slot.1.date_utc {
            *slot = (file, r);
        }
    }
    if newest.is_empty() {
        return "No Syzygy record yet: `cargo run --release -p xtask -- syzygy` writes one.\n"
            .into();
    }
    let mut out = String::from(
        "| CPU | commit | WDL probes per second | DTZ probes per second | rounds | positions per round | record |\n\
         | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for (cpu, (file, r)) in &newest {
        out.push_str(&format!(
            "| {cpu} | `{}` | {} | {} | {} | {} | {} |\n",
            &r.commit.short[..7.min(r.commit.short.len())],
            rate(r.rounds.iter().map(|x| x.wdl_per_second)),
            rate(r.rounds.iter().map(|x| x.dtz_per_second)),
            r.rounds.len(),
            r.positions_per_round,
            record_link(page, file),
        ));
    }
    out
}
