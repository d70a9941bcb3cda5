//! `reports/sliders.md`, rendered from a record, keeping the hand-written
//! analysis below [`super::ANALYSIS_MARKER`].

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::ANALYSIS_MARKER;
use super::charts::write_charts;
use super::record::{BackendRecord, Record, WorkloadRecord};
use crate::util::{Result, root};

// ---------------------------------------------------------------------------
// Rendering

/// Writes `reports/sliders.md` and its charts from `record` (read from or
/// written to `record_path`); returns the page's path.
pub fn render(record: &Record, record_path: &Path) -> Result<PathBuf> {
    let reports = root().join("reports");
    let chart_dir = reports.join("sliders");
    std::fs::create_dir_all(&chart_dir).map_err(|e| format!("{}: {e}", chart_dir.display()))?;
    let page_path = reports.join("sliders.md");
    let record_link = record_path
        .canonicalize()
        .ok()
        .and_then(|p| {
            let reports = reports.canonicalize().ok()?;
            p.strip_prefix(&reports)
                .ok()
                .map(|r| r.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| record_path.display().to_string());

    let charts = write_charts(record, &chart_dir)?;
    let mut s = page(record, &record_link, &charts);
    let analysis = std::fs::read_to_string(&page_path)
        .ok()
        .and_then(|old| kept_analysis(&old).map(str::to_string))
        .unwrap_or_else(|| {
            format!(
                "{ANALYSIS_MARKER}\n\n## Why each technique lands where it does\n\n\
                 (to be written after the first run)\n"
            )
        });
    s.push_str(&analysis);
    std::fs::write(&page_path, s).map_err(|e| format!("{}: {e}", page_path.display()))?;
    Ok(page_path)
}

/// The hand-written part of an existing page: from the marker line to the end.
pub(super) fn kept_analysis(page: &str) -> Option<&str> {
    let mut from = 0;
    while let Some(i) = page[from..].find(ANALYSIS_MARKER) {
        let at = from + i;
        if at == 0 || page.as_bytes()[at - 1] == b'\n' {
            return Some(&page[at..]);
        }
        from = at + ANALYSIS_MARKER.len();
    }
    None
}

/// Backend indices, best first: by the geometric mean of the bulk ratios.
pub(super) fn ranking(record: &Record) -> Vec<usize> {
    let mut order: Vec<usize> = (0..record.backends.len()).collect();
    order.sort_by(|&a, &b| {
        let key = |i: usize| record.backends[i].bulk_ratio_to_best_geomean.unwrap_or(0.0);
        key(b).total_cmp(&key(a))
    });
    order
}

/// Three significant digits (no exponent): 1234 -> 1234, 41.23 -> 41.2.
pub(super) fn sig3(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    let places = if x.abs() >= 100.0 {
        0
    } else if x.abs() >= 10.0 {
        1
    } else {
        2
    };
    format!("{x:.places$}")
}

/// 0 -> "none", 2560 -> "2.5 KiB", 2359296 -> "2.25 MiB".
pub(super) fn human_bytes(bytes: u64) -> String {
    if bytes == 0 {
        return "none".into();
    }
    let (value, unit) = if bytes < 1 << 10 {
        return format!("{bytes} B");
    } else if bytes < 1 << 20 {
        (bytes as f64 / 1024.0, "KiB")
    } else {
        (bytes as f64 / (1u64 << 20) as f64, "MiB")
    };
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text} {unit}")
}

pub(super) fn opt(x: Option<f64>, places: usize) -> String {
    x.filter(|v| v.is_finite())
        .map_or("-".into(), |v| format!("{v:.places$}"))
}

/// `text` in bold when `bold`.
pub(super) fn bold(text: String, bold: bool) -> String {
    if bold && text != "-" {
        format!("**{text}**")
    } else {
        text
    }
}

/// The best value of a column: the highest, or with `lowest` the lowest.
pub(super) fn best_of(values: impl Iterator<Item = Option<f64>>, lowest: bool) -> Option<f64> {
    values
        .flatten()
        .filter(|v| v.is_finite())
        .reduce(|a, b| if (b < a) == lowest && b != a { b } else { a })
}

pub(super) fn page(r: &Record, record_link: &str, charts: &[(String, String)]) -> String {
    let mut s = String::new();
    let h = &r.host;
    let ranked = ranking(r);
    let b = &r.backends;
    let _ = writeln!(s, "# Sliding-attack backends side by side\n");
    let _ = writeln!(
        s,
        "Every sliding-attack backend of Quince built, timed, counted and benchmarked in one run on one machine; \
         regenerate with `cargo run -p xtask -- lab` (this page alone, from its record: \
         `cargo run -p xtask -- lab --render reports/{record_link}`).\n"
    );
    if r.quick {
        let _ = writeln!(
            s,
            "> **Smoke test** (`--quick`): every perft two plies shallower, so start-up and \
             short runs weigh in. Not for comparison.\n"
        );
    }
    let _ = writeln!(s, "| | |\n| --- | --- |");
    let mut cpu = h.cpu_model_name.clone();
    let ids: Vec<String> = [
        h.cpu_vendor.clone(),
        h.cpu_family.map(|v| format!("family {v}")),
        h.cpu_model.map(|v| format!("model {v}")),
        h.cpu_stepping.map(|v| format!("stepping {v}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !ids.is_empty() {
        let _ = write!(cpu, " ({})", ids.join(", "));
    }
    let _ = writeln!(s, "| host | {cpu}, {} logical cores |", h.logical_cores);
    let cache = |x: Option<u64>| x.map_or("?".into(), human_bytes);
    let _ = writeln!(
        s,
        "| caches (per core) | L1d {}, L1i {}, L2 {}, L3 {} |",
        cache(h.l1d_bytes),
        cache(h.l1i_bytes),
        cache(h.l2_bytes),
        cache(h.l3_bytes)
    );
    let _ = writeln!(
        s,
        "| commit | `{}`{} |",
        r.commit.short,
        if r.commit.dirty {
            " with uncommitted changes"
        } else {
            ""
        }
    );
    let _ = writeln!(
        s,
        "| date | {} UTC |",
        r.date_utc.replace('T', " ").trim_end_matches('Z')
    );
    let _ = writeln!(s, "| rustc | {} |", r.rustc);
    let _ = writeln!(
        s,
        "| flags | {} for every build and the bench; release profile (fat LTO, 1 codegen unit) |",
        if r.rustflags.is_empty() {
            "no `RUSTFLAGS` (so `.cargo/config.toml`'s `-C target-cpu=x86-64-v2`)".to_string()
        } else {
            format!("`RUSTFLAGS='{}'`", r.rustflags)
        }
    );
    let _ = writeln!(
        s,
        "| rounds | {} alternating perft round{} per workload (median) |",
        r.rounds,
        if r.rounds == 1 { "" } else { "s" }
    );
    let _ = writeln!(s, "| record | [`reports/{record_link}`]({record_link}) |\n");
    for skip in &r.skipped {
        let _ = writeln!(s, "Not measured: `{}` ({}).\n", skip.name, skip.reason);
    }

    // The ranking.
    let _ = writeln!(s, "## Ranking\n");
    let _ = writeln!(
        s,
        "Ranked by bulk perft speed: per position, each backend's Mnodes/s over the best backend's, \
         then the geometric mean over the six positions (1.00 = the best everywhere). \
         Instructions per node: callgrind, geometric mean. Lookups: criterion, rook or bishop attack sets per second. \
         Tables: the bytes the backend reads, and the smallest cache they fit \
         (L1d {}, L2 {}). Build: wall seconds of the `quince` crate with that backend \
         (build script and table codegen, library, binary; dependencies already built). Best of each column in bold.\n",
        cache(h.l1d_bytes),
        cache(h.l2_bytes)
    );
    let _ = writeln!(
        s,
        "| rank | backend | bulk x of best (geomean) | full make x of best (geomean) | bulk instructions/node (geomean) | lookups M/s | tables | build s | binary KiB |\n\
         | ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |"
    );
    let best_bulk = best_of(b.iter().map(|x| x.bulk_ratio_to_best_geomean), false);
    let best_full = best_of(b.iter().map(|x| x.full_ratio_to_best_geomean), false);
    let best_ipn = best_of(b.iter().map(|x| x.bulk_instructions_per_node_geomean), true);
    let best_lookups = best_of(b.iter().map(|x| x.lookups_per_second), false);
    for (rank, &i) in ranked.iter().enumerate() {
        let x = &b[i];
        let is = |v: Option<f64>, best: Option<f64>| v.is_some() && v == best;
        let _ = writeln!(
            s,
            "| {} | `{}` | {} | {} | {} | {} | {} | {:.1} | {} |",
            rank + 1,
            x.name,
            bold(
                opt(x.bulk_ratio_to_best_geomean, 2),
                is(x.bulk_ratio_to_best_geomean, best_bulk)
            ),
            bold(
                opt(x.full_ratio_to_best_geomean, 2),
                is(x.full_ratio_to_best_geomean, best_full)
            ),
            bold(
                opt(x.bulk_instructions_per_node_geomean, 1),
                is(x.bulk_instructions_per_node_geomean, best_ipn)
            ),
            bold(
                x.lookups_per_second.map_or("-".into(), |v| sig3(v / 1e6)),
                is(x.lookups_per_second, best_lookups)
            ),
            if x.table_bytes == 0 {
                "none".to_string()
            } else {
                format!("{} ({})", human_bytes(x.table_bytes), x.fits)
            },
            x.build_seconds,
            (x.binary_bytes as f64 / 1024.0).round()
        );
    }
    s.push('\n');
    for (file, alt) in charts {
        let _ = writeln!(s, "![{alt}](sliders/{file})\n");
    }

    // Per position.
    let kinds = [
        ("bulk", "Bulk perft (last ply counted)"),
        ("full", "Full-make perft (every leaf move made)"),
    ];
    for (kind, title) in kinds {
        let cols: Vec<&WorkloadRecord> = b
            .first()
            .map(|x| x.workloads.iter().filter(|w| w.kind == kind).collect())
            .unwrap_or_default();
        if cols.is_empty() {
            continue;
        }
        let _ = writeln!(s, "## {title}, Mnodes/s per position\n");
        let _ = writeln!(
            s,
            "Median of {} round{}, the fastest backend of each column in bold; the last column is the geometric mean.\n",
            r.rounds,
            if r.rounds == 1 { "" } else { "s" }
        );
        table(
            &mut s,
            r,
            &ranked,
            kind,
            |w| format!("{} d{}", w.position, w.depth),
            |w| Some(w.mnps),
            |x| {
                if kind == "bulk" {
                    x.bulk_mnps_geomean
                } else {
                    x.full_mnps_geomean
                }
            },
            1,
            false,
        );
    }
    if b.iter().any(|x| {
        x.workloads
            .iter()
            .any(|w| w.instructions_per_node.is_some())
    }) {
        let _ = writeln!(s, "## Instructions per node per position (callgrind)\n");
        let _ = writeln!(
            s,
            "Instructions (`Ir`) of `quince perft` under callgrind minus those of the same command at depth 0 \
             (start-up, parsing, output), over the nodes; deterministic, so comparable across runs on any machine \
             with the same build. Fewest in bold; the last column is the geometric mean. {}\n",
            r.valgrind.as_deref().unwrap_or("")
        );
        for (kind, title) in kinds {
            let _ = writeln!(s, "{title}:\n");
            table(
                &mut s,
                r,
                &ranked,
                kind,
                |w| format!("{} d{}", w.position, w.callgrind_depth.unwrap_or(w.depth)),
                |w| w.instructions_per_node,
                |x| {
                    if kind == "bulk" {
                        x.bulk_instructions_per_node_geomean
                    } else {
                        x.full_instructions_per_node_geomean
                    }
                },
                1,
                true,
            );
        }
    }

    // Method.
    let _ = writeln!(s, "## How it was measured\n");
    let _ = writeln!(
        s,
        "* **Builds**: `cargo build --release --bin quince --no-default-features --features <backend>` into one target \
         directory per flag set (`target/lab/v3` or `target/lab/base`); one untimed build first compiles the dependencies, \
         then each backend's timed build follows `cargo clean --release -p quince`. Binaries are kept as `target/lab/bin/quince-<backend>`."
    );
    let _ = writeln!(
        s,
        "* **Perft**: `{}` (one thread, no hash table); in round r, workload p, every backend runs once, in an order rotated by r + p. \
         Node counts are checked against `tests/data/standard.epd`. The machine may be shared: read the ratios (side by side in one run) \
         and the instruction counts rather than the absolute Mnodes/s.",
        r.perft_command
    );
    if let Some(cmd) = &r.bench_command {
        let _ = writeln!(
            s,
            "* **Lookups**: `{cmd}`; criterion's median time per iteration over {} real lookups \
             (every rook, bishop and queen of the varied set and one move later, with its occupancy).",
            r.bench_lookups_per_iteration
                .map_or("the".into(), |n| n.to_string())
        );
    } else {
        let _ = writeln!(s, "* **Lookups**: not measured in this run (`--no-bench`).");
    }
    if r.valgrind.is_none() {
        let _ = writeln!(
            s,
            "* **Instructions**: not counted in this run (`--no-callgrind`)."
        );
    }
    let steps = &r.step_seconds;
    let _ = writeln!(
        s,
        "* The run took {:.1} minutes (builds {:.0} s, perft {:.0} s, callgrind {}, bench {}).\n",
        steps.total / 60.0,
        steps.build,
        steps.perft,
        steps
            .callgrind
            .map_or("skipped".into(), |v| format!("{v:.0} s")),
        steps
            .bench
            .map_or("skipped".into(), |v| format!("{v:.0} s"))
    );
    s
}

/// A per-position table: one row per backend (ranked), one column per
/// workload of `kind`, the best of each column in bold, a geomean column.
#[allow(clippy::too_many_arguments)]
pub(super) fn table(
    s: &mut String,
    r: &Record,
    ranked: &[usize],
    kind: &str,
    header: impl Fn(&WorkloadRecord) -> String,
    value: impl Fn(&WorkloadRecord) -> Option<f64>,
    mean: impl Fn(&BackendRecord) -> Option<f64>,
    places: usize,
    lowest: bool,
) {
    let b = &r.backends;
    let of_kind = |x: &BackendRecord| -> Vec<WorkloadRecord> {
        x.workloads
            .iter()
            .filter(|w| w.kind == kind)
            .cloned()
            .collect()
    };
    let Some(first) = b.first() else {
        return;
    };
    let cols = of_kind(first);
    let _ = writeln!(
        s,
        "| backend | {} | geomean |\n| --- |{} ---: |",
        cols.iter().map(&header).collect::<Vec<_>>().join(" | "),
        " ---: |".repeat(cols.len())
    );
    // Column -> best value, by position id.
    let mut best: BTreeMap<String, Option<f64>> = BTreeMap::new();
    for w in &cols {
        best.insert(
            w.position.clone(),
            best_of(
                b.iter().map(|x| {
                    x.workloads
                        .iter()
                        .find(|v| v.kind == kind && v.position == w.position)
                        .and_then(&value)
                }),
                lowest,
            ),
        );
    }
    let best_mean = best_of(b.iter().map(&mean), lowest);
    for &i in ranked {
        let x = &b[i];
        let cells: Vec<String> = cols
            .iter()
            .map(|c| {
                let v = x
                    .workloads
                    .iter()
                    .find(|w| w.kind == kind && w.position == c.position)
                    .and_then(&value);
                bold(opt(v, places), v.is_some() && v == best[&c.position])
            })
            .collect();
        let m = mean(x);
        let _ = writeln!(
            s,
            "| `{}` | {} | {} |",
            x.name,
            cells.join(" | "),
            bold(opt(m, places), m.is_some() && m == best_mean)
        );
    }
    s.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_analysis_verbatim() {
        let page = format!("# t\n\nnot {ANALYSIS_MARKER}\n{ANALYSIS_MARKER}\n\n## Why\n\ntext\n");
        assert_eq!(
            kept_analysis(&page),
            Some(format!("{ANALYSIS_MARKER}\n\n## Why\n\ntext\n").as_str())
        );
        assert_eq!(kept_analysis("# no marker\n"), None);
    }

    #[test]
    fn formats() {
        assert_eq!(human_bytes(0), "none");
        assert_eq!(human_bytes(2560), "2.5 KiB");
        assert_eq!(human_bytes(861_184), "841 KiB");
        assert_eq!(human_bytes(2_359_296), "2.25 MiB");
        assert_eq!(sig3(1234.4), "1234");
        assert_eq!(sig3(41.234), "41.2");
        assert_eq!(best_of([Some(2.0), Some(1.0)].into_iter(), true), Some(1.0));
        assert_eq!(
            best_of([Some(2.0), Some(3.0)].into_iter(), false),
            Some(3.0)
        );
    }
}
