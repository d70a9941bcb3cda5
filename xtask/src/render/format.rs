//! How the lab blocks write figures: a ratio with its interval, ties and
//! flags, the coverage note, a record's provenance line, links to records.

use crate::measure::Ratio;
use crate::measure::Timings;
use crate::measure::host::family_name;
use crate::measure::stats::Interval;
use crate::record::LabRecord;

/// A link from `page` to a record file in `reports/data/`.
pub fn record_link(page: &str, file: &str) -> String {
    format!("[`{file}`]({})", record_path(page, file))
}

/// The relative path from `page` to a record file in `reports/data/`.
pub fn record_path(page: &str, file: &str) -> String {
    let depth = page.matches('/').count();
    let up = match depth {
        0 => "reports/data/".to_string(),
        _ if page.starts_with("reports/") => "data/".to_string(),
        _ => format!("{}reports/data/", "../".repeat(depth)),
    };
    format!("{up}{file}")
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

pub fn coverage_note(t: &Timings) -> String {
    let i = Interval::of(&vec![1.0; t.rounds]);
    format!(
        "median of {} paired rounds, each run at least {} s; in brackets the order-statistic interval of the median (coverage {:.1} %); a tie where it holds 1",
        t.rounds,
        t.min_seconds,
        100.0 * i.coverage
    )
}

/// One line naming what a record measured and where.
pub fn provenance(file: &str, r: &LabRecord, page: &str) -> String {
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

/// A rate such as nodes or positions per second or per core-hour:
/// `2.93 M` from a million up, `868 k` below.
pub fn human_rate(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else {
        format!("{:.0} k", x / 1e3)
    }
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

pub fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

/// How pages name a contender: its own spelling, not the record's key.
pub fn display(name: &str) -> &str {
    match name {
        "quince" => "Quince",
        "gigantua" => "Gigantua",
        "mperft" => "MPerft",
        other => other,
    }
}
