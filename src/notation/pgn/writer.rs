//! The writer: a game in PGN export style.

use super::lexer::is_tag_name_byte;
use crate::game::Game;
use crate::position::Position;
use crate::types::{Color, Move};
use std::io::{self, Write};

/// The longest movetext line written.
const COLUMNS: usize = 80;

/// The Seven Tag Roster, in its order, with the values written when a game
/// has no such tag (`Result` is always the game's result).
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Tags the writer derives from the game itself, rather than copies.
const DERIVED: [&str; 3] = ["SetUp", "FEN", "Variant"];

/// Writes `game` as PGN: the Seven Tag Roster first (`?` for what the game
/// lacks; `Result` is [`Game::result`]), then `Variant "Chess960"` for a
/// Chess960 game and `SetUp`/`FEN` when the start is not the standard one,
/// then the game's other tags in order (tags whose names PGN cannot
/// spell are left out), a blank line, the moves in SAN with move numbers in
/// lines of at most 80 characters, the result, and a blank line.
///
/// ```
/// use quince::Game;
/// use quince::notation::pgn::write_pgn;
///
/// let mut game = Game::default();
/// game.set_tag("White", "Anderssen");
/// for uci in ["e2e4", "e7e5", "g1f3"] {
///     game.play_uci(uci).unwrap();
/// }
/// let mut out = Vec::new();
/// write_pgn(&game, &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with("[Event \"?\"]\n[Site \"?\"]\n"));
/// assert!(text.contains("[White \"Anderssen\"]\n"));
/// assert!(text.ends_with("\n\n1. e4 e5 2. Nf3 *\n\n"));
/// assert_eq!(Game::from_pgn(&text).unwrap().position(), game.position());
/// ```
pub fn write_pgn<W: Write + ?Sized>(game: &Game, out: &mut W) -> io::Result<()> {
    let result = game.result();
    for (name, default) in ROSTER {
        let value = match name {
            "Result" => result.as_str(),
            _ => game.tag(name).unwrap_or(default),
        };
        write_tag(out, name, value)?;
    }
    let start = game.start();
    if start.is_chess960() {
        write_tag(out, "Variant", "Chess960")?;
    }
    if *start != Position::startpos() {
        write_tag(out, "SetUp", "1")?;
        write_tag(out, "FEN", &start.fen())?;
    }
    for (name, value) in game.tags() {
        let known = ROSTER.iter().any(|(r, _)| r == name) || DERIVED.contains(&name.as_str());
        let spellable = !name.is_empty() && name.bytes().all(is_tag_name_byte);
        if !known && spellable {
            write_tag(out, name, value)?;
        }
    }
    writeln!(out)?;
    write_movetext(game, out, result.as_str())?;
    writeln!(out)
}

/// `[Name "value"]`, with `\` and `"` escaped and control characters
/// (which a tag line cannot hold) written as spaces.
fn write_tag<W: Write + ?Sized>(out: &mut W, name: &str, value: &str) -> io::Result<()> {
    let mut escaped = String::with_capacity(value.len() + 2);
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                escaped.push('\\');
                escaped.push(c);
            }
            c if c.is_control() => escaped.push(' '),
            c => escaped.push(c),
        }
    }
    writeln!(out, "[{name} \"{escaped}\"]")
}

/// The moves with their NAGs and comments, and the result, wrapped at
/// [`COLUMNS`]. After a comment, a Black move gets its number again
/// (`3... Nc6`), as export format asks.
fn write_movetext<W: Write + ?Sized>(game: &Game, out: &mut W, result: &str) -> io::Result<()> {
    let mut line = String::with_capacity(COLUMNS + 16);
    let mut put = |out: &mut W, token: &str| -> io::Result<()> {
        if !line.is_empty() && line.len() + 1 + token.len() > COLUMNS {
            writeln!(out, "{line}")?;
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(token);
        Ok(())
    };
    let mut renumber = false;
    if let Some(text) = game.comment().filter(|t| !t.is_empty()) {
        put(out, &comment_token(text))?;
        renumber = true;
    }
    let mut pos = game.start().clone();
    for (ply, &mv) in game.moves().iter().enumerate() {
        let san = pos.san(mv);
        let token = match pos.side_to_move() {
            Color::White => format!("{}. {san}", pos.fullmove_number()),
            Color::Black if ply == 0 || renumber => {
                format!("{}... {san}", pos.fullmove_number())
            }
            Color::Black => san,
        };
        // A move number stays on the line of its move.
        put(out, &token)?;
        for nag in game.nags(ply) {
            put(out, &format!("${nag}"))?;
        }
        renumber = false;
        if let Some(text) = game.move_comment(ply).filter(|t| !t.is_empty()) {
            put(out, &comment_token(text))?;
            renumber = true;
        }
        if mv == Move::NULL {
            pos.make_null_counted();
        } else {
            pos.make(mv);
        }
    }
    put(out, result)?;
    writeln!(out, "{line}")
}

/// `{text}` as one token: a comment is not broken across lines, since a
/// reader keeps its line breaks (python-chess does), and a comment read
/// back must be the comment written; a `}` inside it (which would end it
/// early) is written as `)`. A long comment makes a line longer than
/// [`COLUMNS`].
fn comment_token(text: &str) -> String {
    format!("{{{}}}", text.replace('}', ")"))
}
