//! Perft tracking for CI: a fixed perft workload under callgrind, compared
//! with `reports/perft-baseline.json`.
//!
//! Gate: instructions per node (deterministic for a given binary, whatever
//! else the machine runs). The stage fails when any workload, or the whole
//! workload, needs more than [`THRESHOLD_PERCENT`] more instructions per
//! node than the baseline. Wall-clock Mnodes/s is printed for information.
//!
//! `cargo run -p xtask -- perft-track --update` rewrites the baseline.

use std::path::Path;
use std::time::Instant;

use serde_json::{Value, json};

use crate::util::{Result, Workload, build_default, commit, cpu_model, root, workloads};

/// Allowed rise in instructions per node before the gate fails, in percent.
pub const THRESHOLD_PERCENT: f64 = 3.0;

/// The tracked workload: every standard position, bulk-counted, plus two
/// full (every leaf made) runs, on the default `hq` backend. About 8 million
/// nodes; under callgrind about a minute on one core here.
pub fn tracked() -> Result<Vec<Workload>> {
    let mut list = workloads(
        &[
            ("start", 5),
            ("kiwipete", 3),
            ("pos3", 5),
            ("pos4", 4),
            ("pos5", 3),
            ("pos6", 3),
        ],
        true,
    )?;
    list.extend(workloads(&[("start", 4), ("kiwipete", 3)], false)?);
    Ok(list)
}

pub fn baseline_path() -> std::path::PathBuf {
    root().join("reports").join("perft-baseline.json")
}

pub fn run(args: &[String]) -> Result<bool> {
    let update = match args {
        [] => false,
        [flag] if flag == "--update" => true,
        _ => return Err("perft-track takes only --update".into()),
    };
    let quince = build_default()?;
    let list = tracked()?;
    let measured = measure(&quince, &list)?;
    if update {
        write_baseline(&measured)?;
        return Ok(true);
    }
    compare(&measured)
}

struct Measured {
    workload: Workload,
    instructions: u64,
    per_node: f64,
    mnps: f64,
}

fn measure(quince: &Path, list: &[Workload]) -> Result<Vec<Measured>> {
    let mut out = Vec::new();
    for w in list {
        let started = Instant::now();
        let (instructions, per_node) = w.instructions_per_node(quince)?;
        let seconds = w.time(quince)?;
        eprintln!(
            "xtask: {:<22} {:>10} nodes  {:>8.2} instructions/node  (callgrind {:.1} s)",
            w.id(),
            w.nodes,
            per_node,
            started.elapsed().as_secs_f64()
        );
        out.push(Measured {
            workload: w.clone(),
            instructions,
            per_node,
            mnps: w.nodes as f64 / seconds / 1e6,
        });
    }
    Ok(out)
}

fn totals(measured: &[Measured]) -> (u64, u64) {
    measured.iter().fold((0, 0), |(i, n), m| {
        (i + m.instructions, n + m.workload.nodes)
    })
}

fn write_baseline(measured: &[Measured]) -> Result<()> {
    let (instructions, nodes) = totals(measured);
    let value = json!({
        "about": "Instructions per perft node of `quince perft` (hq backend, release) under callgrind, \
                  net of process start-up (the same command at depth 0). \
                  Refresh: cargo run -p xtask -- perft-track --update",
        "threshold_percent": THRESHOLD_PERCENT,
        "commit": commit(),
        "cpu": cpu_model(),
        "valgrind": crate::util::output(std::process::Command::new("valgrind").arg("--version"))
            .unwrap_or_default().trim(),
        "total": {
            "instructions": instructions,
            "nodes": nodes,
            "per_node": round(instructions as f64 / nodes as f64),
        },
        "workloads": measured.iter().map(|m| json!({
            "id": m.workload.id(),
            "fen": m.workload.fen,
            "depth": m.workload.depth,
            "bulk": m.workload.bulk,
            "nodes": m.workload.nodes,
            "instructions": m.instructions,
            "per_node": round(m.per_node),
        })).collect::<Vec<_>>(),
    });
    let path = baseline_path();
    let text = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())? + "\n";
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    println!(
        "perft baseline written to {} ({:.3} instructions/node over {} nodes)",
        path.display(),
        instructions as f64 / nodes as f64,
        nodes
    );
    Ok(())
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn compare(measured: &[Measured]) -> Result<bool> {
    let path = baseline_path();
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "{}: {e} (create it with: cargo run -p xtask -- perft-track --update)",
            path.display()
        )
    })?;
    let baseline: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let threshold = baseline["threshold_percent"]
        .as_f64()
        .unwrap_or(THRESHOLD_PERCENT);
    let find = |id: &str| -> Option<f64> {
        baseline["workloads"]
            .as_array()?
            .iter()
            .find(|w| w["id"] == id)?["per_node"]
            .as_f64()
    };
    println!(
        "perft tracking: instructions per node (callgrind, hq backend) vs {} (baseline commit {})",
        path.display(),
        baseline["commit"].as_str().unwrap_or("?")
    );
    println!(
        "{:<22} {:>11} {:>12} {:>12} {:>8}   {:>10}",
        "workload", "nodes", "instr/node", "baseline", "change", "Mnodes/s*"
    );
    let mut ok = true;
    for m in measured {
        let id = m.workload.id();
        let (base, change) = match find(&id) {
            Some(base) => (
                format!("{base:.3}"),
                Some((m.per_node / base - 1.0) * 100.0),
            ),
            None => ("missing".to_string(), None),
        };
        let verdict = match change {
            Some(c) if c > threshold => {
                ok = false;
                "  REGRESSION"
            }
            Some(_) => "",
            None => {
                ok = false;
                "  not in baseline"
            }
        };
        println!(
            "{:<22} {:>11} {:>12.3} {:>12} {:>7}%   {:>10.1}{verdict}",
            id,
            m.workload.nodes,
            m.per_node,
            base,
            change.map_or("-".into(), |c| format!("{c:+.2}")),
            m.mnps
        );
    }
    let (instructions, nodes) = totals(measured);
    let per_node = instructions as f64 / nodes as f64;
    let base_total = baseline["total"]["per_node"].as_f64().unwrap_or(f64::NAN);
    let change = (per_node / base_total - 1.0) * 100.0;
    if change.is_nan() || change > threshold {
        ok = false;
    }
    println!(
        "{:<22} {:>11} {:>12.3} {:>12.3} {:>7}%",
        "total",
        nodes,
        per_node,
        base_total,
        format!("{change:+.2}")
    );
    println!(
        "* wall clock, one run, for information only (never gated; shared machines vary by 40 %)"
    );
    if ok {
        println!("perft tracking: OK (threshold +{threshold}% instructions per node)");
    } else {
        println!(
            "perft tracking: FAILED: instructions per node rose more than {threshold}% \
             (or a workload is missing from the baseline). If the change is intended, refresh \
             the baseline: cargo run -p xtask -- perft-track --update"
        );
    }
    Ok(ok)
}
