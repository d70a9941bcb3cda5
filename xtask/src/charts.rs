//! Charts drawn with plotters' SVG backend (used by `lab`).
//!
//! Without plotters' `ttf` feature text is laid out by an estimate (no font
//! files are read), so the charts leave generous room for labels: the
//! backend names get a fixed margin sized for the longest one, and the value
//! printed after each bar has headroom on the value axis.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::util::Result;

/// One bar of a horizontal bar chart.
pub struct Bar {
    /// The category (a backend name), written left of the bar.
    pub label: String,
    /// The bar's length in axis units.
    pub value: f64,
    /// The figure written after the bar (e.g. `0.87x`).
    pub text: String,
    /// Drawn in the accent colour (the best one).
    pub highlight: bool,
}

/// A horizontal bar chart: bars from top to bottom in the given order.
pub struct BarChart {
    pub title: String,
    /// The value axis' description, with its unit.
    pub x_desc: String,
    pub bars: Vec<Bar>,
}

const FONT: &str = "sans-serif";
const WIDTH: u32 = 960;
const BAR: RGBColor = RGBColor(92, 130, 184);
const ACCENT: RGBColor = RGBColor(214, 122, 32);
const TEXT: RGBColor = RGBColor(40, 40, 40);

fn err<E: std::fmt::Display>(e: E) -> String {
    format!("chart: {e}")
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

/// Decimals needed to print multiples of `step` exactly.
fn decimals(step: f64) -> usize {
    (-step.log10().floor()).max(0.0) as usize
}

/// Renders the chart as an SVG document.
pub fn horizontal_bars(chart: &BarChart) -> Result<String> {
    let n = chart.bars.len();
    if n == 0 {
        return Err("chart: no bars".into());
    }
    let longest = chart
        .bars
        .iter()
        .map(|b| b.label.chars().count())
        .max()
        .unwrap_or(4);
    let longest_text = chart
        .bars
        .iter()
        .map(|b| b.text.chars().count())
        .max()
        .unwrap_or(4);
    let height = 130 + 38 * n as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        draw(&root, chart, longest, longest_text)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

fn draw(
    root: &DrawingArea<SVGBackend, Shift>,
    chart: &BarChart,
    longest_label: usize,
    longest_text: usize,
) -> Result<()> {
    let n = chart.bars.len() as i32;
    let max = chart.bars.iter().map(|b| b.value).fold(0.0, f64::max);
    // Room after the longest bar for its figure: about 7 px per character
    // at 16 px (DejaVu Sans measured 6.9) on a plot about 700 px wide.
    let plot_px = (WIDTH as f64 - 40.0 - 10.0 * longest_label as f64).max(300.0);
    let text_share = ((longest_text as f64 * 7.5 + 16.0) / plot_px).min(0.45);
    let (axis_max, step) = nice_axis(max / (1.0 - text_share));
    let ticks = (axis_max / step).round() as usize + 1;
    let places = decimals(step);

    let mut cc = ChartBuilder::on(root)
        .caption(&chart.title, (FONT, 22).into_font().color(&TEXT))
        .margin(18)
        .margin_right(28)
        .x_label_area_size(58)
        .y_label_area_size(24 + 10 * longest_label as u32)
        // An integer range's segments include its end: 0..n - 1 gives n rows
        // (0..0 would be empty, so one bar gets a blank row above it).
        .build_cartesian_2d(0.0..axis_max, (0..(n - 1).max(1)).into_segmented())
        .map_err(err)?;
    let labels: Vec<&str> = chart.bars.iter().rev().map(|b| b.label.as_str()).collect();
    cc.configure_mesh()
        .disable_y_mesh()
        .x_labels(ticks)
        .x_label_formatter(&|x| format!("{x:.places$}"))
        .y_labels(n as usize)
        .y_label_formatter(&|y| match y {
            SegmentValue::CenterOf(i) => labels.get(*i as usize).copied().unwrap_or("").into(),
            _ => String::new(),
        })
        .x_desc(chart.x_desc.as_str())
        .label_style((FONT, 16).into_font().color(&TEXT))
        .axis_desc_style((FONT, 17).into_font().color(&TEXT))
        .max_light_lines(1)
        .light_line_style(RGBColor(240, 240, 240))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()
        .map_err(err)?;

    // Bottom-up: the first bar of the list is drawn at the top.
    let rows = chart
        .bars
        .iter()
        .enumerate()
        .map(|(k, b)| (n - 1 - k as i32, b));
    cc.draw_series(rows.clone().map(|(i, b)| {
        let colour = if b.highlight { ACCENT } else { BAR };
        let mut bar = Rectangle::new(
            [
                (0.0, SegmentValue::Exact(i)),
                (b.value.max(0.0), SegmentValue::Exact(i + 1)),
            ],
            colour.filled(),
        );
        bar.set_margin(6, 6, 0, 0);
        bar
    }))
    .map_err(err)?;
    let gap = axis_max * 0.008;
    cc.draw_series(rows.map(|(i, b)| {
        let style = (FONT, 16)
            .into_font()
            .color(&TEXT)
            .pos(Pos::new(HPos::Left, VPos::Center));
        Text::new(
            b.text.clone(),
            (b.value.max(0.0) + gap, SegmentValue::CenterOf(i)),
            style,
        )
    }))
    .map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_end_at_round_numbers() {
        let close = |(a, b): (f64, f64), (x, y): (f64, f64)| {
            assert!((a - x).abs() < 1e-9 && (b - y).abs() < 1e-9, "{a} {b}")
        };
        close(nice_axis(1.0), (1.0, 0.2));
        close(nice_axis(1.1), (1.2, 0.2));
        close(nice_axis(930.0), (1000.0, 200.0));
        close(nice_axis(41.0), (50.0, 10.0));
        close(nice_axis(12.0), (12.0, 2.0));
        assert_eq!(decimals(0.2), 1);
        assert_eq!(decimals(200.0), 0);
    }

    #[test]
    fn renders_an_svg() {
        let svg = horizontal_bars(&BarChart {
            title: "t".into(),
            x_desc: "x (unit)".into(),
            bars: vec![
                Bar {
                    label: "kindergarten".into(),
                    value: 1.0,
                    text: "1.00x".into(),
                    highlight: true,
                },
                Bar {
                    label: "hq".into(),
                    value: 0.5,
                    text: "0.50x".into(),
                    highlight: false,
                },
            ],
        })
        .unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("kindergarten"));
    }
}
