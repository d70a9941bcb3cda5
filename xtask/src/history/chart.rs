//! The history chart: instructions per node of the tracked workload at each
//! commit, with the CI baseline and its gate drawn across.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::util::Result;

/// One commit on the chart, oldest first.
pub struct Point {
    /// The short hash, written beside the point when it is a notable step.
    pub label: String,
    /// The commit's date, `MM-DD`, written under the axis with the hash.
    pub date: String,
    /// `None` where the commit could not be measured (drawn as a gap).
    pub value: Option<f64>,
}

/// What the chart shows besides the points.
pub struct HistoryChart {
    pub title: String,
    pub points: Vec<Point>,
    /// The CI baseline (instructions per node) and its gate in percent.
    pub baseline: Option<(f64, f64)>,
}

/// A step of this many percent or more gets its commit's hash written.
pub const NOTABLE_STEP: f64 = 1.0;

const FONT: &str = "sans-serif";
const LINE: RGBColor = RGBColor(92, 130, 184);
const BASE: RGBColor = RGBColor(60, 150, 80);
const GATE: RGBColor = RGBColor(200, 60, 50);
const TEXT: RGBColor = RGBColor(40, 40, 40);

fn err<E: std::fmt::Display>(e: E) -> String {
    format!("chart: {e}")
}

/// Renders the chart as an SVG document.
pub fn render(chart: &HistoryChart) -> Result<String> {
    let n = chart.points.len();
    let values: Vec<f64> = chart.points.iter().filter_map(|p| p.value).collect();
    if values.is_empty() {
        return Err("chart: no measured commit".into());
    }
    let mut top = values.iter().copied().fold(f64::MIN, f64::max);
    let mut bottom = values.iter().copied().fold(f64::MAX, f64::min);
    if let Some((base, gate)) = chart.baseline {
        top = top.max(base * (1.0 + gate / 100.0));
        bottom = bottom.min(base);
    }
    // A round step from the spread, the axis snapped to multiples of it,
    // with a step's room above the highest line for the legend.
    let (_, step) = nice_axis((top - bottom).max(top * 0.02));
    // From zero, so a step's height reads as its share of the whole (an
    // axis starting near the data made a quarter look like four fifths).
    let _ = bottom;
    let y_min = 0.0;
    let y_max = ((top / step).ceil() + 1.0) * step;
    let places = (-step.log10().floor()).max(0.0) as usize;

    let width = (260 + 34 * n as u32).max(900);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, 620)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut cc = ChartBuilder::on(&root)
            .caption(&chart.title, (FONT, 22).into_font().color(&TEXT))
            .margin(18)
            .margin_right(30)
            .x_label_area_size(70)
            .y_label_area_size(80)
            .build_cartesian_2d(-0.5..(n as f64 - 0.5), y_min..y_max)
            .map_err(err)?;
        // Date and short hash under every few commits: all of them would
        // not fit across (plotters' SVG backend does not rotate labels).
        let every = n.div_ceil(8).max(1);
        let labels: Vec<String> = chart
            .points
            .iter()
            .map(|p| format!("{} {}", p.date, p.label))
            .collect();
        cc.configure_mesh()
            .disable_x_mesh()
            .x_labels(n + 1)
            .x_label_formatter(&|x| {
                let k = x.round();
                if (x - k).abs() < 1e-6
                    && k >= 0.0
                    && (k as usize) < n
                    && (k as usize).is_multiple_of(every)
                {
                    labels[k as usize].clone()
                } else {
                    String::new()
                }
            })
            .y_labels(((y_max - y_min) / step).round() as usize + 1)
            .y_label_formatter(&|y| format!("{y:.places$}"))
            .y_desc("instructions per node (fewer is better)")
            .x_desc("commits that changed src/, oldest to newest (date and commit)")
            .label_style((FONT, 15).into_font().color(&TEXT))
            .axis_desc_style((FONT, 16).into_font().color(&TEXT))
            .max_light_lines(1)
            .light_line_style(RGBColor(242, 242, 242))
            .bold_line_style(RGBColor(215, 215, 215))
            .draw()
            .map_err(err)?;

        if let Some((base, gate)) = chart.baseline {
            let limit = base * (1.0 + gate / 100.0);
            // The baseline's label under its line, the gate's above its
            // own: a few percent apart, the two would overlap otherwise.
            for (y, colour, text, side) in [
                (base, BASE, format!("CI baseline {base:.3}"), VPos::Top),
                (
                    limit,
                    GATE,
                    format!("gate +{gate}% ({limit:.3}): CI fails above"),
                    VPos::Bottom,
                ),
            ] {
                cc.draw_series(LineSeries::new(
                    [(-0.5, y), (n as f64 - 0.5, y)],
                    colour.stroke_width(2),
                ))
                .map_err(err)?;
                cc.draw_series(std::iter::once(Text::new(
                    text,
                    (-0.3, y),
                    (FONT, 15)
                        .into_font()
                        .color(&colour)
                        .pos(Pos::new(HPos::Left, side)),
                )))
                .map_err(err)?;
            }
        }

        // Runs of measured commits as lines; unmeasured ones leave gaps.
        let mut run: Vec<(f64, f64)> = Vec::new();
        let mut runs = Vec::new();
        for (k, p) in chart.points.iter().enumerate() {
            match p.value {
                Some(v) => run.push((k as f64, v)),
                None => runs.push(std::mem::take(&mut run)),
            }
        }
        runs.push(run);
        for r in runs.into_iter().filter(|r| !r.is_empty()) {
            cc.draw_series(LineSeries::new(r.clone(), LINE.stroke_width(2)))
                .map_err(err)?;
            cc.draw_series(r.into_iter().map(|p| Circle::new(p, 4, LINE.filled())))
                .map_err(err)?;
        }
        // The short hash beside every step of NOTABLE_STEP or more.
        let mut previous: Option<f64> = None;
        for (k, p) in chart.points.iter().enumerate() {
            let Some(v) = p.value else { continue };
            if previous.is_some_and(|prev| (v / prev - 1.0).abs() * 100.0 >= NOTABLE_STEP) {
                cc.draw_series(std::iter::once(Text::new(
                    p.label.clone(),
                    (k as f64 + 0.15, v),
                    (FONT, 13)
                        .into_font()
                        .color(&TEXT)
                        .pos(Pos::new(HPos::Left, VPos::Bottom)),
                )))
                .map_err(err)?;
            }
            previous = Some(v);
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// A round axis end and tick step for values up to `max`: 1, 2 or 5 times
/// a power of ten, about five to nine ticks.
pub fn nice_axis(max: f64) -> (f64, f64) {
    let max = if max.is_finite() && max > 0.0 {
        max
    } else {
        1.0
    };
    let raw = max / 8.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * magnitude);
    ((max / step - 1e-9).ceil() * step, step)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_points_baseline_and_gaps() {
        let svg = render(&HistoryChart {
            title: "t".into(),
            points: vec![
                Point {
                    label: "aaaaaaa".into(),
                    date: "11-24".into(),
                    value: Some(30.0),
                },
                Point {
                    label: "bbbbbbb".into(),
                    date: "11-25".into(),
                    value: None,
                },
                Point {
                    label: "ccccccc".into(),
                    date: "11-26".into(),
                    value: Some(28.7),
                },
            ],
            baseline: Some((28.742, 3.0)),
        })
        .unwrap();
        assert!(svg.starts_with("<svg"));
        // 30.0 -> 28.7 is a notable step: its hash is written.
        assert!(svg.contains("ccccccc"));
        // The axis names commits by date and hash.
        assert!(svg.contains("11-24 aaaaaaa"));
        assert!(svg.contains("CI baseline 28.742"));
        assert!(svg.contains("CI fails above"));
    }

    #[test]
    fn no_measured_commit_is_an_error() {
        let chart = HistoryChart {
            title: "t".into(),
            points: vec![Point {
                label: "a".into(),
                date: "11-26".into(),
                value: None,
            }],
            baseline: None,
        };
        assert!(render(&chart).is_err());
    }
}
