//! `quince eval`: both static evaluations of a position, the NNUE network's
//! and the hand-written one, side by side (whichever the search uses).

use crate::UserError;
use clap::Args;
use quince::Position;
use quince::eval::{evaluate, nnue};
use std::process::ExitCode;

#[derive(Args)]
pub struct EvalArgs {
    /// Position as FEN (default: the standard start position).
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Moves to play from the position first, in UCI notation.
    #[arg(long, value_name = "MOVE", num_args = 1..)]
    pub moves: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &EvalArgs) -> Result<ExitCode, UserError> {
    let mut pos = match &args.fen {
        Some(fen) => Position::from_fen(fen).map_err(|e| format!("invalid FEN '{fen}': {e}"))?,
        None => Position::startpos(),
    };
    for text in &args.moves {
        let mv = pos.parse_uci(text)?;
        pos = pos.play_unchecked(mv);
    }
    let network = nnue::evaluate(&pos);
    let hand_written = evaluate(&pos);
    let search = if cfg!(feature = "hce") {
        "hand-written"
    } else {
        "nnue"
    };
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "fen": pos.fen(),
                "nnue": network,
                "hand_written": hand_written,
                "search_uses": search,
            })
        );
    } else {
        println!("{}", pos.fen());
        let layer = match nnue::L1 {
            0 => String::new(),
            units => format!(", {units} hidden units"),
        };
        let net = format!(
            "NNUE ({}x2 hidden{layer}, {} buckets)",
            nnue::HIDDEN,
            nnue::BUCKETS
        );
        let width = net.len();
        println!("{net} : {network:+} cp");
        println!("{:<width$} : {hand_written:+} cp", "Hand-written");
        println!("(centipawns for the side to move; the search uses the {search} evaluation)");
    }
    Ok(ExitCode::SUCCESS)
}
