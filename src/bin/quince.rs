//! The `quince` command line: a thin layer over the library.
//!
//! Exit codes: 0 success, 1 a perft suite mismatch, 2 bad input (malformed
//! FEN, illegal move, bad flag, unreadable file). Errors go to stderr as
//! `error: <what is wrong>`.

use clap::{Args, Parser, Subcommand};
use quince::perft;
use quince::position::STARTPOS_FEN;
use quince::sliders::ACTIVE;
use quince::suite::{self, SuiteEntry};
use quince::{Move, Position};
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(
    name = "quince",
    version,
    about = "Quince: a chess engine built as a move-generation laboratory",
    long_about = "Quince: a chess engine built as a move-generation laboratory.\n\n\
        Run a perft (`quince perft --depth 6`) or a whole EPD suite \
        (`quince suite tests/data/standard.epd`). The sliding-attack backend is chosen \
        at build time with Cargo features (hq, magic, pext); every result names it.\n\n\
        Exit codes: 0 success, 1 suite mismatch, 2 bad input."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree from a position.
    Perft(PerftArgs),
    /// Run EPD perft suites and compare every count with the expected one.
    Suite(SuiteArgs),
}

#[derive(Args)]
struct PerftArgs {
    /// Start position as FEN (default: the standard start position).
    #[arg(long, value_name = "FEN")]
    fen: Option<String>,
    /// Moves to play from the position first, in UCI notation (e2e4 e7e5 ...).
    #[arg(long, value_name = "MOVE", num_args = 1..)]
    moves: Vec<String>,
    /// Depth in plies.
    #[arg(long, short)]
    depth: u32,
    /// Print the leaf count below each root move.
    #[arg(long)]
    divide: bool,
    /// Make every leaf move instead of counting the last ply in bulk.
    #[arg(long)]
    no_bulk: bool,
    /// Read KQkq castling as X-FEN and print castling moves as king-takes-rook.
    #[arg(long)]
    chess960: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct SuiteArgs {
    /// EPD files: `<FEN> ;D1 <count> ;D2 <count> ...` per line.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    /// Skip depths deeper than this.
    #[arg(long, value_name = "N")]
    max_depth: Option<u32>,
    /// Skip (position, depth) pairs whose expected count exceeds this.
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Make every leaf move instead of counting the last ply in bulk.
    #[arg(long)]
    no_bulk: bool,
    /// Print one JSON object per (position, depth) line instead of text.
    #[arg(long)]
    json: bool,
}

/// A user error: printed as `error: ...`, exit code 2.
struct UserError(String);

impl<E: std::fmt::Display> From<E> for UserError {
    fn from(e: E) -> Self {
        UserError(e.to_string())
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = match cli.command {
        Some(Command::Perft(args)) => run_perft(&args),
        Some(Command::Suite(args)) => run_suite(&args),
        None => {
            use clap::CommandFactory;
            let _ = Cli::command().print_help();
            Ok(ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(UserError(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn mnps(nodes: u64, seconds: f64) -> f64 {
    if seconds > 0.0 { nodes as f64 / seconds / 1e6 } else { 0.0 }
}

fn run_perft(args: &PerftArgs) -> Result<ExitCode, UserError> {
    let fen = args.fen.as_deref().unwrap_or(STARTPOS_FEN);
    let mut pos = Position::from_fen_with(fen, args.chess960)
        .map_err(|e| UserError(format!("invalid FEN '{fen}': {e}")))?;
    for text in &args.moves {
        let mv = pos.parse_uci(text)?;
        pos.make(mv);
    }
    let bulk = !args.no_bulk;
    let progress = !args.json && std::io::stderr().is_terminal() && args.depth >= 6;
    let start = Instant::now();
    let (nodes, divide) = if args.divide || progress {
        let per_move = divide_with_progress(&mut pos, args.depth, bulk, progress);
        (per_move.iter().map(|(_, n)| n).sum(), per_move)
    } else {
        (perft::count(&mut pos, args.depth, bulk), Vec::new())
    };
    let seconds = start.elapsed().as_secs_f64();
    let nps = nodes as f64 / seconds.max(1e-9);
    if args.json {
        let mut object = json!({
            "fen": pos.fen(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": seconds,
            "nps": nps.round(),
            "mnps": (mnps(nodes, seconds) * 100.0).round() / 100.0,
            "slider": ACTIVE,
            "bulk": bulk,
            "legality": "legal",
        });
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
            "perft {} = {nodes}  ({:.3} s, {:.1} Mnodes/s, slider {ACTIVE}, {})",
            args.depth,
            seconds,
            mnps(nodes, seconds),
            if bulk { "bulk" } else { "no-bulk" }
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Divide, reporting root moves done on stderr when `progress` is set.
fn divide_with_progress(pos: &mut Position, depth: u32, bulk: bool, progress: bool) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = quince::movegen::legal_moves(pos);
    let start = Instant::now();
    let mut total = 0u64;
    let mut out = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let undo = pos.make(mv);
        let n = perft::count(pos, depth - 1, bulk);
        pos.unmake(mv, undo);
        total += n;
        out.push((mv, n));
        if progress {
            let elapsed = start.elapsed().as_secs_f64();
            let left = elapsed / (i + 1) as f64 * (moves.len() - i - 1) as f64;
            eprint!(
                "\r{}/{} root moves, {total} nodes, {:.1} Mnodes/s, ~{left:.0} s left   ",
                i + 1,
                moves.len(),
                mnps(total, elapsed)
            );
        }
    }
    if progress {
        eprint!("\r{:78}\r", "");
    }
    out
}

fn run_suite(args: &SuiteArgs) -> Result<ExitCode, UserError> {
    let mut entries: Vec<(String, SuiteEntry)> = Vec::new();
    for file in &args.files {
        let text = std::fs::read_to_string(file).map_err(|e| UserError(format!("cannot read {file}: {e}")))?;
        let parsed = suite::parse(&text).map_err(|e| UserError(format!("{file}: {e}")))?;
        entries.extend(parsed.into_iter().map(|entry| (file.clone(), entry)));
    }
    // Validate every FEN before spending time on perft.
    let mut positions = Vec::with_capacity(entries.len());
    for (file, entry) in &entries {
        let pos = Position::from_fen(&entry.fen)
            .map_err(|e| UserError(format!("{file}:{}: invalid FEN '{}': {e}", entry.line, entry.fen)))?;
        positions.push(pos);
    }
    let wanted = |depth: u32, expected: u64| {
        args.max_depth.is_none_or(|max| depth <= max) && args.max_nodes.is_none_or(|max| expected <= max)
    };
    let jobs: usize = entries.iter().map(|(_, e)| e.expected.iter().filter(|&&(d, n)| wanted(d, n)).count()).sum();
    let bulk = !args.no_bulk;
    let start = Instant::now();
    let mut last_report = Instant::now();
    let (mut done, mut failures, mut total_nodes) = (0usize, 0usize, 0u64);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for ((file, entry), pos) in entries.iter().zip(&mut positions) {
        for &(depth, expected) in entry.expected.iter().filter(|&&(d, n)| wanted(d, n)) {
            let job_start = Instant::now();
            let nodes = perft::count(pos, depth, bulk);
            let seconds = job_start.elapsed().as_secs_f64();
            total_nodes += nodes;
            done += 1;
            let ok = nodes == expected;
            if args.json {
                let line = json!({
                    "file": file, "line": entry.line, "fen": entry.fen, "depth": depth,
                    "expected": expected, "nodes": nodes, "ok": ok, "seconds": seconds,
                    "slider": ACTIVE,
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
            if !args.json && last_report.elapsed() > Duration::from_secs(2) {
                last_report = Instant::now();
                eprintln!(
                    "progress: {done}/{jobs} counts, {failures} mismatches, {:.0} s, {:.1} Mnodes/s",
                    start.elapsed().as_secs_f64(),
                    mnps(total_nodes, start.elapsed().as_secs_f64())
                );
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    if !args.json {
        let _ = writeln!(
            out,
            "{} positions, {done} counts checked, {failures} mismatches; {total_nodes} nodes in {seconds:.2} s \
             ({:.1} Mnodes/s, slider {ACTIVE}){}",
            entries.len(),
            mnps(total_nodes, seconds),
            if failures == 0 { "; all match" } else { "" }
        );
    }
    Ok(if failures == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
