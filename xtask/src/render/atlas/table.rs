//! `atlas.table`: one row per technique, one column per CPU, with its
//! in-generator tier and speed and its isolated rank.

use std::fmt::Write as _;

use super::{generator, isolated, names};
use crate::atlas::AtlasRecord;

pub(super) fn table_block(cpus: &[(&str, &AtlasRecord)]) -> String {
    let mut all: Vec<String> = Vec::new();
    for (_, r) in cpus {
        for n in names(r) {
            if !all.contains(&n) {
                all.push(n);
            }
        }
    }
    let views: Vec<_> = cpus
        .iter()
        .map(|(_, r)| {
            let g = r
                .generator
                .as_ref()
                .and_then(|t| generator(t, &names(r), "bulk"));
            (g, isolated(r).1)
        })
        .collect();
    // Rows in the first CPU's generator order (tier, then speed).
    if let Some((Some(g), _)) = views.first() {
        all.sort_by(|a, b| {
            let key = |n: &String| {
                (
                    g.tier.get(n).copied().unwrap_or(usize::MAX),
                    -g.ratio.get(n).map_or(0.0, |r| r.interval.median),
                )
            };
            let (ka, kb) = (key(a), key(b));
            ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
        });
    }
    let mut s = String::new();
    write!(s, "| technique |").unwrap();
    for (i, (_, r)) in cpus.iter().enumerate() {
        write!(s, " {}. {} |", i + 1, r.cpu).unwrap();
    }
    writeln!(s).unwrap();
    writeln!(s, "| --- |{}", " --- |".repeat(cpus.len())).unwrap();
    for n in &all {
        write!(s, "| `{n}` |").unwrap();
        for (g, rank) in &views {
            let generator = g.as_ref().and_then(|g| {
                let r = g.ratio.get(n)?;
                Some(format!("tier {}, {:.2}x", g.tier[n], r.interval.median))
            });
            let isolated = rank.get(n.as_str()).map(|k| format!("#{k}"));
            let cell = match (generator, isolated) {
                (Some(g), Some(i)) => format!("{g}; isolated {i}"),
                (None, Some(i)) => format!("isolated {i}"),
                (Some(g), None) => g,
                (None, None) => "-".into(),
            };
            write!(s, " {cell} |").unwrap();
        }
        writeln!(s).unwrap();
    }
    writeln!(
        s,
        "\nIn the generator: bulk perft of the six standard positions, the technique's speed against that CPU's fastest technique (its geometric mean of median seconds over theirs: 1.00x is the fastest), and its tier (techniques whose intervals overlap share a tier). Isolated: its rank by median queen lookups per second on that CPU (1 = fastest), one lookup at a time where the record has that mode (batch in records before it: see each CPU's figures below)."
    )
    .unwrap();
    s
}
