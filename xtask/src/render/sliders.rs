//! The backends in tiers, from the sliders record.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::format::{human_bytes, ratio_text};
use super::lab::comparison;
use crate::measure::Ratio;
use crate::measure::stats::{Interval, tiers};
use crate::record::LabRecord;
use crate::util::Result;

/// The backends in tiers: each one's ratio to the best (how many times
/// slower than the best it is, as best's seconds over its own, so 1 is
/// the best), geometric mean over positions, with interval.
pub fn sliders_tiers(r: &LabRecord, kind: &str) -> Result<String> {
    let c = comparison(r, "backends")?;
    let names: Vec<&str> = c.contenders.iter().map(|x| x.name.as_str()).collect();
    let ratios: Vec<Ratio> = names
        .iter()
        .map(|n| {
            c.timings
                .geomean_ratio(kind, n, &c.reference)
                .ok_or_else(|| format!("no {kind} rounds for {n}"))
        })
        .collect::<Result<_>>()?;
    let intervals: Vec<Interval> = ratios.iter().map(|x| x.interval).collect();
    let tier = tiers(&intervals, true);
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| {
        tier[a]
            .cmp(&tier[b])
            .then(intervals[b].median.total_cmp(&intervals[a].median))
    });
    let instr: BTreeMap<&str, f64> = names
        .iter()
        .filter_map(|n| {
            let v: Vec<f64> = r
                .instructions
                .iter()
                .filter(|i| i.engine == *n && i.kind == kind)
                .map(|i| i.per_node)
                .collect();
            crate::measure::stats::geomean(v).map(|g| (*n, g))
        })
        .collect();
    let mut s = String::new();
    writeln!(
        s,
        "| tier | backend | speed against {} | instructions per node | tables |",
        c.reference
    )
    .unwrap();
    writeln!(s, "| ---: | --- | ---: | ---: | --- |").unwrap();
    for i in order {
        let facts = r.backends.iter().find(|b| b.name == names[i]);
        let tables = facts.map_or("-".into(), |f| {
            if f.table_bytes == 0 {
                "none".to_string()
            } else {
                format!("{} ({})", human_bytes(f.table_bytes), f.fits)
            }
        });
        let shown = if names[i] == c.reference {
            "the reference".to_string()
        } else {
            ratio_text(&ratios[i])
        };
        writeln!(
            s,
            "| {} | `{}` | {} | {} | {} |",
            tier[i],
            names[i],
            shown,
            instr
                .get(names[i])
                .map_or("-".into(), |v| format!("{v:.2}")),
            tables
        )
        .unwrap();
    }
    Ok(s)
}
