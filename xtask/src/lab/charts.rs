//! The page's charts (plotters SVG), drawn from the record.

use std::path::Path;

use super::page::{ranking, sig3};
use super::record::Record;
use crate::charts::{self, Bar, BarChart};
use crate::util::Result;

/// Chart file names (relative to `reports/sliders/`) with their alt text.
pub(super) fn write_charts(record: &Record, dir: &Path) -> Result<Vec<(String, String)>> {
    let mut written = Vec::new();
    let ranked = ranking(record);
    let b = &record.backends;
    let positions = record.backends.first().map_or(0, |b| {
        b.workloads.iter().filter(|w| w.kind == "bulk").count()
    });

    let mut charts: Vec<(&str, &str, Option<BarChart>)> = Vec::new();
    let bulk: Vec<Bar> = ranked
        .iter()
        .filter_map(|&i| {
            let ratio = b[i].bulk_ratio_to_best_geomean?;
            let mnps = b[i].bulk_mnps_geomean.unwrap_or(f64::NAN);
            Some(Bar {
                label: b[i].name.clone(),
                value: ratio,
                text: format!("{ratio:.2}x ({mnps:.0} Mnodes/s)"),
                highlight: false,
            })
        })
        .collect();
    charts.push((
        "bulk-perft.svg",
        "bulk perft speed per backend",
        Some(BarChart {
            title: format!("Bulk perft speed (geometric mean over {positions} positions)"),
            x_desc: "x of each position's fastest backend (1 = fastest everywhere); \
                     Mnodes/s in brackets"
                .into(),
            bars: mark_best(bulk, "best"),
        }),
    ));

    let mut lookups: Vec<(usize, f64)> = (0..b.len())
        .filter_map(|i| Some((i, b[i].lookups_per_second?)))
        .collect();
    lookups.sort_by(|x, y| y.1.total_cmp(&x.1));
    charts.push((
        "lookups.svg",
        "attack lookups per second per backend",
        (!lookups.is_empty()).then(|| BarChart {
            title: "Attack lookups per second (criterion, benches/sliders.rs)".into(),
            x_desc: "million lookups per second (one rook or bishop attack set each)".into(),
            bars: mark_best(
                lookups
                    .iter()
                    .map(|&(i, v)| Bar {
                        label: b[i].name.clone(),
                        value: v / 1e6,
                        text: sig3(v / 1e6),
                        highlight: false,
                    })
                    .collect(),
                "best",
            ),
        }),
    ));

    let mut ipn: Vec<(usize, f64)> = (0..b.len())
        .filter_map(|i| Some((i, b[i].bulk_instructions_per_node_geomean?)))
        .collect();
    ipn.sort_by(|x, y| x.1.total_cmp(&y.1));
    charts.push((
        "instructions.svg",
        "bulk perft instructions per node per backend",
        (!ipn.is_empty()).then(|| BarChart {
            title: format!(
                "Bulk perft instructions per node (callgrind, geometric mean over {positions} positions)"
            ),
            x_desc: "instructions per node (fewer is better)".into(),
            bars: mark_best(
                ipn.iter()
                    .map(|&(i, v)| Bar {
                        label: b[i].name.clone(),
                        value: v,
                        text: format!("{v:.1}"),
                        highlight: false,
                    })
                    .collect(),
                "fewest",
            ),
        }),
    ));

    for (file, alt, chart) in charts {
        let path = dir.join(file);
        match chart {
            Some(chart) if !chart.bars.is_empty() => {
                let svg = charts::horizontal_bars(&chart)?;
                std::fs::write(&path, svg).map_err(|e| format!("{}: {e}", path.display()))?;
                written.push((file.to_string(), alt.to_string()));
            }
            // No figures (a skipped step): no stale chart either.
            _ => {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
    Ok(written)
}

/// The first bar (the best, as the bars come sorted) in the accent colour,
/// its figure followed by `word`.
pub(super) fn mark_best(mut bars: Vec<Bar>, word: &str) -> Vec<Bar> {
    if let Some(first) = bars.first_mut() {
        first.highlight = true;
        first.text.push_str(", ");
        first.text.push_str(word);
    }
    bars
}
