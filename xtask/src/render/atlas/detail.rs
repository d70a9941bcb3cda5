//! `atlas.detail N`: one CPU's full table (isolated rates in every mode,
//! instructions per lookup, tables, the reference's figures beside
//! Quince's, in-generator tiers) and the notes that say how each column
//! was measured. The longest block of the page, so it has a file to itself.

use std::fmt::Write as _;

use super::reference_gap::{
    grouped_instructions, harness_loop, ratio_range, same_workload_ratio, short_in_same_inputs,
    work_verdict,
};
use super::{Generator, generator, isolated, medians, names, ranked_rates};
use crate::atlas::AtlasRecord;
use crate::atlas::reference::{Pooled, ReferenceRecord, ReferenceRun, pooled};
use crate::measure::stats::Interval;
use crate::render::format::{capitalise, coverage_note, human_bytes, ratio_text, record_link};
use crate::util::Result;

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

pub(super) fn detail_block(
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
