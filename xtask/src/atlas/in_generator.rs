//! The in-generator view's measurement: bulk and full-make perft of the
//! six standard positions with every technique (`lab_perft quince:NAME`),
//! calibrated on the techniques fastest in a probe, in paired rounds.

use std::collections::BTreeMap;
use std::path::Path;

use super::progress;
use crate::measure::host::sha256;
use crate::measure::{self, Contender, Position, Timings};
use crate::util::Result;

/// How many of the techniques fastest in the generator's probe calibrate
/// its workloads (see [`fastest_in_generator`]).
const CALIBRATION_CANDIDATES: usize = 3;

/// Workload id -> technique -> the exact command line of that run
/// ([`measure::command_lines`]).
type CommandLines = BTreeMap<String, BTreeMap<String, String>>;

/// Every technique in `names` timed in the generator built at `commit`
/// (`lab_perft`), runs of at least `min_seconds`, in `rounds` paired
/// rounds: the timings, and the command line of each run.
pub(super) fn calibrate_and_time(
    lab_perft: &Path,
    names: &[String],
    commit: &str,
    positions: &[Position],
    min_seconds: f64,
    rounds: usize,
) -> Result<(Timings, CommandLines)> {
    let sha = sha256(lab_perft)?;
    let contenders: Vec<Contender> = names
        .iter()
        .map(|name| Contender {
            name: name.clone(),
            argv: vec![
                lab_perft.display().to_string(),
                format!("quince:{name}"),
                "{fen}".into(),
                "{depth}".into(),
                "{repeat}".into(),
                "{kind}".into(),
            ],
            cwd: None,
            sha256: sha.clone(),
            version: format!("{commit} with --features all-sliders"),
        })
        .collect();
    // Calibrate on the techniques fastest *in the generator*, found
    // by a short probe of each (Kiwipete, one process, the best of
    // two), keeping for each position the longest workload any of
    // them needs. The fastest alone is not the fastest inside: the
    // first Zen 5 run calibrated on the isolated winner and saw a
    // quarter of the runs under the minimum.
    let mut workloads: Vec<measure::Workload> = Vec::new();
    for kind in ["bulk", "full"] {
        let candidates = fastest_in_generator(&contenders, positions, kind)?;
        let mut longest: Vec<measure::Workload> = Vec::new();
        for c in candidates {
            let found = measure::calibrate_to(
                min_seconds,
                c,
                positions,
                kind,
                |_| 3,
                measure::Repeat::InProcess,
            )?;
            if longest.is_empty() {
                longest = found;
                continue;
            }
            for (keep, new) in longest.iter_mut().zip(found) {
                let leaves = |w: &measure::Workload| w.nodes * u64::from(w.repeat);
                if leaves(&new) > leaves(keep) {
                    *keep = new;
                }
            }
        }
        workloads.extend(longest);
    }
    let timings = measure::paired_rounds_to(min_seconds, &contenders, &workloads, rounds)?;
    Ok((timings, measure::command_lines(&contenders, &workloads)))
}

/// The [`CALIBRATION_CANDIDATES`] techniques fastest in a short probe of
/// the generator: Kiwipete (`kind` perft: bulk at depth 5, full make at
/// depth 4 three times over, a few tenths of a second), each run twice,
/// the shorter kept.
fn fastest_in_generator<'a>(
    contenders: &'a [Contender],
    positions: &[Position],
    kind: &str,
) -> Result<Vec<&'a Contender>> {
    let kiwipete = positions
        .iter()
        .find(|p| p.name == "kiwipete")
        .ok_or("no kiwipete among the standard positions")?;
    let (depth, repeat) = if kind == "bulk" { (5, 1) } else { (4, 3) };
    let probe = measure::Workload {
        id: format!("probe-kiwipete-{kind}-d{depth}x{repeat}"),
        position: "kiwipete".into(),
        fen: kiwipete.fen.to_string(),
        kind: kind.into(),
        depth,
        repeat,
        nodes: kiwipete.counts[depth as usize - 1],
    };
    let mut timed = Vec::new();
    for c in contenders {
        let t = c.run(&probe)?.min(c.run(&probe)?);
        timed.push((t, c));
    }
    timed.sort_by(|a, b| a.0.total_cmp(&b.0));
    let chosen: Vec<&Contender> = timed
        .iter()
        .take(CALIBRATION_CANDIDATES)
        .map(|(_, c)| *c)
        .collect();
    progress(&format!(
        "{kind} calibrated on {}",
        chosen
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    Ok(chosen)
}
