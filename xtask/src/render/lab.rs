//! The blocks drawn from lab records: README's results table, the peers
//! and backend tables of `reports/`, inline ratios, the record index.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::measure::host::family_name;
use crate::measure::stats::{Interval, tiers};
use crate::measure::{Ratio, Timings};
use crate::record::{Comparison, LabRecord, Records};
use crate::util::{Result, root};

/// A link from `page` to a record file in `reports/data/`.
pub fn record_link(page: &str, file: &str) -> String {
    let depth = page.matches('/').count();
    let up = match depth {
        0 => "reports/data/".to_string(),
        _ if page.starts_with("reports/") => "data/".to_string(),
        _ => format!("{}reports/data/", "../".repeat(depth)),
    };
    format!("[`{file}`]({up}{file})")
}

/// `1.52x (1.40-1.61)`; a tie says so, a bimodal reading is flagged.
pub fn ratio_text(r: &Ratio) -> String {
    let i = r.interval;
    let mut s = format!("{:.2}x ({:.2}-{:.2})", i.median, i.lo, i.hi);
    if r.tie {
        s = format!("tie, {s}");
    }
    if r.bimodal {
        s.push_str(" **bimodal**");
    }
    s
}

fn coverage_note(t: &Timings) -> String {
    let i = Interval::of(&vec![1.0; t.rounds]);
    format!(
        "median of {} paired rounds, each run at least {} s; in brackets the order-statistic interval of the median (coverage {:.1} %); a tie where it holds 1",
        t.rounds,
        t.min_seconds,
        100.0 * i.coverage
    )
}

/// One line naming what a record measured and where.
fn provenance(file: &str, r: &LabRecord, page: &str) -> String {
    format!(
        "Commit `{}` on {} ({}, {} logical cores), {}, {}, `RUSTFLAGS='{}'`; record {}.",
        r.commit.short,
        family_name(&r.host),
        r.host.cpu_model_name,
        r.host.logical_cores,
        r.date_utc.get(..10).unwrap_or(""),
        r.toolchain.rustc,
        r.toolchain.rustflags,
        record_link(page, file)
    )
}

fn latest<'a>(records: &'a Records, kind: &str) -> Result<(&'a str, &'a LabRecord)> {
    records
        .latest(kind)
        .ok_or_else(|| format!("no clean {kind} record in reports/data/"))
}

fn comparison<'a>(r: &'a LabRecord, name: &str) -> Result<&'a Comparison> {
    r.comparison(name)
        .ok_or_else(|| format!("the record has no '{name}' comparison"))
}

/// The geometric-mean ratio, saying which positions it leaves out (where a
/// contender failed).
fn geomean_row(c: &Comparison, kind: &str, other: &str) -> Option<String> {
    let text = ratio_text(&c.timings.geomean_ratio(kind, &c.reference, other)?);
    let missing = c.timings.missing(kind, other);
    Some(if missing.is_empty() {
        text
    } else {
        format!("{text}, without {}", missing.join(", "))
    })
}

/// One line per failed run, for the note under a table.
fn failures_note(c: &Comparison) -> String {
    let mut s = String::new();
    for f in &c.timings.failures {
        writeln!(
            s,
            "\n* {} failed on `{}` in round {} and is left out of it: {}",
            f.contender, f.workload, f.round, f.error
        )
        .unwrap();
    }
    s
}

/// Instructions per node of `engine` over Quince's, geometric mean over the
/// positions both were counted on.
fn instructions_ratio(r: &LabRecord, kind: &str, engine: &str) -> Option<f64> {
    let mut pairs = Vec::new();
    for q in r
        .instructions
        .iter()
        .filter(|i| i.engine == "quince" && i.kind == kind)
    {
        let other = r
            .instructions
            .iter()
            .find(|i| i.engine == engine && i.kind == kind && i.position == q.position)?;
        pairs.push(other.per_node / q.per_node);
    }
    crate::measure::stats::geomean(pairs)
}

fn readme_results(records: &Records, page: &str) -> Result<String> {
    let (file, r) = latest(records, "peers")?;
    let process = comparison(r, "process")?;
    let crates = comparison(r, "crates")?;
    let mut s = String::new();
    writeln!(s, "{}", provenance(file, r, page)).unwrap();
    writeln!(s, "Each ratio: how many times faster Quince is, geometric mean over the six standard positions, {}.", coverage_note(&process.timings)).unwrap();
    writeln!(s).unwrap();
    writeln!(s, "| measure | Quince against it |").unwrap();
    writeln!(s, "| --- | ---: |").unwrap();
    for c in process
        .contenders
        .iter()
        .filter(|c| c.name != process.reference)
    {
        if let Some(t) = geomean_row(process, "bulk", &c.name) {
            writeln!(
                s,
                "| bulk perft against {} (C/C++), whole process | {t} |",
                c.name
            )
            .unwrap();
        }
    }
    for (kind, label) in [("bulk", "bulk perft"), ("full", "full-make perft")] {
        for c in crates
            .contenders
            .iter()
            .filter(|c| c.name != crates.reference)
        {
            if c.name == "chess" {
                continue; // the slowest crate: on reports/README.md only
            }
            if let Some(t) = geomean_row(crates, kind, &c.name) {
                writeln!(s, "| {label} against the {} crate | {t} |", c.name).unwrap();
            }
        }
    }
    if let Some(x) = instructions_ratio(r, "bulk", "cozy-chess") {
        writeln!(
            s,
            "| bulk instructions per node, cozy-chess over Quince (callgrind) | {x:.2}x |"
        )
        .unwrap();
    }
    Ok(s)
}

/// Per position: each contender's ratio, Quince's Mnodes/s.
fn per_position(r: &LabRecord, c: &Comparison, kind: &str) -> String {
    let others: Vec<&str> = c
        .contenders
        .iter()
        .map(|x| x.name.as_str())
        .filter(|n| *n != c.reference)
        .collect();
    let mut s = String::new();
    write!(s, "| position | depth | {} Mnodes/s |", c.reference).unwrap();
    for o in &others {
        write!(s, " over {o} |").unwrap();
    }
    writeln!(s).unwrap();
    writeln!(s, "| --- | ---: | ---: |{}", " ---: |".repeat(others.len())).unwrap();
    for w in c.timings.workloads.iter().filter(|w| w.kind == kind) {
        let depth = if w.repeat > 1 {
            format!("{} (x{})", w.depth, w.repeat)
        } else {
            w.depth.to_string()
        };
        let mnps = c
            .timings
            .mnps(w, &c.reference)
            .map_or("-".into(), |m| format!("{m:.0}"));
        write!(s, "| {} | {depth} | {mnps} |", w.position).unwrap();
        for o in &others {
            let failed = c
                .timings
                .failures
                .iter()
                .any(|f| f.workload == w.id && f.contender == *o);
            let t = match c.timings.ratio(&w.id, &c.reference, o) {
                _ if failed => "failed (below)".to_string(),
                Some(x) => ratio_text(&x),
                None => "-".into(),
            };
            write!(s, " {t} |").unwrap();
        }
        writeln!(s).unwrap();
    }
    write!(s, "| **geometric mean** | | |").unwrap();
    for o in &others {
        write!(
            s,
            " **{}** |",
            geomean_row(c, kind, o).unwrap_or_else(|| "-".into())
        )
        .unwrap();
    }
    writeln!(s).unwrap();
    let _ = r;
    s
}

fn rounds_table(c: &Comparison) -> String {
    let mut s = String::new();
    writeln!(s, "| workload | contender | seconds per round |").unwrap();
    writeln!(s, "| --- | --- | --- |").unwrap();
    for w in &c.timings.workloads {
        for (name, secs) in c.timings.seconds.get(&w.id).into_iter().flatten() {
            let list: Vec<String> = secs.iter().map(|x| format!("{x:.3}")).collect();
            writeln!(s, "| {} | {name} | {} |", w.id, list.join(" ")).unwrap();
        }
    }
    s
}

fn commands(c: &Comparison) -> String {
    let mut s = String::from(
        "| contender | version or build | SHA-256 (first 16) | example command |\n| --- | --- | --- | --- |\n",
    );
    let first = c
        .timings
        .workloads
        .first()
        .map(|w| w.id.clone())
        .unwrap_or_default();
    for x in &c.contenders {
        let cmd = c
            .command_lines
            .get(&first)
            .and_then(|m| m.get(&x.name))
            .cloned()
            .unwrap_or_default();
        writeln!(
            s,
            "| {} | {} | `{}` | `{}` |",
            x.name,
            x.version,
            x.sha256.get(..16).unwrap_or(""),
            cmd.replace('|', "\\|")
        )
        .unwrap();
    }
    s
}

fn instructions_table(r: &LabRecord, kind: &str) -> String {
    let mut engines: Vec<&str> = r
        .instructions
        .iter()
        .filter(|i| i.kind == kind)
        .map(|i| i.engine.as_str())
        .collect();
    engines.dedup();
    let mut positions: Vec<(&str, u32)> = Vec::new();
    for i in r.instructions.iter().filter(|i| i.kind == kind) {
        if !positions.iter().any(|p| p.0 == i.position) {
            positions.push((&i.position, i.depth));
        }
    }
    let mut s = String::from("| position | depth |");
    for e in &engines {
        write!(s, " {e} |").unwrap();
    }
    writeln!(s).unwrap();
    writeln!(s, "| --- | ---: |{}", " ---: |".repeat(engines.len())).unwrap();
    for (p, d) in positions {
        write!(s, "| {p} | {d} |").unwrap();
        for e in &engines {
            let v = r
                .instructions
                .iter()
                .find(|i| i.engine == *e && i.position == p && i.kind == kind);
            write!(
                s,
                " {} |",
                v.map_or("-".into(), |v| format!("{:.2}", v.per_node))
            )
            .unwrap();
        }
        writeln!(s).unwrap();
    }
    s
}

/// The backends in tiers: each one's ratio to the best (how many times
/// slower than the best it is, as best's seconds over its own, so 1 is
/// the best), geometric mean over positions, with interval.
fn sliders_tiers(r: &LabRecord, kind: &str) -> Result<String> {
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
            format!("{} ({})", human_bytes(f.table_bytes), f.fits)
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

pub fn human_bytes(bytes: u64) -> String {
    if bytes < 1024 {
        format!("{bytes} B")
    } else if bytes < 1024 * 1024 {
        format!("{:.0} KiB", bytes as f64 / 1024.0)
    } else {
        format!("{:.2} MiB", bytes as f64 / (1024.0 * 1024.0))
    }
}

fn records_index(records: &Records, page: &str) -> String {
    let mut by_host: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (file, r) in &records.lab {
        by_host
            .entry(family_name(&r.host))
            .or_default()
            .push(format!(
                "- {} ({}, commit `{}`, {}{})",
                record_link(page, file),
                r.kind,
                r.commit.short,
                r.date_utc.get(..10).unwrap_or(""),
                if r.commit.dirty {
                    ", **dirty: never quoted**"
                } else {
                    ""
                }
            ));
    }
    let mut s = String::new();
    for (host, lines) in by_host {
        writeln!(s, "**{host}**\n").unwrap();
        for l in lines {
            writeln!(s, "{l}").unwrap();
        }
        writeln!(s).unwrap();
    }
    s
}

/// The format-1 records, grouped by host: each a row of single medians.
fn v1_summary(records: &Records, page: &str) -> String {
    let mut by_host: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let x = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2}x"));
    for (file, r) in &records.v1 {
        let row = if r.kind == "peers" {
            format!(
                "| {} | `{}` | {} | bulk {}, full make {}, move generation {}; Gigantua {} |",
                r.date_utc.get(..10).unwrap_or(""),
                r.commit.short.get(..7).unwrap_or(""),
                record_link(page, file),
                x(r.ratio_to_best("perft-bulk", &["cozy-chess", "shakmaty", "chess"])),
                x(r.ratio_to_best("perft-full", &["cozy-chess", "shakmaty", "chess"])),
                x(r.ratio_to_best("movegen", &["cozy-chess", "shakmaty", "chess"])),
                x(r.ratio_to_best("process-bulk", &["gigantua"])),
            )
        } else {
            let mut b: Vec<_> = r
                .backends
                .iter()
                .filter_map(|b| Some((b.name.as_str(), b.bulk_ratio_to_best_geomean?)))
                .collect();
            b.sort_by(|a, c| c.1.total_cmp(&a.1));
            let top: Vec<String> = b
                .iter()
                .take(3)
                .map(|(n, v)| format!("`{n}` {v:.2}"))
                .collect();
            let hq = b
                .iter()
                .find(|(n, _)| *n == "hq")
                .map_or("-".into(), |(_, v)| format!("{v:.2}"));
            format!(
                "| {} | `{}` | {} | backends, bulk speed over the best: {}; `hq` {hq} |",
                r.date_utc.get(..10).unwrap_or(""),
                r.commit.short.get(..7).unwrap_or(""),
                record_link(page, file),
                top.join(", ")
            )
        };
        by_host.entry(family_name(&r.host)).or_default().push(row);
    }
    let mut s = String::new();
    for (host, rows) in by_host {
        writeln!(s, "**{host}**\n\n| date | commit | record | Quince over the best peer crate (geometric mean of single medians) |\n| --- | --- | --- | --- |").unwrap();
        for r in rows {
            writeln!(s, "{r}").unwrap();
        }
        writeln!(s).unwrap();
    }
    s
}

fn baseline() -> Result<String> {
    let path = crate::track::baseline_path();
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let per_node = v["total"]["per_node"]
        .as_f64()
        .ok_or("perft-baseline.json has no total.per_node")?;
    let commit = v["commit"].as_str().unwrap_or("?");
    Ok(format!(
        "{per_node:.3} instructions per node at `{}`",
        commit.get(..7).unwrap_or(commit)
    ))
}

/// An inline ratio: `ratio KIND COMPARISON WORKLOAD-KIND CONTENDER [POSITION]`.
fn inline_ratio(records: &Records, args: &[&str]) -> Result<String> {
    let [kind, comp, wkind, other, rest @ ..] = args else {
        return Err("ratio wants KIND COMPARISON WORKLOAD-KIND CONTENDER [POSITION]".into());
    };
    let (_, r) = latest(records, kind)?;
    let c = comparison(r, comp)?;
    let ratio = match rest {
        [] => c.timings.geomean_ratio(wkind, &c.reference, other),
        [pos] => c
            .timings
            .workloads
            .iter()
            .find(|w| w.kind == *wkind && w.position == *pos)
            .and_then(|w| c.timings.ratio(&w.id, &c.reference, other)),
        _ => return Err("ratio: too many arguments".into()),
    };
    ratio
        .map(|x| ratio_text(&x))
        .ok_or_else(|| format!("no ratio for {}", args.join(" ")))
}

/// The markdown of a lab block, or `None` when `name` is not one.
pub fn block(name: &str, args: &[&str], records: &Records, page: &str) -> Option<Result<String>> {
    let kind_record = |kind: &str| latest(records, kind);
    Some(match name {
        "readme.results" => readme_results(records, page),
        "peers.provenance" | "sliders.provenance" => {
            let kind = name.split('.').next().unwrap_or("");
            kind_record(kind).map(|(f, r)| provenance(f, r, page))
        }
        "peers.table" => (|| {
            let [comp, kind] = args else {
                return Err("peers.table wants COMPARISON KIND".to_string());
            };
            let (_, r) = kind_record("peers")?;
            let c = comparison(r, comp)?;
            Ok(format!(
                "{}\n{}.\n{}",
                per_position(r, c, kind),
                capitalise(&coverage_note(&c.timings)),
                failures_note(c)
            ))
        })(),
        "rounds" | "commands" => (|| {
            let [kind, comp] = args else {
                return Err(format!("{name} wants KIND COMPARISON"));
            };
            let (_, r) = kind_record(kind)?;
            let c = comparison(r, comp)?;
            Ok(if name == "rounds" {
                rounds_table(c)
            } else {
                commands(c)
            })
        })(),
        "instructions" => (|| {
            let [kind, wkind] = args else {
                return Err("instructions wants KIND WORKLOAD-KIND".to_string());
            };
            let (_, r) = kind_record(kind)?;
            Ok(instructions_table(r, wkind))
        })(),
        "sliders.tiers" => (|| {
            let [kind] = args else {
                return Err("sliders.tiers wants bulk or full".to_string());
            };
            let (_, r) = kind_record("sliders")?;
            let c = comparison(r, "backends")?;
            Ok(format!(
                "{}\nSpeed: the reference's seconds over the backend's, {}.",
                sliders_tiers(r, kind)?,
                coverage_note(&c.timings)
            ))
        })(),
        "ratio" => inline_ratio(records, args),
        "records.index" => Ok(records_index(records, page)),
        "baseline" => baseline(),
        "v1.summary" => Ok(v1_summary(records, page)),
        "data.dir" => Ok(root().join("reports/data").display().to_string()),
        _ => return None,
    })
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_relative_to_the_page() {
        assert_eq!(
            record_link("README.md", "a.json"),
            "[`a.json`](reports/data/a.json)"
        );
        assert_eq!(
            record_link("reports/sliders.md", "a.json"),
            "[`a.json`](data/a.json)"
        );
        assert_eq!(
            record_link("docs/lab.md", "a.json"),
            "[`a.json`](../reports/data/a.json)"
        );
    }

    #[test]
    fn ratios_read_as_ties_and_flags() {
        assert_eq!(
            ratio_text(&Ratio::of(vec![1.5, 1.6, 1.4])),
            "1.50x (1.40-1.60)"
        );
        assert!(ratio_text(&Ratio::of(vec![0.9, 1.1, 1.0])).starts_with("tie, "));
        assert!(
            ratio_text(&Ratio::of(vec![1.0, 1.02, 1.01, 0.5, 0.51, 1.03])).ends_with("**bimodal**")
        );
    }
}
