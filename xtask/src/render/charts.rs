//! Charts drawn from the newest records: every round as a dot, the median
//! as a bar from zero, the interval as a whisker, a line at 1 (parity),
//! and a title naming the commit, the host and the date.

use plotters::prelude::*;

use crate::measure::host::family_name;
use crate::measure::{Ratio, Timings};
use crate::record::{LabRecord, Records};
use crate::util::Result;

const FONT: &str = "sans-serif";
const WIDTH: u32 = 900;

fn err<E: std::fmt::Display>(e: E) -> String {
    format!("chart: {e}")
}

/// One row of a chart.
struct Row {
    label: String,
    ratio: Ratio,
}

fn title(what: &str, r: &LabRecord) -> String {
    format!(
        "{what}: {} on {}, {}",
        r.commit.short.get(..7).unwrap_or(""),
        family_name(&r.host),
        r.date_utc.get(..10).unwrap_or("")
    )
}

fn draw(title: &str, x_desc: &str, rows: &[Row]) -> Result<String> {
    let n = rows.len();
    let max = rows
        .iter()
        .flat_map(|r| r.ratio.rounds.iter().copied())
        .fold(1.0, f64::max);
    let axis_max = (max * 1.1 * 4.0).ceil() / 4.0;
    let label_px = 12
        + 8 * rows
            .iter()
            .map(|r| r.label.chars().count())
            .max()
            .unwrap_or(8) as u32;
    let height = 110 + 30 * n as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut cc = ChartBuilder::on(&root)
            .caption(title, (FONT, 18))
            .margin(14)
            .x_label_area_size(44)
            .y_label_area_size(label_px)
            .build_cartesian_2d(0.0..axis_max, -0.5..(n as f64 - 0.5))
            .map_err(err)?;
        let labels: Vec<String> = rows.iter().map(|r| r.label.clone()).collect();
        cc.configure_mesh()
            .disable_y_mesh()
            .y_labels(n)
            .y_label_formatter(&|y| {
                let i = n as i64 - 1 - y.round() as i64;
                if (y - y.round()).abs() < 1e-6 && i >= 0 {
                    labels.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .x_desc(x_desc)
            .label_style((FONT, 14))
            .draw()
            .map_err(err)?;
        let y_of = |i: usize| (n - 1 - i) as f64;
        let blue = RGBColor(70, 110, 170);
        for (i, row) in rows.iter().enumerate() {
            let y = y_of(i);
            let iv = row.ratio.interval;
            let fill = if row.ratio.tie {
                RGBColor(200, 200, 200)
            } else {
                RGBColor(170, 195, 230)
            };
            cc.draw_series(std::iter::once(Rectangle::new(
                [(0.0, y - 0.3), (iv.median, y + 0.3)],
                fill.filled(),
            )))
            .map_err(err)?;
            cc.draw_series(std::iter::once(PathElement::new(
                vec![(iv.lo, y), (iv.hi, y)],
                BLACK.stroke_width(2),
            )))
            .map_err(err)?;
            for end in [iv.lo, iv.hi] {
                cc.draw_series(std::iter::once(PathElement::new(
                    vec![(end, y - 0.15), (end, y + 0.15)],
                    BLACK.stroke_width(2),
                )))
                .map_err(err)?;
            }
            cc.draw_series(
                row.ratio
                    .rounds
                    .iter()
                    .map(|&x| Circle::new((x, y), 3, blue.filled())),
            )
            .map_err(err)?;
        }
        cc.draw_series(std::iter::once(PathElement::new(
            vec![(1.0, -0.5), (1.0, n as f64 - 0.5)],
            RED.stroke_width(1),
        )))
        .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

fn per_position_rows(t: &Timings, kind: &str, reference: &str, others: &[&str]) -> Vec<Row> {
    let mut rows = Vec::new();
    for w in t.workloads.iter().filter(|w| w.kind == kind) {
        for o in others {
            if let Some(ratio) = t.ratio(&w.id, reference, o) {
                rows.push(Row {
                    label: format!("{} / {o}", w.position),
                    ratio,
                });
            }
        }
    }
    rows
}

/// Every chart file (relative to the workspace root) with its SVG.
pub fn all(records: &Records) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    // Each comparison from the newest record that measured it (a record
    // made with `report --no-crates` leaves the crates to an older one).
    let mut names: Vec<&str> = Vec::new();
    for (_, r) in records.lab.iter().filter(|(_, r)| r.kind == "peers") {
        for c in &r.comparisons {
            if !names.contains(&c.name.as_str()) {
                names.push(&c.name);
            }
        }
    }
    for name in names {
        if let Some((_, r)) = records.latest_with("peers", name)
            && let Some(c) = r.comparison(name)
        {
            let others = c.others();
            for kind in ["bulk", "full"] {
                let rows = per_position_rows(&c.timings, kind, &c.reference, &others);
                if rows.is_empty() {
                    continue;
                }
                let what = format!("Quince {kind} perft over each peer ({})", c.name);
                let svg = draw(
                    &title(&what, r),
                    "times faster (dots: rounds; bar: median; whisker: interval; red: parity)",
                    &rows,
                )?;
                out.push((format!("reports/charts/peers-{}-{kind}.svg", c.name), svg));
            }
        }
    }
    if let Some((_, r)) = records.latest("sliders")
        && let Some(c) = r.comparison("backends")
    {
        for kind in ["bulk", "full"] {
            let rows: Vec<Row> = c
                .contenders
                .iter()
                .filter_map(|x| {
                    Some(Row {
                        label: x.name.clone(),
                        ratio: c.timings.geomean_ratio(kind, &x.name, &c.reference)?,
                    })
                })
                .collect();
            if rows.is_empty() {
                continue;
            }
            let what = format!("Backends, {kind} perft, speed against {}", c.reference);
            let svg = draw(
                &title(&what, r),
                "reference's seconds over the backend's (geometric mean of positions)",
                &rows,
            )?;
            out.push((format!("reports/charts/sliders-{kind}.svg"), svg));
        }
    }
    Ok(out)
}
