//! `atlas.best`: per CPU, the fastest technique overall and the fastest
//! portable one, in the generator and in isolation, and where the default
//! `hq` stands.

use std::fmt::Write as _;

use super::{generator, isolated, names, ranked_rates};
use crate::atlas::AtlasRecord;

/// Whether a technique runs on plain x86-64: it needs none of BMI2, AVX2,
/// AVX-512 or GFNI (`codegen/src/techniques.rs`).
fn portable(name: &str) -> bool {
    crate::util::backend_needs(name).is_empty()
}

pub(super) fn best_block(cpus: &[(&str, &AtlasRecord)]) -> String {
    let mut s = String::new();
    for (i, (_, r)) in cpus.iter().enumerate() {
        let (rates, rank) = isolated(r);
        let top_isolated = rank.iter().find(|(_, k)| **k == 1).map(|(n, _)| *n);
        let portable_isolated = rank
            .iter()
            .filter(|(n, _)| portable(n))
            .min_by_key(|(_, k)| **k)
            .map(|(n, _)| *n);
        let g = r
            .generator
            .as_ref()
            .and_then(|t| generator(t, &names(r), "bulk"));
        let mut line = format!("{}. **{}**: ", i + 1, r.cpu);
        match &g {
            Some(g) => {
                let portable = g
                    .ratio
                    .iter()
                    .filter(|(n, _)| portable(n))
                    .max_by(|a, b| a.1.interval.median.total_cmp(&b.1.interval.median))
                    .map(|(n, r)| (n.clone(), r.interval.median));
                write!(line, "in the generator the fastest is `{}`", g.fastest).unwrap();
                if let Some((p, ratio)) = portable {
                    write!(
                        line,
                        ", the fastest portable `{p}` ({ratio:.2}x of it, tier {})",
                        g.tier[&p]
                    )
                    .unwrap();
                }
                if let (Some(hq), Some(t)) = (g.ratio.get("hq"), g.tier.get("hq")) {
                    let better = g.tier.values().filter(|x| **x < *t).count();
                    write!(
                        line,
                        "; the default `hq` runs at {:.2}x of the fastest, tier {t} (techniques in better tiers: {better})",
                        hq.interval.median,
                    )
                    .unwrap();
                }
                line.push_str(". ");
            }
            None => line.push_str("no in-generator view in this record. "),
        }
        if let (Some(top), Some(port)) = (top_isolated, portable_isolated) {
            write!(
                line,
                "In isolation ({}) the fastest is `{top}` ({:.0} MQueens/s), the fastest portable `{port}` ({:.0} MQueens/s).",
                ranked_rates(r).1,
                rates[top].median,
                rates[port].median
            )
            .unwrap();
        }
        writeln!(s, "{line}").unwrap();
    }
    s
}
