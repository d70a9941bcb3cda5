//! `reports/README.md`, the one current results page, rendered from the
//! records in `reports/data/` (never from a measurement in memory, so a
//! re-render shows exactly what the records hold).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::measure::PEERS;
use super::record::{PeersRecord, Records, cpu_family, latest_per_family};
use crate::charts::{Bar, BarChart, horizontal_bars};
use crate::lab::Record as SlidersRecord;
use crate::util::{Result, root};

/// Writes `reports/README.md` and its charts in `reports/charts/`; returns
/// the page's path.
pub fn write(records: &Records) -> Result<PathBuf> {
    let reports = root().join("reports");
    let charts = reports.join("charts");
    std::fs::create_dir_all(&charts).map_err(|e| format!("{}: {e}", charts.display()))?;
    let mut s = String::new();
    intro(&mut s);
    let peers = latest_per_family(&records.peers, |r| &r.host);
    let sliders = latest_per_family(&records.sliders, |r| &r.host);
    headline(&mut s, &peers, &sliders);
    for (family, path, r) in &peers {
        peers_section(&mut s, family, path, r, &charts)?;
    }
    for (family, path, r) in &sliders {
        sliders_section(&mut s, family, path, r, &charts)?;
    }
    history_section(&mut s);
    records_section(&mut s, records);
    let page = reports.join("README.md");
    std::fs::write(&page, s).map_err(|e| format!("{}: {e}", page.display()))?;
    Ok(page)
}

fn intro(s: &mut String) {
    s.push_str(
        "# Quince lab: current results\n\n\
         The current state only, rendered from the records in [`data/`](data/) by \
         `cargo run -p xtask -- report --render` (measure this machine first with \
         `cargo run -p xtask -- report` for the peers and `cargo run -p xtask -- lab` for the \
         sliding-attack backends; each run adds a record, and this page shows the latest record \
         of each CPU family). Older dated reports, whose figures describe older code, are in \
         [`archive/`](archive/).\n\n\
         How to read it: the machines are shared 2-core VMs, so absolute Mnodes/s move by tens \
         of percent between runs; ratios measured side by side in one run, and instruction \
         counts (deterministic), are the figures to compare.\n\n",
    );
}

fn slug(family: &str) -> String {
    let mut out = String::new();
    for c in family.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

fn link(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("[`{name}`](data/{name})")
}

fn geomean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0);
    for v in values {
        if !(v.is_finite() && v > 0.0) {
            return None;
        }
        sum += v.ln();
        n += 1;
    }
    (n > 0).then(|| (sum / n as f64).exp())
}

/// Quince's figure over the best peer's, geometric mean over the group's
/// workloads; `lower_is_better` inverts it (instructions).
fn ratio_to_best_peer(r: &PeersRecord, group: &str, lower_is_better: bool) -> Option<f64> {
    let ratios = r.workloads(group).into_iter().filter_map(|w| {
        let q = r.get(group, &w, "quince")?;
        let peers = r
            .engines_in(group)
            .into_iter()
            .filter(|e| e != "quince")
            .filter_map(|e| r.get(group, &w, &e));
        let best = if lower_is_better {
            peers.fold(f64::INFINITY, f64::min)
        } else {
            peers.fold(0.0, f64::max)
        };
        Some(if lower_is_better { best / q } else { q / best })
    });
    let list: Vec<f64> = ratios.collect();
    if list.is_empty() {
        return None;
    }
    geomean(list.into_iter())
}

fn x(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.2}x"))
}

fn headline(
    s: &mut String,
    peers: &[(String, &Path, &PeersRecord)],
    sliders: &[(String, &Path, &SlidersRecord)],
) {
    let _ = writeln!(s, "## Headline\n");
    if !peers.is_empty() {
        let _ = writeln!(
            s,
            "Quince against the best peer crate on each workload (cozy-chess, shakmaty, chess), geometric mean over the six standard positions; above 1 Quince is faster (or, for instructions, needs fewer). Gigantua: whole process against whole process.\n"
        );
        let _ = writeln!(
            s,
            "| CPU family | commit | Quince backend | bulk perft | full-make perft | move generation | bulk instructions | against Gigantua |\n| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"
        );
        for (family, _, r) in peers {
            let giga = {
                let list: Vec<f64> = r
                    .workloads("process-bulk")
                    .iter()
                    .filter_map(|w| {
                        Some(
                            r.get("process-bulk", w, "quince")?
                                / r.get("process-bulk", w, "gigantua")?,
                        )
                    })
                    .collect();
                geomean(list.into_iter())
            };
            let movegen = r
                .get("movegen", "legal moves listed", "quince")
                .and_then(|q| {
                    let best = PEERS
                        .iter()
                        .filter_map(|p| r.get("movegen", "legal moves listed", p))
                        .fold(0.0, f64::max);
                    (best > 0.0).then(|| q / best)
                });
            let _ = writeln!(
                s,
                "| {family} | `{}` | `{}` | {} | {} | {} | {} | {} |",
                r.commit.short,
                r.quince_slider,
                x(ratio_to_best_peer(r, "perft-bulk", false)),
                x(ratio_to_best_peer(r, "perft-full", false)),
                x(movegen),
                x(ratio_to_best_peer(r, "instructions-bulk", true)),
                x(giga)
            );
        }
        s.push('\n');
    }
    if !sliders.is_empty() {
        let _ = writeln!(
            s,
            "Sliding-attack backends, fastest three in bulk perft (ratio to the best backend, geometric mean):\n"
        );
        let _ = writeln!(
            s,
            "| CPU family | commit | 1st | 2nd | 3rd | default `hq` |\n| --- | --- | --- | --- | --- | --- |"
        );
        for (family, _, r) in sliders {
            let ranked = ranked(r);
            let cell = |k: usize| {
                ranked
                    .get(k)
                    .map(|b| format!("`{}` {}", b.0, x(Some(b.1))))
                    .unwrap_or_default()
            };
            let hq = ranked
                .iter()
                .position(|b| b.0 == "hq")
                .map(|k| format!("#{} {}", k + 1, x(Some(ranked[k].1))))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "| {family} | `{}` | {} | {} | {} | {hq} |",
                r.commit.short,
                cell(0),
                cell(1),
                cell(2)
            );
        }
        s.push('\n');
    }
}

/// Backends with a bulk ratio, best first: (name, bulk ratio to best).
fn ranked(r: &SlidersRecord) -> Vec<(String, f64)> {
    let mut list: Vec<(String, f64)> = r
        .backends
        .iter()
        .filter_map(|b| Some((b.name.clone(), b.bulk_ratio_to_best_geomean?)))
        .collect();
    list.sort_by(|a, b| b.1.total_cmp(&a.1));
    list
}

fn host_line(s: &mut String, r_host: &crate::lab::Host, commit: &str, date: &str, rustc: &str) {
    let _ = writeln!(
        s,
        "{} ({} logical cores{}), commit `{commit}`, {date}, {rustc}.\n",
        r_host.cpu_model_name,
        r_host.logical_cores,
        r_host
            .l2_bytes
            .map(|b| format!(", L2 {} KiB", b / 1024))
            .unwrap_or_default()
    );
}

fn peers_section(
    s: &mut String,
    family: &str,
    path: &Path,
    r: &PeersRecord,
    charts: &Path,
) -> Result<()> {
    let _ = writeln!(s, "## Quince and the peers: {family}\n");
    host_line(s, &r.host, &r.commit.short, &r.date_utc, &r.rustc);
    let _ = writeln!(
        s,
        "Record {}; flags `{}`, features `{}`. Engines: {}.\n",
        link(path),
        if r.rustflags.is_empty() {
            "(x86-64-v2 from .cargo/config.toml)"
        } else {
            &r.rustflags
        },
        r.features,
        r.engines
            .iter()
            .map(|e| format!("{} ({})", e.name, e.build))
            .collect::<Vec<_>>()
            .join("; ")
    );
    for (group, title) in [
        ("perft-bulk", "Bulk perft (last ply counted), Mnodes/s"),
        ("perft-full", "Full-make perft (every leaf made), Mnodes/s"),
        (
            "instructions-bulk",
            "Bulk perft, instructions per node (gungraun)",
        ),
        (
            "instructions-full",
            "Full-make perft, instructions per node (gungraun)",
        ),
        (
            "process-bulk",
            "Bulk perft, whole process, Mnodes/s (against Gigantua)",
        ),
        (
            "movegen",
            "Move generation alone, million legal moves per second",
        ),
        ("make", "Make alone, million moves per second"),
    ] {
        let workloads = r.workloads(group);
        if workloads.is_empty() {
            continue;
        }
        let lower = group.starts_with("instructions");
        let engines = r.engines_in(group);
        let _ = writeln!(s, "### {title}\n");
        let _ = writeln!(
            s,
            "| {} | {} | Quince / best other |\n| --- |{} ---: |",
            if group == "movegen" || group == "make" {
                "workload"
            } else {
                "position"
            },
            engines.join(" | "),
            " ---: |".repeat(engines.len())
        );
        for w in &workloads {
            let values: Vec<Option<f64>> = engines.iter().map(|e| r.get(group, w, e)).collect();
            let others: Vec<f64> = values[1..].iter().flatten().copied().collect();
            let best = if lower {
                others.iter().copied().fold(f64::INFINITY, f64::min)
            } else {
                others.iter().copied().fold(0.0, f64::max)
            };
            let ratio = values[0]
                .filter(|_| !others.is_empty())
                .map(|q| if lower { best / q } else { q / best });
            let _ = writeln!(
                s,
                "| {w} | {} | {} |",
                values
                    .iter()
                    .map(|v| v.map_or("-".into(), |v| format!("{v:.1}")))
                    .collect::<Vec<_>>()
                    .join(" | "),
                x(ratio)
            );
        }
        s.push('\n');
        if group == "perft-bulk" || group == "perft-full" || group == "process-bulk" {
            let file = format!("peers-{group}-{}.svg", slug(family));
            let bars = engines
                .iter()
                .filter_map(|e| {
                    let g = geomean(workloads.iter().map(|w| r.get(group, w, e).unwrap_or(0.0)))?;
                    Some((e.clone(), g))
                })
                .collect::<Vec<_>>();
            // The best engine other than Quince, and Quince's ratio to it.
            let best_other = bars
                .iter()
                .filter(|b| b.0 != "quince")
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .cloned();
            let quince = bars.iter().find(|b| b.0 == "quince").map(|b| b.1);
            let short = family.split(" (").next().unwrap_or(family);
            let svg = horizontal_bars(&BarChart {
                title: format!(
                    "{}, geomean of 6 positions, {short}",
                    title.replace(", Mnodes/s", "")
                ),
                x_desc: "Mnodes/s (more is better)".into(),
                bars: bars
                    .iter()
                    .map(|(e, g)| {
                        let text = match (&best_other, quince) {
                            (Some((b, bv)), Some(q)) if e == "quince" => {
                                format!("{g:.0}: {:.2}x {b}", q / bv)
                            }
                            (Some((b, _)), _) if b == e => format!("{g:.0} (best other)"),
                            _ => format!("{g:.0}"),
                        };
                        Bar {
                            label: e.clone(),
                            value: *g,
                            text,
                            highlight: e == "quince",
                        }
                    })
                    .collect(),
            })?;
            let out = charts.join(&file);
            std::fs::write(&out, svg).map_err(|e| format!("{}: {e}", out.display()))?;
            let _ = writeln!(s, "![{title}](charts/{file})\n");
        }
    }
    if !r.methods.is_empty() {
        let _ = writeln!(s, "Method:\n");
        for m in &r.methods {
            let _ = writeln!(s, "* {m}");
        }
        s.push('\n');
    }
    Ok(())
}

fn sliders_section(
    s: &mut String,
    family: &str,
    path: &Path,
    r: &SlidersRecord,
    charts: &Path,
) -> Result<()> {
    let _ = writeln!(s, "## Sliding-attack backends: {family}\n");
    host_line(s, &r.host, &r.commit.short, &r.date_utc, &r.rustc);
    let _ = writeln!(
        s,
        "Record {}; every backend built with `{}`, {} alternating rounds. The full page of the latest lab run, with every position and a paragraph per technique, is [`sliders.md`](sliders.md).\n",
        link(path),
        if r.rustflags.is_empty() {
            "RUSTFLAGS unset (x86-64-v2)".to_string()
        } else {
            format!("RUSTFLAGS='{}'", r.rustflags)
        },
        r.rounds
    );
    let _ = writeln!(
        s,
        "| rank | backend | bulk x best | full make x best | bulk instructions/node | lookups M/s | tables |\n| ---: | --- | ---: | ---: | ---: | ---: | --- |"
    );
    let order = ranked(r);
    for (k, (name, _)) in order.iter().enumerate() {
        let Some(b) = r.backends.iter().find(|b| &b.name == name) else {
            continue;
        };
        let f = |v: Option<f64>, p: usize| v.map_or("-".into(), |v| format!("{v:.p$}"));
        let _ = writeln!(
            s,
            "| {} | `{}` | {} | {} | {} | {} | {} |",
            k + 1,
            b.name,
            f(b.bulk_ratio_to_best_geomean, 2),
            f(b.full_ratio_to_best_geomean, 2),
            f(b.bulk_instructions_per_node_geomean, 1),
            f(b.lookups_per_second.map(|l| l / 1e6), 0),
            if b.table_bytes == 0 {
                "none".to_string()
            } else {
                format!("{} ({})", kib(b.table_bytes), b.fits)
            }
        );
    }
    for skipped in &r.skipped {
        let _ = writeln!(s, "\n`{}` not measured: {}.", skipped.name, skipped.reason);
    }
    s.push('\n');
    let file = format!("sliders-bulk-{}.svg", slug(family));
    let svg = horizontal_bars(&BarChart {
        title: format!("Bulk perft speed of each backend, x of the best ({family})"),
        x_desc: "ratio to the fastest backend, geometric mean of six positions (more is better)"
            .into(),
        bars: order
            .iter()
            .enumerate()
            .map(|(k, (name, v))| Bar {
                label: name.clone(),
                value: *v,
                text: format!("{v:.2}x"),
                highlight: k == 0,
            })
            .collect(),
    })?;
    let out = charts.join(&file);
    std::fs::write(&out, svg).map_err(|e| format!("{}: {e}", out.display()))?;
    let _ = writeln!(s, "![bulk perft per backend, {family}](charts/{file})\n");
    Ok(())
}

fn kib(bytes: u64) -> String {
    if bytes == 0 {
        "none".into()
    } else if bytes >= 1 << 20 {
        format!("{:.2} MiB", bytes as f64 / (1u64 << 20) as f64)
    } else {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    }
}

fn history_section(s: &mut String) {
    let _ = writeln!(s, "## Node rate over history\n");
    let baseline = crate::history::baseline();
    let _ = writeln!(
        s,
        "Instructions per node of the CI perft-tracking workload at each recent commit that changed `src/` ({}); `cargo run -p xtask -- history` measures new commits and redraws it. The per-commit table, with what each change bought, is [`history.md`](history.md).\n",
        baseline.map_or("no CI baseline found".to_string(), |(b, g, c)| format!(
            "CI baseline {b:.3} at `{c}`, gate +{g} %"
        ))
    );
    let _ = writeln!(s, "![instructions per node over commits](history.svg)\n");
}

fn records_section(s: &mut String, records: &Records) {
    let _ = writeln!(s, "## Records\n");
    let _ = writeln!(
        s,
        "Every record in `data/`, each a complete run on one machine (the page above shows the latest of each CPU family):\n"
    );
    let _ = writeln!(
        s,
        "| record | kind | CPU family | commit | date |\n| --- | --- | --- | --- | --- |"
    );
    let mut rows: Vec<(String, String)> = Vec::new();
    for (path, r) in &records.peers {
        rows.push((
            r.date_utc.clone(),
            format!(
                "| {} | peers | {} | `{}` | {} |",
                link(path),
                cpu_family(&r.host),
                r.commit.short,
                r.date_utc
            ),
        ));
    }
    for (path, r) in &records.sliders {
        rows.push((
            r.date_utc.clone(),
            format!(
                "| {} | sliders | {} | `{}` | {} |",
                link(path),
                cpu_family(&r.host),
                r.commit.short,
                r.date_utc
            ),
        ));
    }
    rows.sort();
    for (_, row) in rows {
        let _ = writeln!(s, "{row}");
    }
    s.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_file_names() {
        assert_eq!(
            slug("AMD Zen 5 (family 26, model 2)"),
            "amd-zen-5-family-26-model-2"
        );
    }

    #[test]
    fn geomean_needs_positive_values() {
        assert!((geomean([2.0, 8.0].into_iter()).unwrap() - 4.0).abs() < 1e-12);
        assert!(geomean([2.0, 0.0].into_iter()).is_none());
        assert!(geomean(std::iter::empty()).is_none());
    }
}
