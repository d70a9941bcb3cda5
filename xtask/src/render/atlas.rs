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

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::format::{capitalise, coverage_note, human_bytes, ratio_text, record_link};
use crate::atlas::AtlasRecord;
use crate::atlas::reference::{Pooled, ReferenceRecord, ReferenceRun, pooled};
use crate::measure::host::family_name;
use crate::measure::stats::{Interval, median, tiers};
use crate::measure::{Ratio, Timings};
use crate::record::{Comparison, Records};
use crate::util::Result;

/// Whether a technique runs on plain x86-64: it needs none of BMI2, AVX2,
/// AVX-512 or GFNI (`codegen/src/techniques.rs`).
fn portable(name: &str) -> bool {
    crate::util::backend_needs(name).is_empty()
}

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
        "atlas.cpus" => Ok(cpus_block(&cpus, records, page)),
        "atlas.table" if cpus.is_empty() => none(),
        "atlas.table" => Ok(table_block(&cpus)),
        "atlas.best" if cpus.is_empty() => none(),
        "atlas.best" => Ok(best_block(&cpus)),
        "atlas.lead" => Ok(lead_block(&cpus, records, page)),
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
            detail_block(file, r, &repeats, page)
        })(),
        _ => return None,
    })
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

fn cpus_block(cpus: &[(&str, &AtlasRecord)], records: &Records, page: &str) -> String {
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

fn table_block(cpus: &[(&str, &AtlasRecord)]) -> String {
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

fn best_block(cpus: &[(&str, &AtlasRecord)]) -> String {
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

/// The reference's figure for Quince's technique `n`: the atlas record's
/// own run and every repeated run of the same binary on this CPU model,
/// pooled (median and range).
fn reference_rate<'a>(
    own: Option<&'a ReferenceRun>,
    repeated: impl Iterator<Item = &'a ReferenceRun>,
    n: &str,
) -> Option<Pooled> {
    pooled(own.into_iter().chain(repeated), n)
}

fn detail_block(
    file: &str,
    r: &AtlasRecord,
    repeats: &[&ReferenceRecord],
    page: &str,
) -> Result<String> {
    let default_runs = || repeats.iter().flat_map(|x| x.runs.iter());
    let scalar_runs = || repeats.iter().flat_map(|x| x.scalar_runs.iter());
    let names = names(r);
    let (rates, rank) = isolated(r);
    let (_, ranked_mode) = ranked_rates(r);
    let batch = medians(&r.isolated.mqueens_per_s);
    let grouped = medians(&r.isolated.grouped);
    let modes = !r.isolated.one_at_a_time.is_empty();
    let bulk = r
        .generator
        .as_ref()
        .and_then(|t| generator(t, &names, "bulk"));
    let full = r
        .generator
        .as_ref()
        .and_then(|t| generator(t, &names, "full"));
    let mut order: Vec<&String> = names.iter().collect();
    order.sort_by_key(|n| rank.get(n.as_str()).copied().unwrap_or(usize::MAX));
    let mut s = String::new();
    writeln!(
        s,
        "{} ({}), record {}.\n",
        r.cpu,
        r.host.cpu_model_name,
        record_link(page, file)
    )
    .unwrap();
    if modes {
        writeln!(
            s,
            "| isolated rank | technique | MQueens/s one at a time | batch | grouped | instructions per lookup | grouped: Quince / reference | tables | reference, vectorisers off | Quince grouped / it | reference, its default build | Quince batch / it | bulk perft | full-make perft |"
        )
        .unwrap();
        writeln!(
            s,
            "| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- | --- |"
        )
        .unwrap();
    } else {
        writeln!(
            s,
            "| isolated rank | technique | MQueens/s | instructions per lookup | tables | reference (Chess_Movegen) | Quince / reference | bulk perft | full-make perft |"
        )
        .unwrap();
        writeln!(
            s,
            "| ---: | --- | ---: | ---: | --- | ---: | ---: | --- | --- |"
        )
        .unwrap();
    }
    // Techniques below 0.9x of the reference, like with like.
    let mut behind: Vec<String> = Vec::new();
    for n in order {
        let facts = r.techniques.iter().find(|t| &t.name == n);
        let tables = facts.map_or("-".into(), |f| {
            if f.table_bytes == 0 {
                "none".to_string()
            } else {
                format!("{} ({})", human_bytes(f.table_bytes), f.fits)
            }
        });
        let instr = facts
            .and_then(|f| f.instructions_per_lookup)
            .map_or("-".into(), |v| format!("{v:.1}"));
        // Instructions per grouped lookup, Quince's and the reference's.
        let (grouped_instr, reference_instr) = grouped_instructions(r, n);
        let instr_pair = match (grouped_instr, reference_instr) {
            (None, None) => "-".to_string(),
            (q, x) => format!(
                "{} / {}",
                q.map_or("-".into(), |v| format!("{v:.1}")),
                x.map_or("-".into(), |v| format!("{v:.1}"))
            ),
        };
        let rate = &rates[n.as_str()];
        let against = |ours: Option<f64>, theirs: &Option<Pooled>| match (ours, theirs) {
            (Some(q), Some(p)) if p.runs > 1 => (
                format!("{:.0} [{:.0}-{:.0}] ({})", p.median, p.lo, p.hi, p.row),
                format!("{:.2}x", q / p.median),
            ),
            (Some(q), Some(p)) => (
                format!("{:.0} ({})", p.median, p.row),
                format!("{:.2}x", q / p.median),
            ),
            _ => ("-".to_string(), "-".to_string()),
        };
        // Quince's ratio against the reference's slowest and fastest run.
        let spread = |q: f64, p: &Pooled| {
            if p.runs > 1 {
                format!(
                    " ({:.2}-{:.2}x over its {} runs)",
                    q / p.hi,
                    q / p.lo,
                    p.runs
                )
            } else {
                String::new()
            }
        };
        let view = |g: &Option<Generator>| {
            g.as_ref().and_then(|g| {
                let ratio = g.ratio.get(n)?;
                Some(if *n == g.fastest {
                    format!("tier {}, the fastest", g.tier[n])
                } else {
                    format!("tier {}, {}", g.tier[n], ratio_text(ratio))
                })
            })
        };
        let batch_rate = batch.get(n.as_str()).map(|i| i.median);
        let default_ref = reference_rate(r.reference.as_ref(), default_runs(), n);
        let (ref_batch, vs_batch) = against(batch_rate, &default_ref);
        let cell = |i: Option<&Interval>| {
            i.map_or("-".into(), |i| {
                format!("{:.0} ({:.0}-{:.0})", i.median, i.lo, i.hi)
            })
        };
        if modes {
            let scalar = reference_rate(r.reference_scalar.as_ref(), scalar_runs(), n);
            // Like with like: the reference's harness holds an occupancy
            // for twelve lookups, as Quince's grouped mode does, and its
            // scalar build vectorises nothing, as the grouped mode's
            // barrier keeps lookups apart.
            let grouped_rate = grouped.get(n.as_str()).map(|i| i.median);
            let (ref_scalar, vs_scalar) = against(grouped_rate, &scalar);
            let like = scalar
                .as_ref()
                .zip(grouped_rate)
                .map(|(p, q)| (q / p.median, spread(q, p)));
            let batch_like = default_ref
                .as_ref()
                .zip(batch_rate)
                .map(|(p, q)| (q / p.median, spread(q, p)));
            if like.as_ref().is_some_and(|x| x.0 < 0.9)
                || batch_like.as_ref().is_some_and(|x| x.0 < 0.9)
            {
                let mut parts = Vec::new();
                if let Some((x, range)) = &like {
                    parts.push(format!("{x:.2}x grouped{range}"));
                }
                if let Some((x, range)) = &batch_like {
                    parts.push(format!("{x:.2}x in batch{range}"));
                }
                if let (Some(q), Some(x)) = (grouped_instr, reference_instr) {
                    parts.push(work_verdict(
                        q,
                        x,
                        "the tables' layout and size, or the batch's vectorisation",
                    ));
                }
                if let Some(x) = same_workload_ratio(r, n) {
                    // The verdict is about the grouped gap: the same
                    // inputs are the grouped mode's, nothing vectorised.
                    let verdict = match &like {
                        Some((g, _)) if *g < 0.9 && x.median >= 0.9 => {
                            ": the grouped gap is the harness, not the code"
                        }
                        Some((g, _)) if *g < 0.9 => ": the code is slower in the same inputs too",
                        _ => "",
                    };
                    parts.push(format!(
                        "against the reference's own code in Quince's grouped inputs, round by round, {}{verdict}",
                        ratio_range(&x)
                    ));
                }
                behind.push(format!("`{n}` ({})", parts.join(", ")));
            }
            writeln!(
                s,
                "| {} | `{n}` | {} | {} | {} | {instr} | {instr_pair} | {tables} | {ref_scalar} | {vs_scalar} | {ref_batch} | {vs_batch} | {} | {} |",
                rank[n.as_str()],
                cell(Some(rate)),
                batch.get(n.as_str()).map_or("-".into(), |i| format!("{:.0}", i.median)),
                grouped.get(n.as_str()).map_or("-".into(), |i| format!("{:.0}", i.median)),
                view(&bulk).unwrap_or("-".into()),
                view(&full).unwrap_or("-".into()),
            )
            .unwrap();
        } else {
            writeln!(
                s,
                "| {} | `{n}` | {} | {instr} | {tables} | {ref_batch} | {vs_batch} | {} | {} |",
                rank[n.as_str()],
                cell(Some(rate)),
                view(&bulk).unwrap_or("-".into()),
                view(&full).unwrap_or("-".into()),
            )
            .unwrap();
        }
    }
    let mut notes = vec![if modes {
        format!(
            "isolated: {} queen lookups per run (grouped: 341 occupancies of twelve squares per pass, about as many), median of {} rounds (in brackets the range of the rounds), ranked {ranked_mode}; batch lets the compiler vectorise across lookups, one at a time keeps each lookup whole, grouped holds an occupancy for twelve lookups as the reference's harness does; instructions per lookup {}",
            r.isolated.lookups_per_run,
            r.isolated.rounds,
            r.instruction_mode
                .as_deref()
                .map_or("not counted".to_string(), |m| format!("counted {m}"))
        )
    } else {
        format!(
            "isolated: {} queen lookups per run, median of {} rounds (in brackets the range of the rounds)",
            r.isolated.lookups_per_run, r.isolated.rounds
        )
    }];
    if let Some(t) = &r.generator {
        let runs: Vec<f64> = t
            .seconds
            .values()
            .flat_map(|m| m.values().flatten().copied())
            .collect();
        let short = runs.iter().filter(|s| **s < t.min_seconds).count();
        let shortest = runs.iter().copied().fold(f64::INFINITY, f64::min);
        let short_note = if short == 0 {
            String::new()
        } else {
            format!(
                " ({short} of {} runs fell short of it, the shortest {shortest:.2} s: the depths were calibrated on the techniques fastest in a probe, and a few ran faster still)",
                runs.len()
            )
        };
        notes.push(format!(
            "bulk and full-make perft: speed against the fastest technique, geometric mean over the six standard positions, {}{short_note}",
            coverage_note(t)
        ));
    }
    match (&r.reference, &r.reference_scalar) {
        (Some(x), scalar) => {
            let mut note = format!(
                "reference: {}'s own single-threaded figure on this CPU (its own random workload, twelve lookups per occupancy, and cache-pressure simulation), {}; Quince / reference divides the two rates",
                x.program,
                match repeats
                    .iter()
                    .map(|x| x.runs.len().max(x.scalar_runs.len()))
                    .sum::<usize>()
                {
                    0 => "run once".to_string(),
                    n => format!(
                        "the median of this record's run and {n} more of the same binary on this CPU model (`atlas --reference-repeat`; in square brackets the range of the runs)"
                    ),
                }
            );
            if let Some(y) = scalar {
                write!(
                    note,
                    "; its build with clang's vectorisers off ({}) is the like-for-like yardstick of the grouped mode (twelve lookups per occupancy, none vectorised with another)",
                    y.program
                )
                .unwrap();
            }
            notes.push(note);
        }
        (None, _) => notes.push("no reference run in this record".into()),
    }
    if let Some(x) = &r.reference_instructions {
        notes.push(format!(
            "grouped: Quince / reference: instructions per grouped lookup under callgrind, Quince's build at `RUSTFLAGS='{}'` and the reference's own code (Chess_Movegen `{}`) called by `{}` in the same workload, built with {} and `{}`, {}",
            r.instruction_rustflags.as_deref().unwrap_or("-"),
            &x.source_commit[..x.source_commit.len().min(12)],
            x.driver,
            x.compiler,
            x.flags.join(" "),
            harness_loop(x.harness_loop.as_deref())
        ));
    }
    writeln!(s, "\n{}.", capitalise(&notes.join("; "))).unwrap();
    if let Some(x) = &r.reference_same_workload {
        let mut cells = Vec::new();
        let mut short = Vec::new();
        for n in x.mqueens_per_s.keys() {
            if let Some(ratio) = same_workload_ratio(r, n) {
                if ratio.median < 0.9 {
                    short.push(short_in_same_inputs(r, n));
                }
                cells.push(format!("`{n}` {}", ratio_range(&ratio)));
            }
        }
        let short = match short.len() {
            0 => "0".to_string(),
            k => format!("{k} ({})", short.join("; ")),
        };
        writeln!(
            s,
            "\nThe reference's own code in Quince's own inputs (the driver `{}`, Chess_Movegen `{}`, built with `{}`, {}, over exactly the grouped inputs of `quince lookups`, each run right after Quince's grouped run of the same technique in the same round; Quince's rate over its, median of the rounds' ratios, the range in brackets): {}. Below 0.9x here: {short} of {}.",
            x.driver,
            &x.source_commit[..x.source_commit.len().min(12)],
            x.flags.join(" "),
            harness_loop(x.harness_loop.as_deref()),
            cells.join(", "),
            cells.len()
        )
        .unwrap();
    }
    if modes && r.reference.is_some() {
        if behind.is_empty() {
            writeln!(
                s,
                "\nEvery technique both have is at least 0.9x of the reference, like with like."
            )
            .unwrap();
        } else {
            writeln!(
                s,
                "\nBelow 0.9x of the reference, like with like (grouped against its build with the vectorisers off, batch against its default build): {}.",
                behind.join("; ")
            )
            .unwrap();
        }
    }
    Ok(s)
}

/// How the reference driver's own loops ran, as a record states it; older
/// records do not, and their driver left the loops to `-funroll-loops`.
fn harness_loop(stated: Option<&str>) -> String {
    match stated {
        Some(how) => format!("the driver's loops {how}"),
        None => "the driver's loops left to `-funroll-loops`, which wrote out some techniques' twelve lookups per occupancy while Quince's grouped loop stays rolled (for those, the reference's figures carry less loop work than Quince's)".into(),
    }
}

/// Quince's grouped rate over the reference's code in the same inputs,
/// round by round (the two ran back to back in each round): the median
/// and the range of the rounds.
fn same_workload_ratio(r: &AtlasRecord, technique: &str) -> Option<RoundRange> {
    let theirs = r
        .reference_same_workload
        .as_ref()?
        .mqueens_per_s
        .get(technique)?;
    let ours = r.isolated.grouped.get(technique)?;
    let rounds: Vec<f64> = ours
        .iter()
        .zip(theirs)
        .filter(|(_, t)| **t > 0.0)
        .map(|(q, t)| q / t)
        .collect();
    RoundRange::of(&rounds)
}

/// Instructions per grouped lookup of `technique`: Quince's and the
/// reference's own code's, where the record has them.
fn grouped_instructions(r: &AtlasRecord, technique: &str) -> (Option<f64>, Option<f64>) {
    let ours = r
        .techniques
        .iter()
        .find(|t| t.name == technique)
        .and_then(|t| t.instructions_per_grouped_lookup);
    let theirs = r
        .reference_instructions
        .as_ref()
        .and_then(|x| x.per_lookup.get(technique).copied());
    (ours, theirs)
}

/// What two instruction counts say of a gap in speed: more work per
/// lookup (Quince's count over 5 % above the reference's), or the same
/// work, so the time goes to waiting on what `waiting_on` names.
fn work_verdict(quince: f64, reference: f64, waiting_on: &str) -> String {
    let counts = format!(
        "{quince:.1} instructions per grouped lookup against the reference's {reference:.1}"
    );
    if quince > reference * 1.05 {
        format!("{counts}: more work per lookup")
    } else {
        format!("{counts}: no more work per lookup, so the gap is in waiting ({waiting_on})")
    }
}

/// A technique below 0.9x of the reference's code in the same inputs,
/// with what its instruction counts say of the gap. Those inputs are
/// grouped and nothing is vectorised, so the same work means waiting on
/// the tables.
fn short_in_same_inputs(r: &AtlasRecord, technique: &str) -> String {
    match grouped_instructions(r, technique) {
        (Some(q), Some(x)) => format!(
            "`{technique}`, {}",
            work_verdict(q, x, "the tables' layout and size")
        ),
        _ => format!("`{technique}`, no instruction counts in this record"),
    }
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

/// "1.02x (0.95-1.10x)": a median ratio and the range of its rounds.
fn ratio_range(x: &RoundRange) -> String {
    format!("{:.2}x ({:.2}-{:.2}x)", x.median, x.lo, x.hi)
}

/// The newest clean comparison with the C/C++ programs on the CPU model
/// `cpu`: a peers record (`report`) or an atlas record that ran the lead
/// itself (format 4), as (file, commit, rustflags, comparison).
fn newest_lead<'a>(
    cpu: &str,
    records: &'a Records,
) -> Option<(&'a str, &'a str, &'a str, &'a Comparison)> {
    // (date, file, commit, rustflags, the comparison)
    let from_peers = records
        .lab
        .iter()
        .filter(|(_, r)| r.kind == "peers" && !r.commit.dirty && family_name(&r.host) == cpu)
        .filter_map(|(file, r)| {
            Some((
                r.date_utc.as_str(),
                file.as_str(),
                r.commit.short.as_str(),
                r.toolchain.rustflags.as_str(),
                r.comparison("process")?,
            ))
        });
    let from_atlas = records
        .atlas
        .iter()
        .filter(|(_, r)| !r.commit.dirty && r.cpu == cpu)
        .filter_map(|(file, r)| {
            Some((
                r.date_utc.as_str(),
                file.as_str(),
                r.commit.short.as_str(),
                r.timing_rustflags.as_str(),
                r.peers.as_ref()?,
            ))
        });
    let (_, file, commit, rustflags, c) =
        from_peers.chain(from_atlas).max_by(|a, b| a.0.cmp(b.0))?;
    Some((file, commit, rustflags, c))
}

/// Quince against the best C/C++ program on one standard position.
pub struct PositionLead {
    pub position: String,
    /// The C/C++ program Quince is compared with there (the fastest).
    pub peer: String,
    /// How many times as fast Quince is.
    pub ratio: Ratio,
}

/// Quince against the best C/C++ program on each standard position of a
/// comparison (bulk perft).
fn best_peer_ratios(c: &Comparison) -> Vec<PositionLead> {
    let peers = c.others();
    let mut out = Vec::new();
    for w in c.timings.workloads.iter().filter(|w| w.kind == "bulk") {
        let best = peers
            .iter()
            .filter_map(|p| Some((*p, c.timings.ratio(&w.id, &c.reference, p)?)))
            .min_by(|a, b| a.1.interval.median.total_cmp(&b.1.interval.median));
        if let Some((p, ratio)) = best {
            out.push(PositionLead {
                position: w.position.clone(),
                peer: p.to_string(),
                ratio,
            });
        }
    }
    out
}

/// Per atlas CPU model (in the atlas's order): Quince's lead on each
/// standard position, from [`newest_lead`] (an empty list where there is
/// none), for pages that weigh the lead against its target.
pub fn leads(records: &Records) -> Vec<(String, Vec<PositionLead>)> {
    per_cpu(records)
        .into_iter()
        .map(|(_, atlas)| {
            let cells = newest_lead(&atlas.cpu, records)
                .map(|(_, _, _, c)| best_peer_ratios(c))
                .unwrap_or_default();
            (atlas.cpu.clone(), cells)
        })
        .collect()
}

/// Per CPU: Quince's fastest build against the best C/C++ peer on each
/// standard position, from the newest clean record on that model that
/// has the comparison ([`newest_lead`]).
fn lead_block(cpus: &[(&str, &AtlasRecord)], records: &Records, page: &str) -> String {
    let mut s = String::new();
    for (i, (_, atlas)) in cpus.iter().enumerate() {
        let Some((file, commit, rustflags, c)) = newest_lead(&atlas.cpu, records) else {
            writeln!(
                s,
                "{}. **{}**: no comparison with the C/C++ programs on this CPU model yet (`atlas` or `report` with them built).",
                i + 1,
                atlas.cpu
            )
            .unwrap();
            continue;
        };
        let cells: Vec<String> = best_peer_ratios(c)
            .iter()
            .map(|l| format!("{} {} against {}", l.position, ratio_text(&l.ratio), l.peer))
            .collect();
        // The version names the commit and the build ("<commit> with the
        // pext backend"); the commit alone where it does not.
        let quince = match c.contenders.iter().find(|x| x.name == c.reference) {
            Some(x) if x.version.starts_with(commit) => format!(
                "`{commit}`{}",
                x.version.strip_prefix(commit).unwrap_or_default()
            ),
            _ => format!("commit `{commit}`"),
        };
        writeln!(
            s,
            "{}. **{}** (Quince {quince}, `RUSTFLAGS='{rustflags}'`, {} paired rounds, record {}): {}.",
            i + 1,
            atlas.cpu,
            c.timings.rounds,
            record_link(page, file),
            cells.join("; ")
        )
        .unwrap();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{short_in_same_inputs, spread};
    use crate::atlas::AtlasRecord;

    #[test]
    fn spread_is_range_over_median() {
        let s = spread(&[90.0, 100.0, 120.0]).unwrap();
        assert!((s - 0.3).abs() < 1e-12, "{s}");
        assert_eq!(spread(&[100.0]), None);
        assert_eq!(spread(&[0.0, 0.0]), None);
    }

    #[test]
    fn a_short_technique_is_named_with_what_its_counts_say() {
        let path = crate::util::root().join(
            "reports/data/atlas-intel-emerald-rapids-family-6-model-207-2026-11-30-a84788ac66c4.json",
        );
        let mut r: AtlasRecord =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let set = |r: &mut AtlasRecord, ours: Option<f64>, theirs: f64| {
            let t = r.techniques.iter_mut().find(|t| t.name == "sissy").unwrap();
            t.instructions_per_grouped_lookup = ours;
            let x = r.reference_instructions.as_mut().unwrap();
            x.per_lookup.insert("sissy".into(), theirs);
        };
        set(&mut r, Some(40.0), 30.0);
        assert_eq!(
            short_in_same_inputs(&r, "sissy"),
            "`sissy`, 40.0 instructions per grouped lookup against the reference's 30.0: more work per lookup"
        );
        set(&mut r, Some(30.5), 30.0);
        assert_eq!(
            short_in_same_inputs(&r, "sissy"),
            "`sissy`, 30.5 instructions per grouped lookup against the reference's 30.0: no more work per lookup, so the gap is in waiting (the tables' layout and size)"
        );
        set(&mut r, None, 30.0);
        assert_eq!(
            short_in_same_inputs(&r, "sissy"),
            "`sissy`, no instruction counts in this record"
        );
    }
}
