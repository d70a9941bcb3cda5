//! `quince pgn`: replay every game of a PGN file and say where each ends,
//! or why it does not replay.

use crate::UserError;
use clap::Args;
use quince::Game;
use quince::notation::pgn::{PgnError, PgnErrorKind, PgnReader};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::process::ExitCode;

/// `quince pgn --help`'s text.
pub const LONG_ABOUT: &str = "Replay every game of a PGN file: the mainline SAN moves from the start \
        position (or the FEN tag's; Chess960 under [Variant \"Chess960\"]), keeping the mainline's \
        comments and NAGs, skipping variations and % lines.\n\n\
        Prints one line per game: its index, plies, result and final FEN, or why it does not \
        replay (game, line of the file, move). Games after a broken one are still read.\n\n\
        With --write, prints each game that replays as PGN instead (the Seven Tag Roster, SAN \
        with move numbers, its comments and NAGs). With --echo, prints every game as read, \
        variations included, without replaying it (moves as written, unnumbered).\n\n\
        Exit codes: 0 every game replays, 2 some game does not (all are reported first), \
        or the file cannot be read.";

#[derive(Args)]
pub struct PgnArgs {
    /// The PGN file; - reads stdin.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Print one JSON object per game per line: {"index", "tags", "plies", "fen",
    /// "result"}, or {"index", "error"} for a game that does not replay.
    #[arg(long, conflicts_with_all = ["write", "echo"])]
    pub json: bool,
    /// Print each game that replays as PGN (with its comments and NAGs).
    #[arg(long, conflicts_with = "echo")]
    pub write: bool,
    /// Print every game as read, variations included, without replaying it.
    #[arg(long)]
    pub echo: bool,
}

pub fn run(args: &PgnArgs) -> Result<ExitCode, UserError> {
    let input: Box<dyn BufRead> = if args.file == "-" {
        Box::new(io::stdin().lock())
    } else {
        let file = File::open(&args.file).map_err(|e| format!("cannot read {}: {e}", args.file))?;
        Box::new(BufReader::with_capacity(1 << 16, file))
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if args.echo {
        let mut echo = quince::notation::pgn::Echo::new(&mut out);
        let result = quince::notation::pgn::visit(input, &mut echo);
        let written = echo.finish().and_then(|out| out.flush());
        return match (result, written) {
            (Err(error), _) => Err(UserError(format!("{}: {error}", args.file))),
            (Ok(_), Err(_)) => Ok(ExitCode::from(2)),
            (Ok(_), Ok(())) => Ok(ExitCode::SUCCESS),
        };
    }
    let (mut games, mut failed) = (0u64, 0u64);
    for item in PgnReader::new(input) {
        if let Err(error) = &item
            && let PgnErrorKind::Io(message) = error.kind()
        {
            let _ = out.flush();
            return Err(UserError(format!(
                "cannot read {} (line {}): {message}",
                args.file,
                error.line()
            )));
        }
        games += 1;
        failed += u64::from(item.is_err());
        let written = if args.json {
            writeln!(out, "{}", json_line(games, &item))
        } else if args.write {
            match &item {
                Ok(game) => write!(out, "{}", game.to_pgn()),
                Err(error) => {
                    eprintln!("{games}: error: {error}");
                    Ok(())
                }
            }
        } else {
            writeln!(out, "{}", text_line(games, &item))
        };
        // A closed pipe (`quince pgn big.pgn | head`) ends the run quietly.
        if written.is_err() {
            return Ok(ExitCode::from(2));
        }
    }
    if out.flush().is_err() {
        return Ok(ExitCode::from(2));
    }
    if !args.json && !args.write {
        eprintln!(
            "games: {games}, replayed: {}, failed: {failed}",
            games - failed
        );
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

fn text_line(index: u64, item: &Result<Game, PgnError>) -> String {
    match item {
        Ok(game) => format!(
            "{index}: {} plies, {}, {}",
            game.moves().len(),
            game.result(),
            game.position().fen()
        ),
        Err(error) => format!("{index}: error: {error}"),
    }
}

fn json_line(index: u64, item: &Result<Game, PgnError>) -> serde_json::Value {
    match item {
        Ok(game) => {
            let mut tags = serde_json::Map::new();
            for (name, value) in game.tags() {
                // The first of duplicate tags, as `Game::tag` reads them.
                tags.entry(name.clone())
                    .or_insert_with(|| serde_json::Value::from(value.as_str()));
            }
            serde_json::json!({
                "index": index,
                "tags": tags,
                "plies": game.moves().len(),
                "fen": game.position().fen(),
                "result": game.result().as_str(),
            })
        }
        Err(error) => serde_json::json!({ "index": index, "error": error.to_string() }),
    }
}
