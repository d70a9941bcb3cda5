//! `quince suite`: EPD perft suites, exit 1 on any mismatch.

use crate::progress::Reporter;
use crate::{SuiteArgs, UserError, mnps};
use quince::Position;
use quince::perft::strategy::perft_by_name;
use quince::sliders::ACTIVE;
use quince::suite::{self, SuiteEntry};
use serde_json::json;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

pub fn run(args: &SuiteArgs) -> Result<ExitCode, UserError> {
    let mut entries: Vec<(String, SuiteEntry)> = Vec::new();
    for file in &args.files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| UserError(format!("cannot read {file}: {e}")))?;
        let parsed = suite::parse(&text).map_err(|e| UserError(format!("{file}: {e}")))?;
        entries.extend(parsed.into_iter().map(|entry| (file.clone(), entry)));
    }
    // Validate every FEN before spending time on perft.
    let mut positions = Vec::with_capacity(entries.len());
    for (file, entry) in &entries {
        let pos = Position::from_fen(&entry.fen).map_err(|e| {
            UserError(format!(
                "{file}:{}: invalid FEN '{}': {e}",
                entry.line, entry.fen
            ))
        })?;
        positions.push(pos);
    }
    let wanted = |depth: u32, expected: u64| {
        args.max_depth.is_none_or(|max| depth <= max)
            && args.max_nodes.is_none_or(|max| expected <= max)
    };
    let jobs: usize = entries
        .iter()
        .map(|(_, e)| e.expected.iter().filter(|&&(d, n)| wanted(d, n)).count())
        .sum();
    let bulk = !args.no_bulk;
    let start = Instant::now();
    // A bar on a terminal; in a log, a line every few seconds as before.
    let reporter = Reporter::new(args.json, true, true);
    let (mut done, mut failures, mut total_nodes) = (0usize, 0usize, 0u64);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for ((file, entry), pos) in entries.iter().zip(&mut positions) {
        for &(depth, expected) in entry.expected.iter().filter(|&&(d, n)| wanted(d, n)) {
            let job_start = Instant::now();
            let nodes = perft_by_name(pos, depth, bulk, &args.legality, &args.make)
                .ok_or_else(|| UserError(format!("unknown legality '{}'", args.legality)))?;
            let seconds = job_start.elapsed().as_secs_f64();
            total_nodes += nodes;
            done += 1;
            let ok = nodes == expected;
            if args.json {
                let line = json!({
                    "file": file, "line": entry.line, "fen": entry.fen, "depth": depth,
                    "expected": expected, "nodes": nodes, "ok": ok, "seconds": seconds,
                    "slider": ACTIVE, "legality": args.legality, "make": args.make,
                });
                let _ = writeln!(out, "{line}");
            } else if !ok {
                let _ = writeln!(
                    out,
                    "MISMATCH {file}:{} depth {depth}: expected {expected}, got {nodes}  ({})",
                    entry.line, entry.fen
                );
            }
            if !ok {
                failures += 1;
            }
            let elapsed = start.elapsed().as_secs_f64();
            reporter.update(done as f64, jobs as u64, elapsed, || {
                format!(
                    "counts, {failures} mismatches, {:.1} Mnodes/s",
                    mnps(total_nodes, elapsed)
                )
            });
        }
    }
    reporter.finish();
    let seconds = start.elapsed().as_secs_f64();
    if !args.json {
        let _ = writeln!(
            out,
            "{} positions, {done} counts checked, {failures} mismatches; {total_nodes} nodes in {seconds:.2} s \
             ({:.1} Mnodes/s, slider {ACTIVE}, legality {}, make {}){}",
            entries.len(),
            mnps(total_nodes, seconds),
            args.legality,
            args.make,
            if failures == 0 { "; all match" } else { "" }
        );
    }
    Ok(if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
