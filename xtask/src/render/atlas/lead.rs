//! `atlas.lead`: per CPU, Quince's generator against the C/C++ perft
//! programs from the newest record on that CPU model that compared them;
//! and the same figures for other pages ([`leads`]).

use std::fmt::Write as _;

use super::per_cpu;
use crate::atlas::AtlasRecord;
use crate::measure::Ratio;
use crate::measure::host::family_name;
use crate::record::{Comparison, Records};
use crate::render::format::{ratio_text, record_link};

/// The newest clean comparison with the C/C++ programs on the CPU model
/// `cpu`: a peers record (`report`) or an atlas record that ran the lead
/// itself (format 4), as (file, commit, rustflags, comparison).
fn newest_lead<'a>(
    cpu: &str,
    records: &'a Records,
) -> Option<(&'a str, &'a str, &'a str, &'a Comparison)> {
    // (date, file, commit, rustflags, the comparison)
    let from_peers = records
        .lab
        .iter()
        .filter(|(_, r)| r.kind == "peers" && !r.commit.dirty && family_name(&r.host) == cpu)
        .filter_map(|(file, r)| {
            Some((
                r.date_utc.as_str(),
                file.as_str(),
                r.commit.short.as_str(),
                r.toolchain.rustflags.as_str(),
                r.comparison("process")?,
            ))
        });
    let from_atlas = records
        .atlas
        .iter()
        .filter(|(_, r)| !r.commit.dirty && r.cpu == cpu)
        .filter_map(|(file, r)| {
            Some((
                r.date_utc.as_str(),
                file.as_str(),
                r.commit.short.as_str(),
                r.timing_rustflags.as_str(),
                r.peers.as_ref()?,
            ))
        });
    let (_, file, commit, rustflags, c) =
        from_peers.chain(from_atlas).max_by(|a, b| a.0.cmp(b.0))?;
    Some((file, commit, rustflags, c))
}

/// Quince against the best C/C++ program on one standard position.
pub struct PositionLead {
    pub position: String,
    /// The C/C++ program Quince is compared with there (the fastest).
    pub peer: String,
    /// How many times as fast Quince is.
    pub ratio: Ratio,
}

/// Quince against the best C/C++ program on each standard position of a
/// comparison (bulk perft).
fn best_peer_ratios(c: &Comparison) -> Vec<PositionLead> {
    let peers = c.others();
    let mut out = Vec::new();
    for w in c.timings.workloads.iter().filter(|w| w.kind == "bulk") {
        let best = peers
            .iter()
            .filter_map(|p| Some((*p, c.timings.ratio(&w.id, &c.reference, p)?)))
            .min_by(|a, b| a.1.interval.median.total_cmp(&b.1.interval.median));
        if let Some((p, ratio)) = best {
            out.push(PositionLead {
                position: w.position.clone(),
                peer: p.to_string(),
                ratio,
            });
        }
    }
    out
}

/// Per atlas CPU model (in the atlas's order): Quince's lead on each
/// standard position, from [`newest_lead`] (an empty list where there is
/// none), for pages that weigh the lead against its target.
pub fn leads(records: &Records) -> Vec<(String, Vec<PositionLead>)> {
    per_cpu(records)
        .into_iter()
        .map(|(_, atlas)| {
            let cells = newest_lead(&atlas.cpu, records)
                .map(|(_, _, _, c)| best_peer_ratios(c))
                .unwrap_or_default();
            (atlas.cpu.clone(), cells)
        })
        .collect()
}

/// Per CPU: Quince's fastest build against the best C/C++ peer on each
/// standard position, from the newest clean record on that model that
/// has the comparison ([`newest_lead`]).
pub(super) fn lead_block(cpus: &[(&str, &AtlasRecord)], records: &Records, page: &str) -> String {
    let mut s = String::new();
    for (i, (_, atlas)) in cpus.iter().enumerate() {
        let Some((file, commit, rustflags, c)) = newest_lead(&atlas.cpu, records) else {
            writeln!(
                s,
                "{}. **{}**: no comparison with the C/C++ programs on this CPU model yet (`atlas` or `report` with them built).",
                i + 1,
                atlas.cpu
            )
            .unwrap();
            continue;
        };
        let cells: Vec<String> = best_peer_ratios(c)
            .iter()
            .map(|l| format!("{} {} against {}", l.position, ratio_text(&l.ratio), l.peer))
            .collect();
        // The version names the commit and the build ("<commit> with the
        // pext backend"); the commit alone where it does not.
        let quince = match c.contenders.iter().find(|x| x.name == c.reference) {
            Some(x) if x.version.starts_with(commit) => format!(
                "`{commit}`{}",
                x.version.strip_prefix(commit).unwrap_or_default()
            ),
            _ => format!("commit `{commit}`"),
        };
        writeln!(
            s,
            "{}. **{}** (Quince {quince}, `RUSTFLAGS='{rustflags}'`, {} paired rounds, record {}): {}.",
            i + 1,
            atlas.cpu,
            c.timings.rounds,
            record_link(page, file),
            cells.join("; ")
        )
        .unwrap();
    }
    s
}
