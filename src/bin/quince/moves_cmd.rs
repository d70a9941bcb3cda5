//! `quince moves`: the legal moves of a position, each in UCI and in SAN.

use crate::UserError;
use clap::Args;
use quince::position::STARTPOS_FEN;
use quince::{Position, legal_moves};
use serde_json::Value;
use std::io::Write;
use std::process::ExitCode;

#[derive(Args)]
#[command(
    long_about = "List the legal moves of a position, one per line: the move in UCI \
        (as a GUI sends it) and in Standard Algebraic Notation (as PGN writes it), \
        e.g. `e2e4 e4` or `g1f3 Nf3`.\n\n\
        UCI castling is king-to-destination (e1g1) in standard chess and \
        king-takes-rook (e1h1) in Chess960; SAN castling is O-O / O-O-O in both. \
        SAN follows python-chess's Board.san exactly (disambiguation, x, =Q, + and #).\n\n\
        With --json, one object: {\"fen\": <the FEN as Quince writes it>, \"moves\": [{\"uci\": ..., \"san\": ...}, ...]}.\n\n\
        Exit codes: 0 success, 2 bad input (e.g. a malformed FEN)."
)]
pub struct MovesArgs {
    /// Position as FEN (default: the standard start position).
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Read KQkq castling as X-FEN (Shredder file letters always work) and
    /// print castling moves in UCI as king-takes-rook.
    #[arg(long)]
    pub chess960: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &MovesArgs) -> Result<ExitCode, UserError> {
    let fen = args.fen.as_deref().unwrap_or(STARTPOS_FEN);
    let pos = Position::from_fen_with(fen, args.chess960)
        .map_err(|e| UserError(format!("invalid FEN '{fen}': {e}")))?;
    let moves: Vec<(String, String)> = legal_moves(&pos)
        .iter()
        .map(|&mv| (pos.uci(mv), pos.san(mv)))
        .collect();
    if args.json {
        // Written by hand so that the keys keep their documented order
        // (serde_json's maps sort them); each string is escaped by serde_json.
        let quote = |text: &str| Value::from(text).to_string();
        let moves: Vec<String> = moves
            .iter()
            .map(|(uci, san)| format!("{{\"uci\":{},\"san\":{}}}", quote(uci), quote(san)))
            .collect();
        println!(
            "{{\"fen\":{},\"moves\":[{}]}}",
            quote(&pos.fen()),
            moves.join(",")
        );
    } else {
        let mut out = String::with_capacity(moves.len() * 12);
        for (uci, san) in &moves {
            out.push_str(uci);
            out.push(' ');
            out.push_str(san);
            out.push('\n');
        }
        // A closed pipe (`quince moves | head -1`) is not an error.
        let _ = std::io::stdout().lock().write_all(out.as_bytes());
    }
    Ok(ExitCode::SUCCESS)
}
