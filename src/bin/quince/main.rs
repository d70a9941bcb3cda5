//! The `quince` command line: a thin layer over the library.
//!
//! Exit codes: 0 success, 1 a perft suite mismatch, 2 bad input (malformed
//! FEN, illegal move, bad flag, unreadable file). Errors go to stderr as
//! `error: <what is wrong>`.

use clap::{Args, Parser, Subcommand};
mod bench_cmd;
mod datagen_cmd;
mod eval_cmd;
mod lookups_cmd;
mod moves_cmd;
mod pack_cmd;
mod perft_cmd;
mod pgn_cmd;
mod progress;
mod split_cmd;
mod suite_cmd;
mod syzygy_cmd;
mod uci_cmd;
mod work_resume;

use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "quince",
    version,
    about = "Quince: a chess engine built as a move-generation laboratory",
    long_about = "Quince: a chess engine built as a move-generation laboratory.\n\n\
        Run a perft (`quince perft --depth 6`) or a whole EPD suite \
        (`quince suite tests/data/standard.epd`). The sliding-attack backend is chosen \
        at build time with a Cargo feature (hq by default; thirty-three techniques, \
        listed in `quince::sliders`); every result names it.\n\n\
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
    /// Speak UCI on stdin/stdout (also what `quince` without arguments does).
    Uci,
    /// Search fixed positions to a fixed depth; prints total nodes and nodes/s.
    Bench(bench_cmd::BenchArgs),
    /// Play self-play games for NNUE training data (resumable, every core).
    Datagen(datagen_cmd::DatagenArgs),
    /// Pack a `.qdg` game file into the smaller `.qdp` form that is committed.
    Pack(pack_cmd::PackArgs),
    /// Unpack a `.qdp` file back into the identical `.qdg` file.
    Unpack(pack_cmd::UnpackArgs),
    /// Print a position's static evaluations: the NNUE network's and the hand-written one.
    Eval(eval_cmd::EvalArgs),
    /// Replay every game of a PGN file; print each game's result and final FEN.
    #[command(long_about = pgn_cmd::LONG_ABOUT)]
    Pgn(pgn_cmd::PgnArgs),
    /// List a position's legal moves in UCI and SAN (`e2e4 e4`, `g1f3 Nf3`).
    Moves(moves_cmd::MovesArgs),
    /// Lab: time one sliding-attack technique's queen lookups in isolation.
    #[command(long_about = lookups_cmd::LONG_ABOUT)]
    Lookups(lookups_cmd::LookupsArgs),
    /// Probe Syzygy endgame tablebases: WDL and DTZ of positions given as FEN.
    Syzygy(syzygy_cmd::SyzygyArgs),
}

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct PerftArgs {
    /// Work units for several processes or machines: split, work, merge.
    #[command(subcommand)]
    pub action: Option<PerftAction>,
    /// Start position as FEN (default: the standard start position).
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Moves to play from the position first, in UCI notation (e2e4 e7e5 ...).
    #[arg(long, value_name = "MOVE", num_args = 1..)]
    pub moves: Vec<String>,
    /// Depth in plies.
    #[arg(long, short, required = true)]
    pub depth: Option<u32>,
    /// Print the leaf count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Make every leaf move instead of counting the last ply in bulk.
    #[arg(long)]
    pub no_bulk: bool,
    /// Read KQkq castling as X-FEN and print castling moves as king-takes-rook.
    #[arg(long)]
    pub chess960: bool,
    /// How illegal moves are excluded: legal (check and pin masks), pseudo
    /// (pseudo-legal + king-attack test), king-capture (micro-Max's scheme).
    #[arg(long, default_value = "legal", value_parser = ["legal", "pseudo", "king-capture"])]
    pub legality: String,
    /// How child positions are visited: copy (copy-make, the default: fastest
    /// here) or unmake (make/unmake in place).
    #[arg(long, default_value = "copy", value_parser = ["unmake", "copy"])]
    pub make: String,
    /// Print the leaf statistics table (captures, e.p., castles, promotions,
    /// checks, discovered/double checks, mates) for depths 1..N.
    #[arg(long)]
    pub stats: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Lab: count with this sliding-attack technique instead of the one the
    /// build chose (legal generation, copy-make, one thread, no table). It
    /// must be compiled in: build with `--features all-sliders` (and
    /// `RUSTFLAGS='-C target-cpu=native'` for those needing BMI2, AVX2,
    /// AVX-512 or GFNI).
    #[arg(long, value_name = "NAME")]
    pub technique: Option<String>,
    #[command(flatten)]
    pub scale: ScaleArgs,
}

/// Threads, hash table and progress: shared by `perft` and `perft work`.
#[derive(Args, Clone, Copy)]
pub struct ScaleArgs {
    /// Threads to count with (0 = every core).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Size in MB of a perft hash table shared by all threads (0 = none);
    /// refused up front if the machine does not have the memory.
    #[arg(long, value_name = "MB", default_value_t = 0)]
    pub hash: usize,
    /// Lab: back the hash table with ordinary pages instead of huge pages
    /// (to measure what huge pages buy).
    #[arg(long)]
    pub normal_pages: bool,
    /// Lab: probe each child's bucket in turn instead of prefetching a
    /// node's children together (to measure what prefetching buys).
    #[arg(long)]
    pub no_prefetch: bool,
    /// Print progress lines on stderr even when it is not a terminal
    /// (never with --json).
    #[arg(long)]
    pub progress: bool,
}

#[derive(Subcommand)]
pub enum PerftAction {
    /// Write work units (one JSON line each) for perft(DEPTH): the distinct
    /// positions SPLIT_DEPTH plies deep, with how many paths reach each.
    Split(SplitArgs),
    /// Count work units (files of JSON lines from `split`, or - for stdin);
    /// prints one result JSON line per unit.
    Work(WorkArgs),
    /// Check that result files hold every unit exactly once and add them up.
    Merge(MergeArgs),
}

#[derive(Args)]
pub struct SplitArgs {
    /// Start position as FEN (default: the standard start position).
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Moves to play from the position first, in UCI notation.
    #[arg(long, value_name = "MOVE", num_args = 1..)]
    pub moves: Vec<String>,
    /// Read KQkq castling as X-FEN.
    #[arg(long)]
    pub chess960: bool,
    /// Total depth in plies.
    #[arg(long, short)]
    pub depth: u32,
    /// Plies expanded into units (less than --depth); each unit has
    /// DEPTH - SPLIT_DEPTH plies left.
    #[arg(long, value_name = "K")]
    pub split_depth: u32,
}

#[derive(Args)]
pub struct WorkArgs {
    /// Files of work units (JSON lines); - reads stdin.
    #[arg(required = true, value_name = "UNITS")]
    pub files: Vec<String>,
    /// Legality strategy: legal, pseudo or king-capture.
    #[arg(long, default_value = "legal", value_parser = ["legal", "pseudo", "king-capture"])]
    pub legality: String,
    /// Make style: unmake or copy.
    #[arg(long, default_value = "unmake", value_parser = ["unmake", "copy"])]
    pub make: String,
    /// Make every leaf move instead of counting the last ply in bulk.
    #[arg(long)]
    pub no_bulk: bool,
    /// Compute the statistics row of each unit too.
    #[arg(long)]
    pub stats: bool,
    /// Append the results to FILE instead of printing them, skipping the
    /// units FILE already holds: an interrupted run, started again with
    /// the same command, goes on from its finished units.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<String>,
    #[command(flatten)]
    pub scale: ScaleArgs,
}

#[derive(Args)]
pub struct MergeArgs {
    /// Files of result lines from `work`; - reads stdin.
    #[arg(required = true, value_name = "RESULTS")]
    pub files: Vec<String>,
    /// The units file from `split`, to cross-check each result against.
    #[arg(long, value_name = "FILE")]
    pub units: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct SuiteArgs {
    /// EPD files: `<FEN> ;D1 <count> ;D2 <count> ...` per line.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Skip depths deeper than this.
    #[arg(long, value_name = "N")]
    pub max_depth: Option<u32>,
    /// Skip (position, depth) pairs whose expected count exceeds this.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Legality strategy: legal, pseudo or king-capture (see `quince perft --help`).
    #[arg(long, default_value = "legal", value_parser = ["legal", "pseudo", "king-capture"])]
    pub legality: String,
    /// Make style: copy (default) or unmake.
    #[arg(long, default_value = "copy", value_parser = ["unmake", "copy"])]
    pub make: String,
    /// Make every leaf move instead of counting the last ply in bulk.
    #[arg(long)]
    pub no_bulk: bool,
    /// Print one JSON object per (position, depth) line instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A user error: printed as `error: ...`, exit code 2.
pub struct UserError(pub String);

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
        Some(Command::Perft(args)) => match &args.action {
            None => perft_cmd::run(&args),
            Some(action) => split_cmd::run(action),
        },
        Some(Command::Suite(args)) => suite_cmd::run(&args),
        Some(Command::Bench(args)) => bench_cmd::run(&args),
        Some(Command::Datagen(args)) => datagen_cmd::run(&args),
        Some(Command::Pack(args)) => pack_cmd::run_pack(&args),
        Some(Command::Unpack(args)) => pack_cmd::run_unpack(&args),
        Some(Command::Eval(args)) => eval_cmd::run(&args),
        Some(Command::Pgn(args)) => pgn_cmd::run(&args),
        Some(Command::Moves(args)) => moves_cmd::run(&args),
        Some(Command::Lookups(args)) => lookups_cmd::run(&args),
        Some(Command::Syzygy(args)) => syzygy_cmd::run(&args),
        // GUIs start engines without arguments.
        Some(Command::Uci) | None => Ok(uci_cmd::run()),
    };
    match result {
        Ok(code) => code,
        Err(UserError(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Mnodes per second, 0 for a zero duration.
pub fn mnps(nodes: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        nodes as f64 / seconds / 1e6
    } else {
        0.0
    }
}
