//! `quince syzygy`: probe Syzygy tablebases for positions given as FEN.

use crate::UserError;
use clap::Args;
use quince::Position;
use quince::syzygy::{ProbeError, Tablebase};
use serde_json::{Value, json};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

pub const LONG_ABOUT: &str = "Probe Syzygy endgame tablebases: for each position, its \
    WDL (2 win, 1 cursed win, 0 draw, -1 blessed loss, -2 loss, from the side to move, \
    assuming the last move zeroed the fifty-move counter) and its DTZ (plies to a capture \
    or pawn move with best play; beyond 100 when the fifty-move rule spoils the result).\n\n\
    Positions come from --fen, or one FEN per line on stdin. Text output: `<wdl> <dtz> <fen>`; \
    with --json, one object per position, in input order: \
    {\"fen\", \"wdl\": int|null, \"dtz\": int|null, \"error\": null|text} (and \"moves\": \
    [{\"uci\", \"dtz\"}] with --moves).\n\n\
    Exit codes: 0 every position probed, 1 some position could not be probed (missing \
    table, castling rights, too many pieces), 2 bad input (a malformed FEN, an unreadable \
    or corrupt table directory).";

#[derive(Args)]
#[command(long_about = LONG_ABOUT)]
pub struct SyzygyArgs {
    /// Table directories, separated by `:` (`;` on Windows), as SyzygyPath.
    #[arg(long, value_name = "DIRS", required = true)]
    pub path: String,
    /// A position to probe (repeatable); without any, FENs are read from stdin.
    #[arg(long, value_name = "FEN")]
    pub fen: Vec<String>,
    /// Also list every legal move with its DTZ from the mover's side (what
    /// an engine uses at the root to convert a win).
    #[arg(long)]
    pub moves: bool,
    /// Print one JSON object per position instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print on stderr at the end how many WDL and DTZ probes a second the
    /// positions took, the probe calls alone timed (not reading FENs or
    /// writing answers): `rate: {"positions": N, "wdl_per_second": X,
    /// "dtz_per_second": Y}`. The lab's Syzygy record reads it.
    #[arg(long)]
    pub rate: bool,
}

pub fn run(args: &SyzygyArgs) -> Result<ExitCode, UserError> {
    let tables = Tablebase::open(&args.path).map_err(|e| UserError(e.to_string()))?;
    if tables.files() == 0 {
        return Err(UserError(format!(
            "no Syzygy table files (*.rtbw, *.rtbz) in '{}'",
            args.path
        )));
    }
    let fens: Box<dyn Iterator<Item = Result<String, std::io::Error>>> = if args.fen.is_empty() {
        Box::new(std::io::stdin().lock().lines())
    } else {
        Box::new(args.fen.clone().into_iter().map(Ok))
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let (mut bad_input, mut unprobed, mut probes) = (false, false, 0u64);
    let (mut wdl_time, mut dtz_time) = (Duration::ZERO, Duration::ZERO);
    for line in fens {
        let fen = line.map_err(|e| UserError(format!("cannot read stdin: {e}")))?;
        let fen = fen.trim();
        if fen.is_empty() {
            continue;
        }
        let (wdl, dtz, moves, error) = match Position::from_fen(fen) {
            Err(e) => {
                bad_input = true;
                (None, None, None, Some(format!("invalid FEN: {e}")))
            }
            Ok(position) => {
                probes += 1;
                let start = Instant::now();
                let wdl = tables.probe_wdl(&position);
                let between = Instant::now();
                let dtz = tables.probe_dtz(&position);
                dtz_time += between.elapsed();
                wdl_time += between - start;
                let moves = args.moves.then(|| tables.root_moves(&position));
                let error = [
                    wdl.as_ref().err(),
                    dtz.as_ref().err(),
                    moves.as_ref().and_then(|m| m.as_ref().err()),
                ]
                .into_iter()
                .flatten()
                .next()
                .map(ProbeError::to_string);
                unprobed |= error.is_some();
                let moves = moves.and_then(Result::ok).map(|moves| {
                    moves
                        .into_iter()
                        .map(|(mv, dtz)| (position.uci(mv), dtz.0))
                        .collect::<Vec<_>>()
                });
                (
                    wdl.ok().map(|w| w.value()),
                    dtz.ok().map(|d| d.0),
                    moves,
                    error,
                )
            }
        };
        if args.json {
            let mut object = json!({"fen": fen, "wdl": wdl, "dtz": dtz, "error": error});
            if let Some(moves) = &moves {
                object["moves"] = Value::Array(
                    moves
                        .iter()
                        .map(|(m, d)| json!({"uci": m, "dtz": d}))
                        .collect(),
                );
            }
            writeln!(out, "{object}")?;
        } else {
            let show = |v: Option<i32>| v.map_or("-".to_string(), |v| v.to_string());
            match &error {
                Some(e) => writeln!(out, "{} {} {fen}  ({e})", show(wdl), show(dtz))?,
                None => writeln!(out, "{} {} {fen}", show(wdl), show(dtz))?,
            }
            for (mv, dtz) in moves.iter().flatten() {
                writeln!(out, "  {mv} {dtz}")?;
            }
        }
    }
    out.flush()?;
    if args.rate {
        let per_second = |time: Duration| probes as f64 / time.as_secs_f64().max(1e-9);
        let rate = json!({
            "positions": probes,
            "wdl_per_second": per_second(wdl_time).round(),
            "dtz_per_second": per_second(dtz_time).round(),
        });
        eprintln!("rate: {rate}");
    }
    Ok(ExitCode::from(if bad_input {
        2
    } else if unprobed {
        1
    } else {
        0
    }))
}
