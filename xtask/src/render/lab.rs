//! The blocks drawn from lab records, by name: the dispatch, the record
//! index, the format-1 summary and the CI baseline. The tables themselves
//! are in `peers` and `sliders`, their wording in `format`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::format::{capitalise, coverage_note, provenance, record_link};
use super::peers::{
    commands, failures_note, inline_ratio, instructions_table, per_position, readme_results,
    rounds_table,
};
use super::sliders::sliders_tiers;
use crate::measure::host::family_name;
use crate::record::{Comparison, LabRecord, Records};
use crate::util::{Result, root};

pub fn latest<'a>(records: &'a Records, kind: &str) -> Result<(&'a str, &'a LabRecord)> {
    records
        .latest(kind)
        .ok_or_else(|| format!("no clean {kind} record in reports/data/"))
}

/// The newest clean record of `kind` that measured `comparison`, with it,
/// and a sentence naming that record when it is not the newest of its
/// kind (whose provenance the page gives).
pub fn latest_comparison<'a>(
    records: &'a Records,
    kind: &str,
    name: &str,
    page: &str,
) -> Result<(&'a str, &'a LabRecord, &'a Comparison, String)> {
    let (file, r) = records
        .latest_with(kind, name)
        .ok_or_else(|| format!("no clean {kind} record with a '{name}' comparison"))?;
    let newest = latest(records, kind)?.0;
    let note = if newest == file {
        String::new()
    } else {
        format!(
            "From the older record {} (commit `{}`, {}): the newest one did not measure this.\n",
            record_link(page, file),
            r.commit.short,
            r.date_utc.get(..10).unwrap_or("")
        )
    };
    Ok((file, r, comparison(r, name)?, note))
}

pub fn comparison<'a>(r: &'a LabRecord, name: &str) -> Result<&'a Comparison> {
    r.comparison(name)
        .ok_or_else(|| format!("the record has no '{name}' comparison"))
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

/// The record's single deep runs (perft(10); perft(11) as work units),
/// one line each.
fn deep_runs(file: &str, r: &LabRecord, page: &str) -> Result<String> {
    if r.deep.is_empty() {
        return Err(format!("{file} has no deep run"));
    }
    let mut s = String::new();
    for d in &r.deep {
        let verdict = if d.exact {
            "exact (the published count)".to_string()
        } else {
            format!("**wrong**: the published count is {}", d.expected)
        };
        // A work-unit run spans sessions: its time is the units' own,
        // added up; a deep run is one process, timed whole.
        let (time, how) = if r.kind == "units" {
            (
                format!(
                    "{:.0} s ({:.1} hours) of counting: the seconds of its work units added up,",
                    d.seconds,
                    d.seconds / 3600.0
                ),
                format!("`{}`, record made at commit", d.command),
            )
        } else {
            (
                format!("{:.0} s ({:.1} minutes)", d.seconds, d.seconds / 60.0),
                format!("one run of `{}`, commit", d.command),
            )
        };
        let setting = if r.kind == "units" { ';' } else { ',' };
        // Where it was counted: one machine, or each machine's share.
        let place = if d.shares.is_empty() {
            format!(
                "{time} on {} ({} threads, {} MB table){setting}",
                family_name(&r.host),
                d.threads,
                d.hash_mb
            )
        } else {
            let shares: Vec<String> = d
                .shares
                .iter()
                .map(|share| {
                    format!(
                        "{} units ({:.1} % of the leaves) in {:.0} s on {}, {} cores ({} threads, {} MB table)",
                        share.units,
                        100.0 * share.nodes as f64 / d.nodes as f64,
                        share.seconds,
                        family_name(&share.host),
                        share.host.logical_cores,
                        share.threads,
                        share.hash_mb
                    )
                })
                .collect();
            format!(
                "{time} on {} machines: {};",
                d.shares.len(),
                shares.join(" and ")
            )
        };
        writeln!(
            s,
            "- perft({}) of the {} position = {}, {verdict}, in {place} {how} `{}`; record {}.",
            d.depth,
            d.position,
            d.nodes,
            r.commit.short,
            record_link(page, file)
        )
        .unwrap();
    }
    Ok(s)
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

/// The markdown of a lab block, or `None` when `name` is not one.
pub fn block(name: &str, args: &[&str], records: &Records, page: &str) -> Option<Result<String>> {
    let kind_record = |kind: &str| latest(records, kind);
    Some(match name {
        "readme.results" => readme_results(records, page),
        "peers.provenance" | "sliders.provenance" | "scale.provenance" | "curve.provenance" => {
            let kind = name.split('.').next().unwrap_or("");
            kind_record(kind).map(|(f, r)| provenance(f, r, page))
        }
        "peers.table" => (|| {
            let [comp, kind] = args else {
                return Err("peers.table wants COMPARISON KIND".to_string());
            };
            let (_, r, c, note) = latest_comparison(records, "peers", comp, page)?;
            Ok(format!(
                "{note}{}\n{}.\n{}",
                per_position(r, c, kind),
                capitalise(&coverage_note(&c.timings)),
                failures_note(c)
            ))
        })(),
        "scale.table" => (|| {
            let [comp, kind] = args else {
                return Err("scale.table wants COMPARISON WORKLOAD-KIND".to_string());
            };
            let (_, r) = kind_record("scale")?;
            let c = comparison(r, comp)?;
            Ok(format!(
                "{}
{}.
{}",
                per_position(r, c, kind),
                capitalise(&coverage_note(&c.timings)),
                failures_note(c)
            ))
        })(),
        "curve.perft" => (|| {
            let [comp] = args else {
                return Err("curve.perft wants COMPARISON".to_string());
            };
            let (_, r) = kind_record("curve")?;
            Ok(super::curve::perft_table(comparison(r, comp)?))
        })(),
        "curve.search" => {
            kind_record("curve").and_then(|(file, r)| super::curve::search_table(file, r))
        }
        "scale.deep" => kind_record("scale").and_then(|(file, r)| deep_runs(file, r, page)),
        "units.deep" => kind_record("units").and_then(|(file, r)| deep_runs(file, r, page)),
        "rounds" | "commands" => (|| {
            let [kind, comp] = args else {
                return Err(format!("{name} wants KIND COMPARISON"));
            };
            let (_, _, c, note) = latest_comparison(records, kind, comp, page)?;
            Ok(if name == "rounds" {
                format!("{note}{}", rounds_table(c))
            } else {
                format!("{note}{}", commands(c))
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
        "host" => (|| {
            let [kind] = args else {
                return Err("host wants KIND (the newest record of that kind)".to_string());
            };
            let (_, r) = kind_record(kind)?;
            Ok(format!(
                "{} ({}, {} logical cores)",
                crate::measure::host::family_name(&r.host),
                r.host.cpu_model_name,
                r.host.logical_cores
            ))
        })(),
        "records.index" => Ok(records_index(records, page)),
        "baseline" => baseline(),
        "v1.summary" => Ok(v1_summary(records, page)),
        "data.dir" => Ok(root().join("reports/data").display().to_string()),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::format::{ratio_text, record_link};
    use crate::measure::Ratio;

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
