//! The engine's own opening book: the UCI options `OwnBook` (play from the
//! book, default off) and `BookFile` (a Polyglot `.bin` file, default none).
//!
//! With `OwnBook` on and a book loaded, a `go` whose position is in the
//! book is answered at once, without a search:
//!
//! ```text
//! info string book move e2e4 (weight 60 of 100)
//! bestmove e2e4
//! ```
//!
//! The move is a weighted random choice ([`PolyglotBook::choose_entry`]),
//! seeded with the position's Polyglot key and a count of the book moves
//! played so far in this engine process: a fresh engine given the same
//! commands plays the same moves, while repeated probes of one position
//! vary. `go infinite`, `go ponder`, `go mate` and `go searchmoves` always
//! search (they ask for analysis, or for a move the book cannot promise).
//!
//! A `BookFile` that cannot be read or is not a valid book is reported with
//! `info string error: ...` and leaves the engine without a book; an empty
//! value (or `<empty>`) unloads the book.

use super::Output;
use super::command::Go;
use super::engine::check;
use super::info::bestmove_text;
use crate::book::PolyglotBook;
use crate::position::Position;

/// The option lines sent in answer to `uci`.
const OPTIONS: [&str; 2] = [
    "option name OwnBook type check default false",
    "option name BookFile type string default <empty>",
];

/// The book options and the loaded book.
#[derive(Default)]
pub(super) struct OwnBook {
    enabled: bool,
    book: Option<PolyglotBook>,
    /// Book moves played so far (varies the seed).
    played: u64,
}

impl OwnBook {
    /// Sends the option lines.
    pub(super) fn announce(&self, out: &Output) {
        for line in OPTIONS {
            out.line(line);
        }
    }

    /// Sets `OwnBook` or `BookFile` (`name` is one of them, any case).
    pub(super) fn set_option(&mut self, name: &str, value: &str, out: &Output) {
        if name.eq_ignore_ascii_case("ownbook") {
            match check(value) {
                Some(on) => self.enabled = on,
                None => out.line(&format!(
                    "info string error: OwnBook must be true or false, got '{value}'"
                )),
            }
            return;
        }
        self.book = None;
        if value.is_empty() || value == "<empty>" {
            return;
        }
        match PolyglotBook::open(value) {
            Ok(book) => {
                out.line(&format!(
                    "info string BookFile {value}: {} entries",
                    book.len()
                ));
                self.book = Some(book);
            }
            Err(e) => out.line(&format!("info string error: BookFile: {e}; no book")),
        }
    }

    /// Answers `go` from the book if it can: prints the book move and its
    /// `bestmove` and returns true; returns false when the engine must search.
    pub(super) fn answer(&mut self, position: &Position, go: &Go, out: &Output) -> bool {
        let Some(book) = self.book.as_ref().filter(|_| self.enabled) else {
            return false;
        };
        if go.infinite || go.ponder || go.mate.is_some() || !go.searchmoves.is_empty() {
            return false;
        }
        let seed = position.polyglot_key() ^ self.played.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let Some(entry) = book.choose_entry(position, seed) else {
            return false;
        };
        self.played += 1;
        let total: u64 = book
            .entries(position)
            .iter()
            .map(|e| u64::from(e.weight))
            .sum();
        out.line(&format!(
            "info string book move {} (weight {} of {total})",
            position.uci(entry.mv),
            entry.weight
        ));
        out.line(&bestmove_text(position, entry.mv, None));
        true
    }
}
