//! Instructions per perft leaf under callgrind, for the lab's harness
//! (`examples/lab_perft.rs`): deterministic, so one run per figure.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::Position;
use crate::util::{Result, callgrind};

/// Instructions per leaf (callgrind `Ir`, net of the same command at
/// depth 0), deterministic.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Instructions {
    pub position: String,
    pub kind: String,
    pub depth: u32,
    pub nodes: u64,
    /// The name the record gives the engine (a backend, or a peer).
    pub engine: String,
    pub per_node: f64,
    pub command: String,
}

/// The depths counted: a few hundred thousand leaves each, seconds under
/// callgrind.
const DEPTHS: [(&str, u32); 6] = [
    ("start", 4),
    ("kiwipete", 3),
    ("pos3", 5),
    ("pos4", 4),
    ("pos5", 3),
    ("pos6", 3),
];

/// Bulk perft's instructions per leaf of `engine` (the harness's first
/// argument) in the harness `program`, on every position, recorded under
/// the name `label`.
pub fn bulk(
    program: &Path,
    engine: &str,
    label: &str,
    positions: &[Position],
) -> Result<Vec<Instructions>> {
    let mut out = Vec::new();
    for p in positions {
        let depth = DEPTHS.iter().find(|d| d.0 == p.name).map_or(3, |d| d.1);
        let args = |d: u32| {
            vec![
                engine.to_string(),
                p.fen.to_string(),
                d.to_string(),
                "1".into(),
                "bulk".into(),
            ]
        };
        eprintln!("[measure] callgrind {label} {} d{depth}", p.name);
        let work = callgrind(program, &args(depth))?.saturating_sub(callgrind(program, &args(0))?);
        let nodes = *p
            .counts
            .get(depth as usize - 1)
            .ok_or_else(|| format!("{}: no count at depth {depth}", p.name))?;
        out.push(Instructions {
            position: p.name.into(),
            kind: "bulk".into(),
            depth,
            nodes,
            engine: label.into(),
            per_node: (work as f64 / nodes as f64 * 1000.0).round() / 1000.0,
            command: format!(
                "valgrind --tool=callgrind lab_perft {}, net of the same at depth 0",
                args(depth).join(" ")
            ),
        });
    }
    Ok(out)
}
