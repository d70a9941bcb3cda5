//! PGN, the Portable Game Notation: a streaming reader and a writer.
//!
//! [`PgnReader`] reads games one at a time from any [`std::io::BufRead`],
//! holding only the game being read, so files of millions of games take
//! constant memory. It replays the mainline of each game (SAN moves and
//! `--` null moves, from the `FEN` tag's position when there is one, in
//! Chess960 mode under `[Variant "Chess960"]`), keeps the mainline's
//! comments (`{...}` and `; ...`) and NAGs (`$14`, and `!?` and the other
//! glyphs as their NAGs) on the [`crate::Game`]'s moves, and skips
//! variations `( ... )` however nested, move numbers and `%` escape lines.
//! A game that does not replay is an `Err` naming the game, the line and
//! the move; the reader then goes on with the next game.
//!
//! [`write_pgn`] (or [`crate::Game::to_pgn`]) writes a game in export style:
//! the Seven Tag Roster first, `SetUp`/`FEN` for a non-standard start, SAN
//! moves with move numbers, NAGs and comments, lines of at most 80
//! characters (a long comment excepted: comments are not broken), the
//! result.
//!
//! ```
//! use quince::notation::pgn::PgnReader;
//!
//! let text = r#"[Event "Casual"]
//! [Result "1-0"]
//!
//! 1. e4 e5 2. Bc4 {the Italian way} Nc6 (2... Nf6) 3. Qh5 Nf6?? 4. Qxf7# 1-0
//!
//! [Event "Broken"]
//!
//! 1. e4 e5 2. Ke3 *
//! "#;
//! let games: Vec<_> = PgnReader::new(text.as_bytes()).collect();
//! assert_eq!(games.len(), 2);
//! let mate = games[0].as_ref().unwrap();
//! assert_eq!(mate.tag("Event"), Some("Casual"));
//! assert_eq!(mate.result().as_str(), "1-0");
//! let error = games[1].as_ref().unwrap_err();
//! assert_eq!((error.game(), error.line()), (2, 8));
//! assert!(error.to_string().starts_with("game 2, line 8: move 2. Ke3:"));
//! ```

mod lexer;
mod reader;
mod visitor;
mod writer;

pub use reader::PgnReader;
pub use visitor::{Echo, Visitor, visit};
pub use writer::write_pgn;

use crate::position::FenError;
use std::fmt;

/// The most plies the reader replays in one game. No game under the
/// seventy-five-move and fivefold-repetition rules is longer than about
/// 17,700 plies; the limit keeps a hostile file from growing one game
/// without bound.
pub const MAX_PLIES: usize = 20_000;

/// The most tags the reader keeps for one game.
pub const MAX_TAGS: usize = 512;

/// The longest tag value the reader accepts, in bytes.
pub const MAX_TAG_VALUE: usize = 8192;

/// What went wrong with a game: the [`PgnError`]'s details.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PgnErrorKind {
    /// Reading the input failed; the reader stops.
    Io(String),
    /// A tag pair that is not `[Name "value"]`, or one too many.
    Tag(String),
    /// The `FEN` tag is not a valid position.
    Fen {
        /// The tag's value.
        fen: String,
        /// Why it was refused.
        error: FenError,
    },
    /// A `Variant` tag other than standard chess or Chess960.
    Variant(String),
    /// A mainline move that cannot be read, is ambiguous or is illegal.
    Move {
        /// The move number and dots as PGN writes them: `12.` or `12...`.
        number: String,
        /// The move as written.
        text: String,
        /// Why it was refused.
        reason: String,
    },
    /// The game goes on past [`MAX_PLIES`].
    TooLong,
    /// A `{` comment that the input ends inside.
    UnterminatedComment,
    /// The text holds no game at all ([`crate::Game::from_pgn`]).
    NoGame,
}

impl fmt::Display for PgnErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnErrorKind::Io(message) => write!(f, "read error: {message}"),
            PgnErrorKind::Tag(message) => write!(f, "bad tag: {message}"),
            PgnErrorKind::Fen { fen, error } => write!(f, "bad FEN tag '{fen}': {error}"),
            PgnErrorKind::Variant(name) => write!(
                f,
                "unsupported variant '{name}': only standard chess and Chess960 are read"
            ),
            PgnErrorKind::Move {
                number,
                text,
                reason,
            } => write!(f, "move {number} {text}: {reason}"),
            PgnErrorKind::TooLong => write!(f, "game longer than {MAX_PLIES} plies"),
            PgnErrorKind::UnterminatedComment => {
                write!(f, "comment opened with '{{' is never closed")
            }
            PgnErrorKind::NoGame => write!(f, "no game found"),
        }
    }
}

/// A game that could not be read: which game (1-based, in file order),
/// which line of the input, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    game: u64,
    line: u64,
    kind: PgnErrorKind,
}

impl PgnError {
    pub(crate) fn new(game: u64, line: u64, kind: PgnErrorKind) -> PgnError {
        PgnError { game, line, kind }
    }

    pub(crate) fn no_game() -> PgnError {
        PgnError::new(0, 1, PgnErrorKind::NoGame)
    }

    /// The game's index, from 1 in input order (0 for [`PgnErrorKind::NoGame`]).
    pub fn game(&self) -> u64 {
        self.game
    }

    /// The input line (from 1) where the trouble is.
    pub fn line(&self) -> u64 {
        self.line
    }

    /// What was wrong.
    pub fn kind(&self) -> &PgnErrorKind {
        &self.kind
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            PgnErrorKind::NoGame => write!(f, "{}", self.kind),
            _ => write!(f, "game {}, line {}: {}", self.game, self.line, self.kind),
        }
    }
}

impl std::error::Error for PgnError {}
