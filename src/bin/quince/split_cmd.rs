//! `quince perft split | work | merge`: perft as independent work units, so
//! a deep count can run on many processes or machines with tools people
//! already have (GNU parallel, Slurm) instead of a scheduler of our own.
//!
//! * A **unit** line: `unit` (id, 0-based), `of` (how many units in all),
//!   `split` (a checksum of the whole unit list), `fen`, `depth` (plies
//!   left), `multiplicity` (paths reaching the position), `chess960`, and
//!   the run it belongs to: `root`, `root_depth`, `split_depth`.
//! * A **result** line: the unit's fields plus `nodes` (the count of the
//!   position), `total` (`nodes * multiplicity`), `seconds`, `slider`,
//!   `legality`, `make`, `bulk`, `threads`, `hash_mb` and, with `--stats`,
//!   `stats` (of the position).
//!
//! Every result carries `of` and `split`, so `merge` can prove that each
//! unit of one split is present exactly once without the unit file; given
//! the unit file (`--units`) it also checks each result against its unit.

use crate::perft_cmd::{stats_json, threads_of};
use crate::progress::Reporter;
use crate::work_resume::ResumeFile;
use crate::{MergeArgs, PerftAction, SplitArgs, UserError, WorkArgs};
use quince::Position;
use quince::movegen::legal_moves;
use quince::perft::hash::StatsTable;
use quince::perft::split::{Node, expand};
use quince::perft::stats::Stats;
use quince::perft::threads::{Progress, Settings, Subtree, dispatch, scale};
use quince::position::STARTPOS_FEN;
use quince::sliders::ACTIVE;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

pub fn run(action: &PerftAction) -> Result<ExitCode, UserError> {
    match action {
        PerftAction::Split(args) => split(args),
        PerftAction::Work(args) => work(args),
        PerftAction::Merge(args) => merge(args),
    }
}

/// FNV-1a over text: a checksum that names one split's unit list.
fn fnv1a(hash: u64, text: &str) -> u64 {
    text.bytes().fold(hash, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

fn split(args: &SplitArgs) -> Result<ExitCode, UserError> {
    if args.split_depth >= args.depth {
        return Err(UserError(format!(
            "--split-depth ({}) must be less than --depth ({})",
            args.split_depth, args.depth
        )));
    }
    let fen = args.fen.as_deref().unwrap_or(STARTPOS_FEN);
    let mut root = Position::from_fen_with(fen, args.chess960)
        .map_err(|e| UserError(format!("invalid FEN '{fen}': {e}")))?;
    for text in &args.moves {
        let mv = root.parse_uci(text)?;
        root.make(mv);
    }
    let start = Instant::now();
    let nodes = expand(
        vec![Node::new(root.clone(), 0)],
        args.split_depth,
        &mut |p| legal_moves(p),
    );
    if nodes.is_empty() {
        return Err(UserError(format!(
            "no positions {} plies deep: the game ends before",
            args.split_depth
        )));
    }
    let root_fen = root.fen();
    let remaining = args.depth - args.split_depth;
    let fens: Vec<String> = nodes.iter().map(|n| n.position.fen()).collect();
    let mut checksum = fnv1a(
        0xcbf2_9ce4_8422_2325,
        &format!(
            "{root_fen}|{}|{}|{}",
            args.depth,
            args.split_depth,
            nodes.len()
        ),
    );
    for (node, fen) in nodes.iter().zip(&fens) {
        checksum = fnv1a(checksum, &format!("|{fen}|{}", node.multiplicity()));
    }
    let checksum = format!("{checksum:016x}");
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (id, (node, fen)) in nodes.iter().zip(&fens).enumerate() {
        let line = json!({
            "unit": id,
            "of": nodes.len(),
            "split": checksum,
            "fen": fen,
            "depth": remaining,
            "multiplicity": node.multiplicity(),
            "chess960": root.is_chess960(),
            "root": root_fen,
            "root_depth": args.depth,
            "split_depth": args.split_depth,
        });
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    let paths: u64 = nodes.iter().map(Node::multiplicity).sum();
    eprintln!(
        "{} units ({paths} paths, {} merged by transposition) at ply {}, {} plies left each, split {checksum}, {:.2} s",
        nodes.len(),
        paths - nodes.len() as u64,
        args.split_depth,
        remaining,
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// Reads JSON lines from files (`-` is stdin), naming file and line on errors.
fn read_lines(files: &[String]) -> Result<Vec<(String, Value)>, UserError> {
    let mut out = Vec::new();
    for file in files {
        let reader: Box<dyn BufRead> = if file == "-" {
            Box::new(std::io::stdin().lock())
        } else {
            let f = std::fs::File::open(file)
                .map_err(|e| UserError(format!("cannot read '{file}': {e}")))?;
            Box::new(std::io::BufReader::new(f))
        };
        for (number, line) in reader.lines().enumerate() {
            let line = line.map_err(|e| UserError(format!("cannot read '{file}': {e}")))?;
            if line.trim().is_empty() {
                continue;
            }
            let at = format!("{file}:{}", number + 1);
            let value: Value = serde_json::from_str(&line)
                .map_err(|e| UserError(format!("{at}: not a JSON line: {e}")))?;
            if !value.is_object() {
                return Err(UserError(format!("{at}: expected a JSON object")));
            }
            out.push((at, value));
        }
    }
    Ok(out)
}

fn field_u64(value: &Value, name: &str, at: &str) -> Result<u64, UserError> {
    value[name]
        .as_u64()
        .ok_or_else(|| UserError(format!("{at}: missing or bad field '{name}'")))
}

fn field_str<'a>(value: &'a Value, name: &str, at: &str) -> Result<&'a str, UserError> {
    value[name]
        .as_str()
        .ok_or_else(|| UserError(format!("{at}: missing or bad field '{name}'")))
}

/// The unit fields a result repeats (and `merge` compares).
const UNIT_FIELDS: [&str; 10] = [
    "unit",
    "of",
    "split",
    "fen",
    "depth",
    "multiplicity",
    "chess960",
    "root",
    "root_depth",
    "split_depth",
];

fn work(args: &WorkArgs) -> Result<ExitCode, UserError> {
    let threads = threads_of(&args.scale)?;
    let units = read_lines(&args.files)?;
    if units.is_empty() {
        return Err(UserError("no work units in the input".into()));
    }
    // Check every unit before computing any.
    let mut parsed = Vec::with_capacity(units.len());
    for (at, unit) in &units {
        for name in ["unit", "of", "depth", "multiplicity"] {
            field_u64(unit, name, at)?;
        }
        let fen = field_str(unit, "fen", at)?;
        let depth = u32::try_from(field_u64(unit, "depth", at)?)
            .map_err(|_| UserError(format!("{at}: depth too large")))?;
        if args.stats && depth == 0 {
            // A leaf's statistics depend on the move into it, which a
            // 0-ply unit no longer knows.
            return Err(UserError(format!(
                "{at}: --stats needs units with at least 1 ply left"
            )));
        }
        let chess960 = unit["chess960"].as_bool().unwrap_or(false);
        let pos = Position::from_fen_with(fen, chess960)
            .map_err(|e| UserError(format!("{at}: invalid FEN '{fen}': {e}")))?;
        parsed.push((pos, depth));
    }
    // With --resume, the units the file already holds are skipped and the
    // results go to the file instead of stdout.
    let (units, parsed, mut out): (Vec<_>, Vec<_>, Box<dyn Write>) = match &args.resume {
        None => (units, parsed, Box::new(std::io::stdout().lock())),
        Some(path) => {
            let splits: HashSet<String> = units
                .iter()
                .map(|(_, unit)| unit["split"].as_str().unwrap_or_default().to_owned())
                .collect();
            let resume = ResumeFile::open(path, &splits)?;
            let before = units.len();
            let (units, parsed): (Vec<_>, Vec<_>) = units
                .into_iter()
                .zip(parsed)
                .filter(|((_, unit), _)| {
                    let split = unit["split"].as_str().unwrap_or_default();
                    !resume.has(split, unit["unit"].as_u64().unwrap_or(u64::MAX))
                })
                .unzip();
            if units.len() < before {
                eprintln!(
                    "resuming: {} of these {before} units already counted in '{path}', {} to go",
                    before - units.len(),
                    units.len()
                );
            }
            (units, parsed, Box::new(resume.file))
        }
    };
    if units.is_empty() {
        // Every unit is in the --resume file already.
        return Ok(ExitCode::SUCCESS);
    }
    let counts = if args.stats {
        None
    } else {
        crate::perft_cmd::count_table(&args.scale)?
    };
    let stats_table = match args.scale.hash {
        0 => None,
        mb if args.stats => Some(StatsTable::new(mb).map_err(UserError)?),
        _ => None,
    };
    let reporter = Reporter::new(false, args.scale.progress, true);
    let n = units.len();
    let run_start = Instant::now();
    let mut nodes_before = 0u64;
    for (i, ((at, unit), (pos, depth))) in units.iter().zip(&parsed).enumerate() {
        let start = Instant::now();
        let multiplicity = field_u64(unit, "multiplicity", at)?;
        // Progress over the whole file: units done (this one in part).
        let report = |p: Progress| {
            let elapsed = run_start.elapsed().as_secs_f64();
            let done = i as f64 + p.done as f64 / p.total.max(1) as f64;
            reporter.update(done, n as u64, elapsed, || {
                let nodes = nodes_before.saturating_add(p.nodes.saturating_mul(multiplicity));
                format!(
                    "units (unit {}: {}/{} subtrees), {nodes} nodes, {:.1} Mnodes/s",
                    i + 1,
                    p.done,
                    p.total,
                    crate::mnps(nodes, elapsed)
                )
            })
        };
        let job = Subtree {
            position: pos,
            depth: *depth,
            counts: counts.as_ref(),
            stats: args.stats.then_some(stats_table.as_ref()),
            settings: Settings {
                threads,
                bulk: !args.no_bulk,
                progress: &report,
            },
        };
        let (nodes, stats) = dispatch(&args.legality, &args.make, job).ok_or_else(|| {
            UserError(format!(
                "unknown legality '{}' or make '{}'",
                args.legality, args.make
            ))
        })?;
        let total = nodes
            .checked_mul(multiplicity)
            .ok_or_else(|| UserError(format!("{at}: nodes x multiplicity overflows")))?;
        let mut result = serde_json::Map::new();
        for name in UNIT_FIELDS {
            if let Some(v) = unit.get(name) {
                result.insert(name.into(), v.clone());
            }
        }
        result.insert("nodes".into(), json!(nodes));
        result.insert("total".into(), json!(total));
        result.insert("seconds".into(), json!(start.elapsed().as_secs_f64()));
        result.insert("slider".into(), json!(ACTIVE));
        result.insert("legality".into(), json!(args.legality));
        result.insert("make".into(), json!(args.make));
        result.insert("bulk".into(), json!(!args.no_bulk));
        result.insert("threads".into(), json!(threads));
        result.insert("hash_mb".into(), json!(args.scale.hash));
        if let Some(stats) = stats {
            result.insert("stats".into(), stats_json(&stats));
        }
        nodes_before = nodes_before.saturating_add(total);
        writeln!(out, "{}", Value::Object(result))?;
        out.flush()?;
    }
    reporter.finish();
    Ok(ExitCode::SUCCESS)
}

/// A statistics row from its JSON object.
fn stats_of(value: &Value, at: &str) -> Result<Stats, UserError> {
    let n = |name: &str| field_u64(value, name, at);
    Ok(Stats {
        nodes: n("nodes")?,
        captures: n("captures")?,
        en_passant: n("en_passant")?,
        castles: n("castles")?,
        promotions: n("promotions")?,
        checks: n("checks")?,
        discovery_checks: n("discovery_checks")?,
        double_checks: n("double_checks")?,
        checkmates: n("checkmates")?,
    })
}

fn merge(args: &MergeArgs) -> Result<ExitCode, UserError> {
    let results = read_lines(&args.files)?;
    let Some((first_at, first)) = results.first() else {
        return Err(UserError("no results in the input".into()));
    };
    let of = field_u64(first, "of", first_at)?;
    let split = field_str(first, "split", first_at)?.to_string();
    let of_len = usize::try_from(of).map_err(|_| UserError("bad 'of'".into()))?;
    let mut seen: Vec<Option<&str>> = vec![None; of_len];
    let mut total: u128 = 0;
    let mut stats = Some(Stats::default());
    let mut work_seconds = 0.0;
    for (at, result) in &results {
        let id = field_u64(result, "unit", at)?;
        if field_u64(result, "of", at)? != of || field_str(result, "split", at)? != split {
            return Err(UserError(format!(
                "{at}: unit {id} belongs to another split (expected {of} units of split {split})"
            )));
        }
        let slot = usize::try_from(id)
            .ok()
            .and_then(|i| seen.get_mut(i))
            .ok_or_else(|| UserError(format!("{at}: unit {id} out of range 0..{of}")))?;
        if let Some(before) = slot {
            return Err(UserError(format!(
                "{at}: unit {id} appears twice (also at {before})"
            )));
        }
        *slot = Some(at);
        let nodes = field_u64(result, "nodes", at)?;
        let multiplicity = field_u64(result, "multiplicity", at)?;
        let unit_total = u128::from(nodes) * u128::from(multiplicity);
        if u128::from(field_u64(result, "total", at)?) != unit_total {
            return Err(UserError(format!(
                "{at}: total is not nodes x multiplicity"
            )));
        }
        total += unit_total;
        work_seconds += result["seconds"].as_f64().unwrap_or(0.0);
        stats = match (stats, result.get("stats")) {
            (Some(sum), Some(row)) => {
                let mut sum = sum;
                sum += scale(stats_of(row, at)?, multiplicity);
                Some(sum)
            }
            _ => None,
        };
    }
    let missing: Vec<usize> = (0..of_len).filter(|&i| seen[i].is_none()).collect();
    if !missing.is_empty() {
        let shown: Vec<String> = missing.iter().take(10).map(usize::to_string).collect();
        return Err(UserError(format!(
            "{} of {of} units missing: {}{}",
            missing.len(),
            shown.join(", "),
            if missing.len() > 10 { ", ..." } else { "" }
        )));
    }
    if let Some(file) = &args.units {
        check_against_units(file, &results)?;
    }
    let root = first["root"].as_str().unwrap_or("?");
    let depth = first["root_depth"].as_u64().unwrap_or(0);
    let split_depth = first["split_depth"].as_u64().unwrap_or(0);
    if args.json {
        let mut object = json!({
            "fen": root,
            "depth": depth,
            "nodes": u64::try_from(total).map_or_else(|_| json!(total.to_string()), |n| json!(n)),
            "units": of,
            "split": split,
            "split_depth": split_depth,
            "work_seconds": work_seconds,
            "slider": first["slider"],
        });
        if let Some(stats) = stats {
            object["stats"] = stats_json(&stats);
        }
        println!("{object}");
    } else {
        println!(
            "perft {depth} = {total}  ({of} units split at ply {split_depth}, {work_seconds:.3} s of work, root {root})"
        );
        if let Some(stats) = stats {
            print!(
                "{}",
                quince::perft::stats::markdown_table(&[(depth as u32, stats)])
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Every result must repeat its unit's fields exactly, and the unit file
/// must be the same split.
fn check_against_units(file: &str, results: &[(String, Value)]) -> Result<(), UserError> {
    let units = read_lines(std::slice::from_ref(&file.to_string()))?;
    if units.len() != results.len() {
        return Err(UserError(format!(
            "{file} has {} units but there are {} results",
            units.len(),
            results.len()
        )));
    }
    let mut by_id = std::collections::HashMap::new();
    for (at, unit) in &units {
        by_id.insert(field_u64(unit, "unit", at)?, (at, unit));
    }
    for (at, result) in results {
        let id = field_u64(result, "unit", at)?;
        let (unit_at, unit) = by_id
            .get(&id)
            .ok_or_else(|| UserError(format!("{at}: unit {id} is not in {file}")))?;
        for name in UNIT_FIELDS {
            if unit.get(name) != result.get(name) {
                return Err(UserError(format!(
                    "{at}: field '{name}' differs from the unit at {unit_at}"
                )));
            }
        }
    }
    Ok(())
}
