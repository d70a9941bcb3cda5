//! Grouped horizontal bar charts as plain SVG (no dependencies): one block
//! of bars per category (position, workload), one bar per series (engine,
//! backend), the value printed at the end of each bar.

use std::fmt::Write;

const PALETTE: [&str; 8] = [
    "#c2410c", "#2563eb", "#16a34a", "#9333ea", "#ca8a04", "#0891b2", "#be185d", "#4b5563",
];

pub struct Chart {
    pub title: String,
    /// The unit of the values, shown on the axis (e.g. "Mnodes/s").
    pub unit: String,
    pub categories: Vec<String>,
    /// (series name, one value per category; `None` leaves a gap).
    pub series: Vec<(String, Vec<Option<f64>>)>,
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

impl Chart {
    pub fn to_svg(&self) -> String {
        let bar = 14.0;
        let gap = 10.0;
        let label_w = 130.0;
        let plot_w = 520.0;
        let value_w = 70.0;
        let top = 58.0;
        let n = self.series.len().max(1) as f64;
        let block = n * bar + gap;
        let height = top + block * self.categories.len() as f64 + 34.0;
        let width = label_w + plot_w + value_w;
        let max = self
            .series
            .iter()
            .flat_map(|(_, v)| v.iter().flatten())
            .fold(0.0f64, |m, &v| m.max(v));
        let scale = if max > 0.0 { plot_w / max } else { 0.0 };

        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">"#
        );
        let _ = writeln!(
            s,
            r#"<rect width="100%" height="100%" fill="white"/><text x="8" y="18" font-size="14" font-weight="bold">{}</text>"#,
            escape(&self.title)
        );
        // Legend.
        let mut x = 8.0;
        for (i, (name, _)) in self.series.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let _ = writeln!(
                s,
                r#"<rect x="{x}" y="30" width="10" height="10" fill="{color}"/><text x="{}" y="39">{}</text>"#,
                x + 14.0,
                escape(name)
            );
            x += 24.0 + 7.0 * name.len() as f64;
        }
        // Grid: five ticks.
        for t in 0..=4 {
            let v = max * t as f64 / 4.0;
            let gx = label_w + v * scale;
            let _ = writeln!(
                s,
                r##"<line x1="{gx:.1}" y1="{top}" x2="{gx:.1}" y2="{:.1}" stroke="#ddd"/><text x="{gx:.1}" y="{:.1}" text-anchor="middle" fill="#555">{}</text>"##,
                height - 30.0,
                height - 18.0,
                tick(v)
            );
        }
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#555">{}</text>"##,
            label_w + plot_w / 2.0,
            height - 4.0,
            escape(&self.unit)
        );
        for (c, category) in self.categories.iter().enumerate() {
            let y0 = top + c as f64 * block;
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                label_w - 6.0,
                y0 + n * bar / 2.0 + 4.0,
                escape(category)
            );
            for (i, (_, values)) in self.series.iter().enumerate() {
                let Some(v) = values.get(c).copied().flatten() else {
                    continue;
                };
                let y = y0 + i as f64 * bar;
                let w = (v * scale).max(0.5);
                let _ = writeln!(
                    s,
                    r#"<rect x="{label_w}" y="{y:.1}" width="{w:.1}" height="{:.1}" fill="{}"/><text x="{:.1}" y="{:.1}">{}</text>"#,
                    bar - 2.0,
                    PALETTE[i % PALETTE.len()],
                    label_w + w + 3.0,
                    y + bar - 4.0,
                    tick(v)
                );
            }
        }
        s.push_str("</svg>\n");
        s
    }
}

fn tick(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}
