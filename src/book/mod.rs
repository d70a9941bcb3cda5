//! Opening books in the Polyglot format (Fabien Letouzey's `.bin` books,
//! which most engines and GUIs read and write).
//!
//! * [`Position::polyglot_key`](crate::Position::polyglot_key): the key a
//!   book files a position under.
//! * [`PolyglotBook`]: a book read from a file or from bytes, probed by
//!   position: [`entries`](PolyglotBook::entries),
//!   [`choose`](PolyglotBook::choose) (weighted, deterministic per seed) and
//!   [`best`](PolyglotBook::best).
//! * [`encode_move`] and [`decode_move`]: Polyglot's 16-bit move codes.
//!
//! A book is a sequence of 16-byte entries, sorted by key, each big-endian:
//! key (`u64`), move (`u16`), weight (`u16`), learn (`u32`). Every entry a
//! probe returns carries a legal [`Move`] of the position: codes that name
//! no legal move (a corrupt entry, a key collision) are skipped.
//!
//! A book of two entries for the start position, written in memory:
//!
//! ```
//! use quince::Position;
//! use quince::book::{PolyglotBook, encode_move};
//!
//! let start = Position::startpos();
//! let mut bytes = Vec::new();
//! for (text, weight) in [("e2e4", 3u16), ("d2d4", 1)] {
//!     let mv = start.parse_uci(text).unwrap();
//!     bytes.extend(start.polyglot_key().to_be_bytes());
//!     bytes.extend(encode_move(mv).to_be_bytes());
//!     bytes.extend(weight.to_be_bytes());
//!     bytes.extend(0u32.to_be_bytes()); // learn
//! }
//! let book = PolyglotBook::from_bytes(bytes).expect("a well-formed book");
//!
//! let entries = book.entries(&start);
//! assert_eq!(entries.len(), 2);
//! assert_eq!(start.uci(entries[0].mv), "e2e4");
//! assert_eq!(book.best(&start).map(|e| start.uci(e.mv)), Some("e2e4".to_string()));
//! // A weighted random choice, the same for the same seed.
//! let chosen = book.choose(&start, 42).expect("the position is in the book");
//! assert_eq!(book.choose(&start, 42), Some(chosen));
//! // A position the book does not know.
//! let after_e4 = start.play(start.parse_uci("e2e4").unwrap()).unwrap();
//! assert!(book.entries(&after_e4).is_empty());
//! assert_eq!(book.choose(&after_e4, 42), None);
//! ```
//!
//! Malformed books are errors, never panics:
//!
//! ```
//! use quince::book::{BookError, PolyglotBook};
//! let error = PolyglotBook::from_bytes(vec![0; 20]).unwrap_err();
//! assert_eq!(error, BookError::Size { len: 20 });
//! assert_eq!(error.to_string(), "a Polyglot book is a sequence of 16-byte entries, but it has 20 bytes");
//! ```

mod key;
mod polyglot;

pub use key::{decode_move, encode_move};
pub use polyglot::PolyglotBook;

use crate::types::Move;
use std::fmt;
use std::path::PathBuf;

/// One book entry for a position, with its move decoded and checked legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The position's Polyglot key.
    pub key: u64,
    /// The move, a legal move of the probed position (castling as the king
    /// taking its own rook, as everywhere in Quince).
    pub mv: Move,
    /// The move as the book encodes it (see [`encode_move`]).
    pub code: u16,
    /// How often to play the move, relative to the position's other moves.
    pub weight: u16,
    /// The learning field, which Polyglot leaves at 0 and Quince ignores.
    pub learn: u32,
}

/// Why a book could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BookError {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        message: String,
    },
    /// The length is not a multiple of the 16-byte entry size.
    Size {
        /// The length in bytes.
        len: u64,
    },
    /// The entries are not sorted by key, so binary search cannot find them.
    Unsorted {
        /// The first entry (counting from 0) whose key is smaller than the
        /// key before it.
        index: usize,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io { path, message } => {
                write!(f, "cannot read the book {}: {message}", path.display())
            }
            BookError::Size { len } => write!(
                f,
                "a Polyglot book is a sequence of 16-byte entries, but it has {len} bytes"
            ),
            BookError::Unsorted { index } => write!(
                f,
                "the book's entries are not sorted by key: entry {index} has a smaller key than entry {}",
                index - 1
            ),
        }
    }
}

impl std::error::Error for BookError {}
