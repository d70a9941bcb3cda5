//! `quince perft`: one position, one depth (or the statistics table).

use crate::progress::Reporter;
use crate::{PerftArgs, ScaleArgs, UserError, mnps};
use quince::Position;
use quince::perft::hash::{CountTable, HashOptions, Pages, StatsTable};
use quince::perft::stats::{Stats, markdown_table, perft_stats_by_name};
use quince::perft::strategy::divide_by_name;
use quince::perft::techniques;
use quince::perft::threads::{Divide, Progress, Settings, StatsJob, dispatch, resolve_threads};
use quince::position::STARTPOS_FEN;
use quince::sliders::{ACTIVE, ACTIVE_TABLE_BYTES, ALL_NAMES, COMPILED, LEFT_OUT};
use serde_json::{Value, json};
use std::process::ExitCode;
use std::time::Instant;

/// The largest `--threads` accepted (more would only cost memory).
const MAX_THREADS: usize = 1024;

/// Reports one perft progress step: `what` names the pieces of work
/// ("root moves", "subtrees").
pub fn report_perft(reporter: &Reporter, p: Progress, what: &str) {
    reporter.update(p.done as f64, p.total as u64, p.elapsed, || {
        format!(
            "{what}, {} nodes, {:.1} Mnodes/s",
            p.nodes,
            mnps(p.nodes, p.elapsed)
        )
    });
}

/// `--threads` resolved (0 = all cores) and checked; more threads than
/// cores are allowed (they only share the cores) but said on stderr.
pub fn threads_of(scale: &ScaleArgs) -> Result<usize, UserError> {
    if scale.threads > MAX_THREADS {
        return Err(UserError(format!(
            "--threads must be at most {MAX_THREADS}, got {}",
            scale.threads
        )));
    }
    let threads = resolve_threads(scale.threads);
    let cores = resolve_threads(0);
    if threads > cores {
        eprintln!("note: {threads} threads on {cores} cores: the threads will share the cores");
    }
    Ok(threads)
}

/// The leaf-count table `--hash` asks for (none for 0), with the lab's
/// `--normal-pages` and `--no-prefetch` applied; a size the machine
/// cannot give is an error before any work.
pub fn count_table(scale: &ScaleArgs) -> Result<Option<CountTable>, UserError> {
    if scale.hash == 0 {
        return Ok(None);
    }
    let pages = if scale.normal_pages {
        Pages::Normal
    } else {
        Pages::Huge
    };
    let options = HashOptions {
        prefetch: !scale.no_prefetch,
    };
    let table = CountTable::with_pages(scale.hash, pages)
        .map_err(|e| UserError(format!("--hash {}: {e}", scale.hash)))?;
    Ok(Some(table.with_options(options)))
}

pub fn run(args: &PerftArgs) -> Result<ExitCode, UserError> {
    let depth = args
        .depth
        .ok_or_else(|| UserError("--depth is required".into()))?;
    let fen = args.fen.as_deref().unwrap_or(STARTPOS_FEN);
    let mut pos = Position::from_fen_with(fen, args.chess960)
        .map_err(|e| UserError(format!("invalid FEN '{fen}': {e}")))?;
    for text in &args.moves {
        let mv = pos.parse_uci(text)?;
        pos.make(mv);
    }
    let threads = threads_of(&args.scale)?;
    if let Some(name) = &args.technique {
        return run_technique(args, name, depth, threads, &pos);
    }
    if args.stats {
        return run_stats(args, depth, threads, &mut pos);
    }
    let bulk = !args.no_bulk;
    let reporter = Reporter::new(args.json, args.scale.progress, depth >= 6);
    let start = Instant::now();
    let unknown = || {
        UserError(format!(
            "unknown legality '{}' or make '{}'",
            args.legality, args.make
        ))
    };
    let divide = if threads == 1 && args.scale.hash == 0 {
        // The plain single-threaded path, root move by root move.
        let mut report = |done: usize, total: usize, nodes: u64| {
            let elapsed = start.elapsed().as_secs_f64();
            let p = Progress {
                done,
                total,
                nodes,
                elapsed,
            };
            report_perft(&reporter, p, "root moves");
        };
        divide_by_name(
            &mut pos,
            depth,
            bulk,
            &args.legality,
            &args.make,
            &mut report,
        )
        .ok_or_else(unknown)?
    } else {
        let table = count_table(&args.scale)?;
        let report = |p: Progress| report_perft(&reporter, p, "subtrees");
        let job = Divide {
            position: &pos,
            depth,
            table: table.as_ref(),
            settings: Settings {
                threads,
                bulk,
                progress: &report,
            },
        };
        dispatch(&args.legality, &args.make, job).ok_or_else(unknown)?
    };
    reporter.finish();
    let nodes: u64 = if depth == 0 {
        1
    } else {
        divide.iter().map(|(_, n)| n).sum()
    };
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        let mut object = base_json(args, depth, threads, &pos, nodes, seconds, bulk);
        if args.divide {
            object["divide"] = divide
                .iter()
                .map(|(mv, n)| json!({"move": pos.uci(*mv), "nodes": n}))
                .collect();
        }
        println!("{object}");
    } else {
        if args.divide {
            for (mv, n) in &divide {
                println!("{}: {n}", pos.uci(*mv));
            }
            println!();
        }
        println!(
            "perft {depth} = {nodes}  ({seconds:.3} s, {:.1} Mnodes/s, slider {ACTIVE}, legality {}, make {}, {}{})",
            mnps(nodes, seconds),
            args.legality,
            args.make,
            if bulk { "bulk" } else { "no-bulk" },
            scale_note(threads, args.scale.hash)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `perft --technique NAME`: the lab's one-build path, the legal
/// generator instantiated for a compiled technique (`perft::techniques`).
/// Only the plain single-threaded count: the options that would choose
/// another path are refused rather than ignored.
fn run_technique(
    args: &PerftArgs,
    name: &str,
    depth: u32,
    threads: usize,
    pos: &Position,
) -> Result<ExitCode, UserError> {
    let technique = techniques::find(name).ok_or_else(|| {
        let compiled: Vec<_> = techniques::TECHNIQUES.iter().map(|t| t.name).collect();
        let why = match LEFT_OUT.iter().find(|(n, _)| *n == name) {
            Some((_, missing)) => format!(
                " (it needs {missing}: build with RUSTFLAGS='-C target-cpu=native' on a CPU that has it)"
            ),
            None if ALL_NAMES.contains(&name) => {
                " (build with --features all-sliders to compile every technique)".to_string()
            }
            None => format!(" (known: {})", ALL_NAMES.join(", ")),
        };
        UserError(format!(
            "--technique {name}: not compiled into this build{why}; compiled: {}",
            compiled.join(", ")
        ))
    })?;
    let refused = [
        (args.legality != "legal", "--legality other than legal"),
        (args.make != "copy", "--make other than copy"),
        (threads != 1, "--threads other than 1"),
        (args.scale.hash != 0, "--hash"),
        (args.stats, "--stats"),
        (args.divide, "--divide"),
    ];
    if let Some((_, what)) = refused.iter().find(|(on, _)| *on) {
        return Err(UserError(format!(
            "--technique runs the plain count only (legal, copy-make, one thread): {what} is not supported with it"
        )));
    }
    let bulk = !args.no_bulk;
    let start = Instant::now();
    let nodes = if bulk {
        (technique.bulk)(pos, depth)
    } else {
        (technique.full)(pos, depth)
    };
    let seconds = start.elapsed().as_secs_f64();
    let table_bytes = COMPILED
        .iter()
        .find(|c| c.name == technique.name)
        .map_or(0, |c| c.table_bytes);
    if args.json {
        let mut object = base_json(args, depth, threads, pos, nodes, seconds, bulk);
        object["slider"] = json!(technique.name);
        object["slider_table_bytes"] = json!(table_bytes);
        println!("{object}");
    } else {
        println!(
            "perft {depth} = {nodes}  ({seconds:.3} s, {:.1} Mnodes/s, slider {}, legality legal, make copy, {})",
            mnps(nodes, seconds),
            technique.name,
            if bulk { "bulk" } else { "no-bulk" },
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// ", 2 threads, hash 256 MB" when either is in use, else nothing (so
/// the plain output is unchanged).
fn scale_note(threads: usize, hash_mb: usize) -> String {
    let mut note = String::new();
    if threads != 1 {
        note.push_str(&format!(", {threads} threads"));
    }
    if hash_mb != 0 {
        note.push_str(&format!(", hash {hash_mb} MB"));
    }
    note
}

fn base_json(
    args: &PerftArgs,
    depth: u32,
    threads: usize,
    pos: &Position,
    nodes: u64,
    seconds: f64,
    bulk: bool,
) -> Value {
    let nps = nodes as f64 / seconds.max(1e-9);
    json!({
        "fen": pos.fen(),
        "depth": depth,
        "nodes": nodes,
        "seconds": seconds,
        "nps": nps.round() as u64,
        "mnps": (mnps(nodes, seconds) * 100.0).round() / 100.0,
        "slider": ACTIVE,
        "slider_table_bytes": ACTIVE_TABLE_BYTES,
        "bulk": bulk,
        "legality": args.legality,
        "make": args.make,
        "threads": threads,
        "hash_mb": args.scale.hash,
    })
}

pub fn stats_json(stats: &Stats) -> Value {
    json!({
        "nodes": stats.nodes,
        "captures": stats.captures,
        "en_passant": stats.en_passant,
        "castles": stats.castles,
        "promotions": stats.promotions,
        "checks": stats.checks,
        "discovery_checks": stats.discovery_checks,
        "double_checks": stats.double_checks,
        "checkmates": stats.checkmates,
    })
}

/// `--stats`: the table for depths 1..=N (every leaf move is made).
fn run_stats(
    args: &PerftArgs,
    max_depth: u32,
    threads: usize,
    pos: &mut Position,
) -> Result<ExitCode, UserError> {
    let start = Instant::now();
    let mut rows = Vec::new();
    let table = match args.scale.hash {
        0 => None,
        mb => Some(StatsTable::new(mb).map_err(UserError)?),
    };
    let reporter = Reporter::new(args.json, args.scale.progress, max_depth >= 6);
    for depth in 1..=max_depth {
        let unknown = || UserError(format!("unknown legality '{}'", args.legality));
        let stats = if threads == 1 && table.is_none() {
            perft_stats_by_name(pos, depth, &args.legality, &args.make).ok_or_else(unknown)?
        } else {
            let report =
                |p: Progress| report_perft(&reporter, p, &format!("depth {depth} subtrees"));
            let job = StatsJob {
                position: pos,
                depth,
                table: table.as_ref(),
                settings: Settings {
                    threads,
                    bulk: false,
                    progress: &report,
                },
            };
            dispatch(&args.legality, &args.make, job).ok_or_else(unknown)?
        };
        rows.push((depth, stats));
    }
    reporter.finish();
    let seconds = start.elapsed().as_secs_f64();
    let last = rows.last().map(|(_, s)| *s).unwrap_or(Stats {
        nodes: 1,
        ..Stats::default()
    });
    if args.json {
        let mut object = base_json(args, max_depth, threads, pos, last.nodes, seconds, false);
        if let (Value::Object(map), Value::Object(extra)) = (&mut object, stats_json(&last)) {
            map.extend(extra);
        }
        object["table"] = rows
            .iter()
            .map(|(d, s)| {
                let mut row = stats_json(s);
                row["depth"] = json!(d);
                row
            })
            .collect();
        println!("{object}");
    } else {
        print!("{}", markdown_table(&rows));
        println!(
            "\n{seconds:.3} s for depths 1..{max_depth} (slider {ACTIVE}, legality {}, make {}{})",
            args.legality,
            args.make,
            scale_note(threads, args.scale.hash)
        );
    }
    Ok(ExitCode::SUCCESS)
}
