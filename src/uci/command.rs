//! Parsing one line of UCI input into a [`Command`]. Pure text handling:
//! nothing here knows the position, so everything is unit-testable.
//!
//! Leniency rules, so odd input never derails the engine:
//! * tokens are separated by any whitespace; empty lines are ignored;
//! * numbers: a missing or non-numeric value reads as 0 (and the next
//!   token is not swallowed), negative values as 0, values beyond `u64` as
//!   `u64::MAX`;
//! * unknown words inside `go` are skipped.

/// A parsed input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `isready`: answer `readyok` once ready.
    IsReady,
    /// `ucinewgame`: the next position starts a new game.
    NewGame,
    /// `setoption name <name> [value <value>]`; the name may contain spaces.
    SetOption {
        /// The option's name, as given (empty if `name` is missing).
        name: String,
        /// The text after `value`, if present.
        value: Option<String>,
    },
    /// `position startpos|fen <fen> [moves ...]`; `fen: None` is startpos.
    Position {
        /// The FEN fields joined by spaces, not yet parsed.
        fen: Option<String>,
        /// The moves after `moves`, in UCI notation, not yet checked.
        moves: Vec<String>,
    },
    /// `position` that names neither startpos nor fen.
    BadPosition(String),
    /// `go` with its parameters (except `go perft`).
    Go(Go),
    /// `go perft <depth>`.
    Perft(u64),
    /// `stop`: end the running search and answer `bestmove`.
    Stop,
    /// `ponderhit`: the opponent played the move pondered on.
    PonderHit,
    /// `quit`: exit.
    Quit,
    /// `d`: print the board.
    Display,
    /// A blank line.
    Empty,
    /// A line whose first word is not a known command (that word).
    Unknown(String),
}

/// The parameters of `go`, as given (the engine applies defaults).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `depth`: search this many plies.
    pub depth: Option<u64>,
    /// `nodes`: search about this many nodes.
    pub nodes: Option<u64>,
    /// `movetime`: search exactly this many milliseconds.
    pub movetime: Option<u64>,
    /// `wtime`: White's clock, in milliseconds.
    pub wtime: Option<u64>,
    /// `btime`: Black's clock, in milliseconds.
    pub btime: Option<u64>,
    /// `winc`: White's increment per move, in milliseconds.
    pub winc: Option<u64>,
    /// `binc`: Black's increment per move, in milliseconds.
    pub binc: Option<u64>,
    /// `movestogo`: moves until the next time control.
    pub movestogo: Option<u64>,
    /// `mate`: look for a mate in this many moves.
    pub mate: Option<u64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `searchmoves`: restrict the root to these moves (UCI notation, not
    /// yet checked); empty means all.
    pub searchmoves: Vec<String>,
}

/// Keywords of `go`, used to end a `searchmoves` list.
const GO_KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

/// Parses one line (already decoded, without its line break).
pub fn parse(line: &str) -> Command {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = tokens.split_first() else {
        return Command::Empty;
    };
    match first {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::NewGame,
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest),
        "go" => parse_go(rest),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "d" => Command::Display,
        _ => Command::Unknown(first.to_string()),
    }
}

/// Reads a number leniently (see the module notes). Returns the value and
/// whether the token was consumed.
pub fn number(token: Option<&&str>) -> (u64, bool) {
    let Some(text) = token else { return (0, false) };
    let digits = text.strip_prefix('+').unwrap_or(text);
    if let Some(negative) = digits.strip_prefix('-') {
        let numeric = !negative.is_empty() && negative.bytes().all(|b| b.is_ascii_digit());
        return (0, numeric);
    }
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return (0, false);
    }
    (digits.parse().unwrap_or(u64::MAX), true)
}

fn parse_go(tokens: &[&str]) -> Command {
    let mut go = Go::default();
    let mut i = 0;
    while i < tokens.len() {
        let keyword = tokens[i];
        i += 1;
        let slot = match keyword {
            "depth" => &mut go.depth,
            "nodes" => &mut go.nodes,
            "movetime" => &mut go.movetime,
            "wtime" => &mut go.wtime,
            "btime" => &mut go.btime,
            "winc" => &mut go.winc,
            "binc" => &mut go.binc,
            "movestogo" => &mut go.movestogo,
            "mate" => &mut go.mate,
            "perft" => {
                let (value, _) = number(tokens.get(i));
                return Command::Perft(value);
            }
            "infinite" => {
                go.infinite = true;
                continue;
            }
            "ponder" => {
                go.ponder = true;
                continue;
            }
            "searchmoves" => {
                while i < tokens.len() && !GO_KEYWORDS.contains(&tokens[i]) {
                    go.searchmoves.push(tokens[i].to_string());
                    i += 1;
                }
                continue;
            }
            _ => continue,
        };
        let (value, consumed) = number(tokens.get(i));
        *slot = Some(value);
        if consumed {
            i += 1;
        }
    }
    Command::Go(go)
}

fn parse_position(tokens: &[&str]) -> Command {
    let moves_at = tokens.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(at) => (&tokens[..at], &tokens[at + 1..]),
        None => (tokens, &[][..]),
    };
    let moves = moves.iter().map(|m| m.to_string()).collect();
    match setup.split_first() {
        Some((&"startpos", [])) => Command::Position { fen: None, moves },
        Some((&"fen", fields)) if !fields.is_empty() => Command::Position {
            fen: Some(fields.join(" ")),
            moves,
        },
        Some((&"fen", _)) => Command::BadPosition("'position fen' needs a FEN".to_string()),
        Some((&"startpos", extra)) => Command::BadPosition(format!(
            "unexpected '{}' after 'position startpos'",
            extra.join(" ")
        )),
        _ => {
            Command::BadPosition("expected 'position startpos' or 'position fen <FEN>'".to_string())
        }
    }
}

fn parse_setoption(tokens: &[&str]) -> Command {
    let Some((&"name", rest)) = tokens.split_first() else {
        return Command::SetOption {
            name: String::new(),
            value: None,
        };
    };
    match rest.iter().position(|&t| t == "value") {
        Some(at) => Command::SetOption {
            name: rest[..at].join(" "),
            value: Some(rest[at + 1..].join(" ")),
        },
        None => Command::SetOption {
            name: rest.join(" "),
            value: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_commands_and_whitespace() {
        assert_eq!(parse("  uci \t"), Command::Uci);
        assert_eq!(parse("isready\r"), Command::IsReady);
        assert_eq!(parse(""), Command::Empty);
        assert_eq!(parse("   "), Command::Empty);
        assert_eq!(parse("xyzzy 1 2"), Command::Unknown("xyzzy".to_string()));
        assert_eq!(parse("quit"), Command::Quit);
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse("position startpos moves e2e4  e7e5"),
            Command::Position {
                fen: None,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1"),
            Command::Position {
                fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec![]
            }
        );
        assert!(matches!(parse("position"), Command::BadPosition(_)));
        assert!(matches!(parse("position fen"), Command::BadPosition(_)));
        assert!(matches!(
            parse("position fen moves e2e4"),
            Command::BadPosition(_)
        ));
        assert!(matches!(
            parse("position startpos e2e4"),
            Command::BadPosition(_)
        ));
        assert_eq!(
            parse("position startpos moves"),
            Command::Position {
                fen: None,
                moves: vec![]
            }
        );
    }

    #[test]
    fn go_values_are_lenient() {
        let Command::Go(go) =
            parse("go wtime 1000 btime -5 winc binc 99999999999999999999999 movestogo 3")
        else {
            panic!("not a go")
        };
        assert_eq!(go.wtime, Some(1000));
        assert_eq!(go.btime, Some(0));
        assert_eq!(go.winc, Some(0));
        assert_eq!(go.binc, Some(u64::MAX));
        assert_eq!(go.movestogo, Some(3));
        let Command::Go(go) = parse("go depth movetime 50 searchmoves e2e4 d2d4 ponder") else {
            panic!()
        };
        assert_eq!(
            (go.depth, go.movetime, go.ponder),
            (Some(0), Some(50), true)
        );
        assert_eq!(go.searchmoves, vec!["e2e4".to_string(), "d2d4".to_string()]);
        let Command::Go(go) = parse("go") else {
            panic!()
        };
        assert_eq!(go, Go::default());
        assert_eq!(parse("go perft 3"), Command::Perft(3));
        assert_eq!(parse("go perft"), Command::Perft(0));
    }

    #[test]
    fn setoption_names_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            parse("setoption"),
            Command::SetOption {
                name: String::new(),
                value: None
            }
        );
    }
}
