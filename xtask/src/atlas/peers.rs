//! The atlas's lead view: Quince's fastest technique on this CPU against
//! the C/C++ perft programs (Gigantua, MPerft, templechess) on the six
//! standard positions, from the atlas's own build, so that one run of one
//! command gives a CPU's whole column (issue 66, item 6).
//!
//! The protocol is the peers comparison's ([`crate::report`]): bulk perft,
//! paired rounds of whole processes, the depth calibrated on Quince, a
//! shallower depth repeated as whole processes where the next would run
//! more than twice the minimum ([`measure::Repeat::WholeProcesses`]).
//! Two differences, both stated in the record: Quince is the atlas's
//! `--features all-sliders` build with `-C target-cpu=native` running
//! `quince perft --technique NAME` (the technique fastest in this run's
//! bulk view, not a fixed one), and it runs 5 rounds by default, not 7:
//! the 95 % interval of a median of 5 is still the range of the rounds
//! (coverage 93.8 %), and the whole run must fit a stretch of work.

use std::collections::BTreeSet;
use std::path::Path;

use crate::measure::{self, Contender, Position, Repeat, Timings};
use crate::record::Comparison;
use crate::util::Result;

/// Paired rounds of the lead view by default.
pub const DEFAULT_ROUNDS: usize = 5;

/// The C/C++ perft programs given on the command line.
pub use crate::report::CPrograms as Programs;

/// The technique of `generator` whose bulk perft is fastest, as the
/// atlas page ranks them ([`Timings::geomean_median_seconds`]). None when
/// no technique has every bulk workload.
pub fn fastest_bulk(generator: &Timings) -> Option<String> {
    let names: BTreeSet<&str> = generator
        .seconds
        .values()
        .flat_map(|by_technique| by_technique.keys().map(String::as_str))
        .collect();
    names
        .into_iter()
        .filter_map(|n| Some((n, generator.geomean_median_seconds("bulk", n)?)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(n, _)| n.to_string())
}

/// Times `quince perft --technique technique` (the atlas's native build)
/// against every program given, `rounds` paired rounds.
pub fn measure(
    quince: &Path,
    technique: &str,
    build: &str,
    programs: &Programs,
    positions: &[Position],
    rounds: usize,
) -> Result<Comparison> {
    let quince = Contender {
        name: "quince".into(),
        argv: vec![
            quince.display().to_string(),
            "perft".into(),
            "--technique".into(),
            technique.into(),
            "--fen".into(),
            "{fen}".into(),
            "--depth".into(),
            "{depth}".into(),
        ],
        cwd: None,
        sha256: crate::measure::host::sha256(quince)?,
        version: format!("{build}, technique {technique}"),
    };
    let mut contenders = vec![quince.clone()];
    contenders.extend(programs.contenders()?);
    let workloads = measure::calibrate(&quince, positions, "bulk", |_| 3, Repeat::WholeProcesses)?;
    Comparison::measure(
        "process",
        &format!(
            "bulk perft, Quince's `quince perft --technique {technique}` (the atlas's build) against C/C++ perft programs, each a whole process"
        ),
        "quince",
        contenders,
        &workloads,
        rounds,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn the_fastest_bulk_technique_is_the_least_time_per_leaf() {
        let w = |id: &str, kind: &str, nodes: u64, repeat: u32| measure::Workload {
            id: id.into(),
            position: id.into(),
            fen: String::new(),
            kind: kind.into(),
            depth: 1,
            repeat,
            nodes,
        };
        let seconds = BTreeMap::from([
            (
                "a".to_string(),
                BTreeMap::from([
                    ("slow".to_string(), vec![2.0, 2.0, 2.0]),
                    ("quick".to_string(), vec![1.0, 1.1, 0.9]),
                ]),
            ),
            (
                "b".to_string(),
                BTreeMap::from([
                    ("slow".to_string(), vec![4.0, 4.0, 4.0]),
                    ("quick".to_string(), vec![3.0, 3.0, 3.0]),
                    // Fastest here but missing on "a": not a candidate.
                    ("partial".to_string(), vec![0.1, 0.1, 0.1]),
                ]),
            ),
            // Full-make timings do not count.
            (
                "c".to_string(),
                BTreeMap::from([("slow".to_string(), vec![0.1, 0.1, 0.1])]),
            ),
        ]);
        let t = Timings {
            rounds: 3,
            min_seconds: 0.5,
            order: String::new(),
            workloads: vec![
                w("a", "bulk", 10, 1),
                w("b", "bulk", 5, 2),
                w("c", "full", 1, 1),
            ],
            seconds,
            failures: Vec::new(),
        };
        assert_eq!(fastest_bulk(&t).as_deref(), Some("quick"));
        let empty = Timings {
            seconds: BTreeMap::new(),
            ..t
        };
        assert_eq!(fastest_bulk(&empty), None);
    }
}
