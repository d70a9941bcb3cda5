//! The engine's own opening book: the UCI options `OwnBook` (play from the
//! book, default off) and `BookFile` (a Polyglot `.bin` file; by default
//! Debian's `gnuchess-book` where it is installed, else none).
//!
//! With `OwnBook` on and a book loaded, a `go` that only gives the game's
//! clocks (`wtime`, `btime`, `winc`, `binc`, `movestogo`) in a book
//! position is answered at once, without a search:
//!
//! ```text
//! info string book move e2e4 (weight 60 of 100)
//! bestmove e2e4
//! ```
//!
//! Why off by default: GUIs and analysis tools bring their own books and
//! expect every `go` to search and report `info` lines; with the book on
//! by default, a GUI asking for an evaluation of the start position got a
//! bare `bestmove`, and only on hosts where an unrelated package happened
//! to be installed. Today's engines ship with their book off for the same
//! reason. The book still pays in play (an SPRT of the same build with the
//! book on against off, from the start position, said H1:
//! `reports/strength.md`), so a user who wants it sets `OwnBook` to true.
//! No book ships with Quince, so the default `BookFile` is the first of
//! [`DEFAULT_BOOK_FILES`] that exists when the engine starts; on a host
//! without one, `OwnBook` on changes nothing until a `BookFile` is set.
//! The default book is read at the first `isready` or `go` (not at start,
//! so `uci` stays instant), silently when it loads, with an
//! `info string error: ...` when it does not.
//!
//! The move is a weighted random choice ([`PolyglotBook::choose_entry`]),
//! seeded with the position's Polyglot key and a count of the book moves
//! played so far in this engine process: a fresh engine given the same
//! commands plays the same moves, while repeated probes of one position
//! vary. Every analysis request always searches, book or not: a bare
//! `go`, and any `go` with `depth`, `nodes`, `movetime`, `mate`,
//! `infinite`, `ponder` or `searchmoves`, or with `MultiPV` above 1 (they
//! ask for a search's output, or for a move the book cannot promise).
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
use std::path::Path;

/// Where the default `BookFile` is looked for, in order: the book of
/// Debian's and Ubuntu's `gnuchess-book` package.
pub(super) const DEFAULT_BOOK_FILES: [&str; 1] = ["/usr/share/games/gnuchess/book.bin"];

/// The book behind `BookFile`: none, the default file not read yet, or
/// a book read.
enum Source {
    None,
    Unread(String),
    Loaded(PolyglotBook),
}

/// The book options and the loaded book.
pub(super) struct OwnBook {
    enabled: bool,
    /// The default `BookFile`, announced in answer to `uci`.
    default_file: Option<String>,
    source: Source,
    /// Book moves played so far (varies the seed).
    played: u64,
}

impl Default for OwnBook {
    fn default() -> OwnBook {
        OwnBook::with_default_from(&DEFAULT_BOOK_FILES)
    }
}

impl OwnBook {
    /// Off, with the first of `candidates` that is a file as the default
    /// `BookFile` (none if none is).
    fn with_default_from(candidates: &[&str]) -> OwnBook {
        let default_file = candidates
            .iter()
            .find(|path| Path::new(path).is_file())
            .map(|path| path.to_string());
        OwnBook {
            enabled: false,
            source: default_file.clone().map_or(Source::None, Source::Unread),
            default_file,
            played: 0,
        }
    }

    /// Sends the option lines.
    pub(super) fn announce(&self, out: &Output) {
        out.line("option name OwnBook type check default false");
        out.line(&format!(
            "option name BookFile type string default {}",
            self.default_file.as_deref().unwrap_or("<empty>")
        ));
    }

    /// Reads the default book if it has not been read yet and `OwnBook`
    /// is on (at `isready` and before a book probe); says nothing unless it
    /// fails. With `OwnBook` off (as `tools/match.py` sets it) the file is
    /// never read.
    pub(super) fn load_pending(&mut self, out: &Output) {
        if !self.enabled {
            return;
        }
        let Source::Unread(path) = &self.source else {
            return;
        };
        self.source = match PolyglotBook::open(path) {
            Ok(book) => Source::Loaded(book),
            Err(e) => {
                out.line(&format!(
                    "info string error: default BookFile: {e}; no book"
                ));
                Source::None
            }
        };
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
        self.source = Source::None;
        if value.is_empty() || value == "<empty>" {
            return;
        }
        match PolyglotBook::open(value) {
            Ok(book) => {
                out.line(&format!(
                    "info string BookFile {value}: {} entries",
                    book.len()
                ));
                self.source = Source::Loaded(book);
            }
            Err(e) => out.line(&format!("info string error: BookFile: {e}; no book")),
        }
    }

    /// Answers `go` from the book if it can (only a game-clock `go`, see
    /// [`plays_a_game_move`]): prints the book move and its
    /// `bestmove` and returns true; returns false when the engine must
    /// search, as for every analysis request (`multi_pv` is the `MultiPV`
    /// option: above 1 asks for several moves, which a book move cannot give).
    pub(super) fn answer(
        &mut self,
        position: &Position,
        go: &Go,
        multi_pv: usize,
        out: &Output,
    ) -> bool {
        self.load_pending(out);
        let Source::Loaded(book) = &self.source else {
            return false;
        };
        if !self.enabled || !plays_a_game_move(go) || multi_pv > 1 {
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

/// Whether `go` asks for a move in a game and nothing more: it gives at
/// least one clock field (`wtime`, `btime`, `winc`, `binc`, `movestogo`,
/// as the search's own time control reads them) and no limit or option that asks
/// for a search's output (`depth`, `nodes`, `movetime`, `mate`,
/// `infinite`, `ponder`, `searchmoves`). A bare `go` is an analysis
/// request: it searches.
fn plays_a_game_move(go: &Go) -> bool {
    let clock = [go.wtime, go.btime, go.winc, go.binc, go.movestogo]
        .iter()
        .any(Option::is_some);
    let analysis = go.depth.is_some()
        || go.nodes.is_some()
        || go.movetime.is_some()
        || go.mate.is_some()
        || go.infinite
        || go.ponder
        || !go.searchmoves.is_empty();
    clock && !analysis
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::encode_move;
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    /// Everything the book writes, shared with the test.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Captured {
        fn take_lines(&self) -> Vec<String> {
            let bytes = std::mem::take(&mut *self.0.lock().unwrap());
            String::from_utf8(bytes)
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect()
        }
    }

    /// A one-entry book (1. d4 from the start position) in a fresh file.
    fn book_file(name: &str) -> String {
        let start = Position::startpos();
        let mut bytes = Vec::new();
        bytes.extend(start.polyglot_key().to_be_bytes());
        bytes.extend(encode_move(start.parse_uci("d2d4").unwrap()).to_be_bytes());
        bytes.extend(7u16.to_be_bytes());
        bytes.extend(0u32.to_be_bytes());
        let path =
            std::env::temp_dir().join(format!("quince-own-book-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        path.to_string_lossy().into_owned()
    }

    /// A `go` with the game's clocks and nothing else.
    fn clock_go() -> Go {
        Go {
            wtime: Some(60_000),
            btime: Some(60_000),
            winc: Some(1_000),
            binc: Some(1_000),
            ..Go::default()
        }
    }

    #[test]
    fn the_first_existing_default_file_is_announced_and_played_from_once_on() {
        let file = book_file("default.bin");
        let captured = Captured::default();
        let out = Output::new(Box::new(captured.clone()));
        let mut own = OwnBook::with_default_from(&["/no/such/quince/book.bin", &file]);
        own.announce(&out);
        assert_eq!(
            captured.take_lines(),
            [
                "option name OwnBook type check default false".to_string(),
                format!("option name BookFile type string default {file}"),
            ]
        );
        // Off by default: the engine searches, and the file is not read.
        assert!(!own.answer(&Position::startpos(), &clock_go(), 1, &out));
        assert!(matches!(own.source, Source::Unread(_)));
        assert!(captured.take_lines().is_empty());

        // On: read at the first probe, silently; MultiPV 2 still searches;
        // then a book move, no search.
        own.set_option("OwnBook", "true", &out);
        assert!(!own.answer(&Position::startpos(), &clock_go(), 2, &out));
        assert!(captured.take_lines().is_empty());
        assert!(own.answer(&Position::startpos(), &clock_go(), 1, &out));
        assert_eq!(
            captured.take_lines(),
            [
                "info string book move d2d4 (weight 7 of 7)",
                "bestmove d2d4"
            ]
        );
        // Off again: the engine searches.
        own.set_option("OwnBook", "false", &out);
        assert!(!own.answer(&Position::startpos(), &clock_go(), 1, &out));

        // Gone before its first use: nothing is reported until the book
        // is turned on.
        let mut own = OwnBook::with_default_from(&[&file]);
        let _ = std::fs::remove_file(&file);
        own.load_pending(&out);
        assert!(captured.take_lines().is_empty());
        own.set_option("OwnBook", "true", &out);
        own.load_pending(&out);
        let lines = captured.take_lines();
        assert!(
            lines[0].starts_with("info string error: default BookFile:"),
            "{lines:?}"
        );
    }

    #[test]
    fn every_analysis_request_searches_even_in_the_book() {
        let file = book_file("analysis.bin");
        let captured = Captured::default();
        let out = Output::new(Box::new(captured.clone()));
        let mut own = OwnBook::with_default_from(&[&file]);
        own.set_option("OwnBook", "true", &out);
        let analysis = [
            Go::default(),
            Go {
                depth: Some(3),
                ..clock_go()
            },
            Go {
                nodes: Some(5000),
                ..Go::default()
            },
            Go {
                movetime: Some(200),
                ..Go::default()
            },
            Go {
                mate: Some(2),
                ..Go::default()
            },
            Go {
                infinite: true,
                ..Go::default()
            },
            Go {
                ponder: true,
                ..clock_go()
            },
            Go {
                searchmoves: vec!["d2d4".to_string()],
                ..clock_go()
            },
        ];
        for go in &analysis {
            assert!(
                !own.answer(&Position::startpos(), go, 1, &out),
                "{go:?} must search"
            );
        }
        assert!(captured.take_lines().is_empty());
        // Any one clock field makes it a game move.
        for go in [
            Go {
                btime: Some(1000),
                ..Go::default()
            },
            Go {
                movestogo: Some(20),
                ..Go::default()
            },
        ] {
            assert!(own.answer(&Position::startpos(), &go, 1, &out), "{go:?}");
        }
        let _ = std::fs::remove_file(&file);
    }

    #[test]
    fn without_a_default_file_there_is_no_book() {
        let captured = Captured::default();
        let out = Output::new(Box::new(captured.clone()));
        let mut own = OwnBook::with_default_from(&["/no/such/quince/book.bin"]);
        own.announce(&out);
        assert_eq!(
            captured.take_lines()[1],
            "option name BookFile type string default <empty>"
        );
        own.set_option("OwnBook", "true", &out);
        assert!(!own.answer(&Position::startpos(), &clock_go(), 1, &out));
        assert!(captured.take_lines().is_empty());
    }

    #[test]
    fn a_bad_default_file_is_reported_once_and_a_cleared_one_never_read() {
        let file = book_file("bad-default.bin");
        std::fs::write(&file, [0u8; 17]).unwrap();
        let captured = Captured::default();
        let out = Output::new(Box::new(captured.clone()));
        let mut own = OwnBook::with_default_from(&[&file]);
        own.set_option("OwnBook", "true", &out);
        own.load_pending(&out);
        let lines = captured.take_lines();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("info string error: default BookFile:")
                && lines[0].contains("17 bytes"),
            "{lines:?}"
        );
        assert!(!own.answer(&Position::startpos(), &clock_go(), 1, &out));
        assert!(captured.take_lines().is_empty(), "reported once");

        // Cleared before its first use: never read, so never reported.
        let mut own = OwnBook::with_default_from(&[&file]);
        own.set_option("BookFile", "<empty>", &out);
        own.set_option("OwnBook", "true", &out);
        own.load_pending(&out);
        assert!(!own.answer(&Position::startpos(), &clock_go(), 1, &out));
        assert!(captured.take_lines().is_empty());
        let _ = std::fs::remove_file(&file);
    }
}
