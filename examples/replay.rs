//! Quince used as a library, the way a GUI, a bot or a data script would use
//! it: no CLI, no clap, only the crate's root API.
//!
//! Replays a game given as UCI moves from a FEN (or the start position),
//! stops with a clear message at the first illegal or malformed move, then
//! reports the final position: its FEN, whose turn it is, whether the game
//! is over, the legal moves, and a perft count as a check of the tree below.
//!
//! ```sh
//! cargo run --release --no-default-features --features hq --example replay -- \
//!     e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 f3g5 d7d5 e4d5 f6d5 g5f7
//! cargo run --release --no-default-features --features hq --example replay -- \
//!     --fen "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9" \
//!     --chess960 e1f3 c8e7 f1f2
//! ```
//!
//! Building it with `--no-default-features --features hq` is the point: the
//! engine alone compiles, without the command-line program's dependencies.

use std::io::Write;
use std::process::ExitCode;

use quince::{GameStatus, Position, legal_moves, perft};

/// How deep the closing perft counts: enough to exercise every move kind
/// (castling, promotion, en passant) below a middlegame position in well
/// under a second.
const PERFT_DEPTH: u32 = 3;

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("replay: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Parses the arguments, replays the moves and prints the report; every
/// failure comes back as a message for `main` to print.
fn run(args: Vec<String>) -> Result<(), String> {
    let mut fen = None;
    let mut chess960 = false;
    let mut moves = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--fen" => fen = Some(args.next().ok_or("--fen needs a FEN string")?),
            "--chess960" => chess960 = true,
            "-h" | "--help" => {
                println!(
                    "usage: replay [--fen FEN] [--chess960] [MOVE ...]\n\
                     Replays UCI moves (e2e4, e7e8q, e1g1 or e1h1 for castling)\n\
                     and reports on the final position."
                );
                return Ok(());
            }
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}")),
            _ => moves.push(arg),
        }
    }

    // `Position::from_fen_with` reads Chess960 castling rights (Shredder-FEN
    // file letters or X-FEN); `parse` reads standard FEN.
    let mut pos = match &fen {
        Some(fen) => Position::from_fen_with(fen, chess960).map_err(|e| e.to_string())?,
        None => Position::startpos(),
    };

    for (ply, text) in moves.iter().enumerate() {
        if pos.status().is_over() {
            return Err(format!(
                "move {} ({text}): the game is already over",
                ply + 1
            ));
        }
        // `parse_uci` checks the text against the legal moves of this
        // position, so a well-formed but illegal move is an error too, and
        // the move it returns can be played without a second check
        // (`try_play` is for moves from elsewhere).
        let mv = pos
            .parse_uci(text)
            .map_err(|e| format!("move {} ({text}): {e}", ply + 1))?;
        pos = pos.play_unchecked(mv);
    }

    // Written through a handle rather than `println!`, so that a closed
    // pipe (`replay ... | head -1`) ends the program with a message instead
    // of a panic.
    let legal = legal_moves(&pos);
    let texts: Vec<String> = legal.iter().map(|mv| pos.uci(*mv)).collect();
    let nodes = perft::perft(&pos, PERFT_DEPTH);
    let mut out = std::io::stdout().lock();
    writeln!(out, "fen      {}", pos.fen())
        .and_then(|()| writeln!(out, "to move  {:?}", pos.side_to_move()))
        .and_then(|()| writeln!(out, "status   {}", describe(pos.status())))
        .and_then(|()| writeln!(out, "legal    {} moves: {}", legal.len(), texts.join(" ")))
        .and_then(|()| writeln!(out, "perft {PERFT_DEPTH}  {nodes}"))
        .map_err(|e| format!("cannot write the report: {e}"))?;
    Ok(())
}

/// A human reading of the game state.
fn describe(status: GameStatus) -> &'static str {
    match status {
        GameStatus::Ongoing => "ongoing",
        GameStatus::Checkmate => "checkmate",
        GameStatus::Stalemate => "stalemate",
        GameStatus::FiftyMoves => "a draw may be claimed (the fifty-move rule)",
        GameStatus::SeventyFiveMoves => "draw by the seventy-five-move rule",
        GameStatus::InsufficientMaterial => "draw by insufficient material",
    }
}
