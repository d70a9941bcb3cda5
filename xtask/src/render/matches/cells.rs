//! How the match blocks write a cell: percentages, signed figures, Elo
//! with its margin and its footnotes, W/D/L and pentanomial counts,
//! engines and their options, hosts, days, failures, links to records.

use std::fmt::Write as _;

use crate::record::matches::{Elo, Host, MatchRecord, Stats};

/// A percentage: two decimals where they are exact (52.75 %), else one.
pub fn percent(fraction: f64) -> String {
    let p = fraction * 100.0;
    let hundredths = (p * 100.0).round();
    if (p * 100.0 - hundredths).abs() < 1e-6 && hundredths % 10.0 != 0.0 {
        format!("{p:.2} %")
    } else {
        format!("{p:.1} %")
    }
}

pub(in crate::render) fn signed(x: f64, decimals: usize) -> String {
    // No "-0.0".
    let s = format!("{x:+.decimals$}");
    if s.trim_start_matches(['+', '-'])
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        s.replacen('-', "+", 1)
    } else {
        s
    }
}

pub(super) fn elo_text(e: &Elo) -> String {
    format!("{} ± {:.1}", signed(e.estimate, 1), e.margin)
}

pub(super) fn wdl(s: &Stats) -> String {
    let [w, d, l] = s.tally.wdl;
    format!("{w} / {d} / {l}")
}

pub(super) fn ptnml(s: &Stats) -> String {
    if s.per_game || s.tally.pairs() == 0 {
        "–".into()
    } else {
        s.tally.ptnml.map(|n| n.to_string()).join(" ")
    }
}

pub(super) fn nps(x: f64) -> String {
    crate::render::format::human_rate(x)
}

fn option_value(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

pub(super) fn options(e: &crate::record::matches::Engine) -> String {
    e.options
        .iter()
        .map(|(k, v)| format!("`{k}={}`", option_value(v)))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn short(commit: &str) -> &str {
    &commit[..commit.len().min(7)]
}

/// The engine as a table names it: its label, the commit where the label
/// does not carry it, the options set.
pub(super) fn engine_cell(e: &crate::record::matches::Engine) -> String {
    let mut s = e.label.clone();
    if let Some(c) = &e.commit
        && !e.label.contains(short(c))
    {
        let _ = write!(s, " `{}`", short(c));
    }
    if !e.options.is_empty() {
        let _ = write!(s, ": {}", options(e));
    }
    s
}

/// The microarchitecture of a CPU where vendor, family and model say it
/// plainly (the names of the lab's records).
fn microarchitecture(h: &Host) -> Option<String> {
    if let Some(m) = &h.microarchitecture {
        return Some(m.clone());
    }
    crate::measure::host::microarchitecture(h.cpu_vendor.as_deref()?, h.cpu_family?, h.cpu_model)
        .map(str::to_string)
}

/// A host in words: model name, microarchitecture (family, model), cores.
pub fn host_label(host: Option<&Host>) -> String {
    let Some(h) = host else {
        return "host not recorded".into();
    };
    let mut parts: Vec<String> = Vec::new();
    if let Some(n) = &h.cpu_model_name {
        parts.push(n.replace("(R)", "").replace("(TM)", ""));
    } else if let Some(v) = &h.cpu_vendor {
        parts.push(v.clone());
    }
    let numbers = match (h.cpu_family, h.cpu_model) {
        (Some(f), Some(m)) => format!("family {f}, model {m}"),
        (Some(f), None) => format!("family {f}"),
        _ => String::new(),
    };
    match (microarchitecture(h), numbers.is_empty()) {
        (Some(a), false) => parts.push(format!("{a} ({numbers})")),
        (Some(a), true) => parts.push(a),
        (None, false) => parts.push(numbers),
        (None, true) => {}
    }
    if let Some(c) = h.logical_cores {
        parts.push(format!("{c} cores"));
    }
    if parts.is_empty() {
        "host not recorded".into()
    } else {
        parts.join(", ")
    }
}

pub(super) fn day(s: &Stats, r: &MatchRecord) -> String {
    s.tally
        .first_finished
        .map(|t| crate::record::matches::iso_utc(t)[..10].to_string())
        .or_else(|| r.day())
        .unwrap_or_else(|| "–".into())
}

/// "0", or the count with each engine's share: "1 (B)".
fn event_count(counts: [u32; 2], a: &str, b: &str) -> String {
    let total = counts[0] + counts[1];
    match counts {
        [0, 0] => "0".into(),
        [_, 0] => format!("{total} ({a})"),
        [0, _] => format!("{total} ({b})"),
        _ => format!("{total} ({a} {}, {b} {})", counts[0], counts[1]),
    }
}

pub(super) fn failures(s: &Stats, r: &MatchRecord) -> String {
    let t = &s.tally;
    let (a, b) = (&r.engines.a.label, &r.engines.b.label);
    let crashes = [t.crashes[0] + t.hangs[0], t.crashes[1] + t.hangs[1]];
    format!(
        "{} / {} / {}",
        event_count(t.time_losses, a, b),
        event_count(t.illegal_moves, a, b),
        event_count(crashes, a, b)
    )
}

pub(super) fn record_link(r: &MatchRecord) -> String {
    let mut s = format!("[{}](data/{})", r.file, r.file);
    if r.backfilled {
        s.push_str(" (backfilled)");
    }
    s
}

pub(super) fn verdict_text(s: &Stats, r: &MatchRecord) -> String {
    let verdict = match (s.verdict, s.approximate_verdict) {
        (Some(v), Some(old)) => format!(
            "{} ({} only under the normal approximation)",
            v.as_str(),
            old.as_str()
        ),
        (Some(v), None) => v.as_str().to_string(),
        (None, _) => return "–".into(),
    };
    match &r.outcome {
        Some(o) => format!("{verdict}: {o}"),
        None => verdict,
    }
}

/// Footnote marks an Elo cell needs.
#[derive(Default)]
pub(super) struct Notes {
    per_game: bool,
    unbounded: bool,
}

impl Notes {
    pub(super) fn elo(&mut self, s: &Stats) -> String {
        let Some(e) = &s.elo else {
            return "–".into();
        };
        let mut text = elo_text(e);
        if s.per_game {
            self.per_game = true;
            text.push_str(" ¹");
        }
        if e.unbounded {
            self.unbounded = true;
            text.push_str(" ²");
        }
        text
    }

    pub(super) fn write(&self, out: &mut String) {
        if self.per_game {
            out.push_str(
                "\n¹ From single games (W/D/L), as the first runner computed it: it did not \
                 count pairs.\n",
            );
        }
        if self.unbounded {
            out.push_str(
                "\n² The 95 % interval reaches a score of 0 or 1, where the Elo scale has no \
                 end: read it as \"clearly stronger\" (or weaker), nothing more precise.\n",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::matches::fixtures::host;

    #[test]
    fn formats() {
        assert_eq!(percent(0.5275), "52.75 %");
        assert_eq!(percent(108.0 / 2.0 / 200.0 + 0.0), "27.0 %");
        assert_eq!(percent(85.5 / 158.0), "54.1 %");
        assert_eq!(percent(0.5), "50.0 %");
        assert_eq!(signed(-0.001, 2), "+0.00");
        assert_eq!(signed(-3.1, 1), "-3.1");
        assert_eq!(nps(2_290_000.0), "2.29 M");
        assert_eq!(nps(868_000.0), "868 k");
        assert_eq!(
            host_label(Some(&host("GenuineIntel", 6, Some(167)))),
            "Intel Xeon Processor, Rocket Lake (family 6, model 167), 2 cores"
        );
        assert_eq!(
            host_label(Some(&host("AuthenticAMD", 26, None))),
            "AMD EPYC, Zen 5 (family 26), 2 cores"
        );
        assert_eq!(host_label(None), "host not recorded");
    }
}
