//! The Polyglot `.bin` reader.

use super::{BookEntry, BookError, decode_move};
use crate::movegen::legal_moves;
use crate::position::Position;
use crate::types::Move;
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// The size of one entry in bytes.
const ENTRY_SIZE: usize = 16;

/// An entry as stored, move still encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Raw {
    key: u64,
    code: u16,
    weight: u16,
    learn: u32,
}

/// A Polyglot opening book held in memory (16 bytes per entry), probed by
/// binary search on the position's [`polyglot_key`](Position::polyglot_key).
///
/// See [the module documentation](crate::book) for an example.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PolyglotBook {
    entries: Vec<Raw>,
}

impl PolyglotBook {
    /// Reads the book in the file at `path`.
    ///
    /// # Errors
    /// [`BookError::Io`] if the file cannot be read or is not a regular
    /// file (a device such as `/dev/zero` could be endless), otherwise as
    /// [`PolyglotBook::from_bytes`].
    pub fn open(path: impl AsRef<Path>) -> Result<PolyglotBook, BookError> {
        let path = path.as_ref();
        let io_error = |message: String| BookError::Io {
            path: path.to_path_buf(),
            message,
        };
        let mut file = File::open(path).map_err(|e| io_error(e.to_string()))?;
        let metadata = file.metadata().map_err(|e| io_error(e.to_string()))?;
        // Not a device or a pipe, which could be endless (`/dev/zero`).
        if !metadata.is_file() {
            return Err(io_error("not a regular file".to_string()));
        }
        // A wrong length is known before reading a byte.
        if !metadata.len().is_multiple_of(ENTRY_SIZE as u64) {
            return Err(BookError::Size {
                len: metadata.len(),
            });
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| io_error(e.to_string()))?;
        PolyglotBook::from_bytes(bytes)
    }

    /// The book in `bytes`, the contents of a `.bin` file.
    ///
    /// # Errors
    /// [`BookError::Size`] if the length is not a multiple of 16 bytes,
    /// [`BookError::Unsorted`] if the keys are not in ascending order.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<PolyglotBook, BookError> {
        if !bytes.len().is_multiple_of(ENTRY_SIZE) {
            return Err(BookError::Size {
                len: bytes.len() as u64,
            });
        }
        let entries: Vec<Raw> = bytes
            .chunks_exact(ENTRY_SIZE)
            .map(|chunk| {
                let field = |from: usize, to: usize| {
                    chunk[from..to]
                        .iter()
                        .fold(0u64, |value, &byte| value << 8 | u64::from(byte))
                };
                Raw {
                    key: field(0, 8),
                    code: field(8, 10) as u16,
                    weight: field(10, 12) as u16,
                    learn: field(12, 16) as u32,
                }
            })
            .collect();
        if let Some(index) = entries
            .windows(2)
            .position(|pair| pair[1].key < pair[0].key)
        {
            return Err(BookError::Unsorted { index: index + 1 });
        }
        Ok(PolyglotBook { entries })
    }

    /// How many entries the book holds (its size in bytes / 16).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The stored entries under `key`, in file order.
    fn raw(&self, key: u64) -> &[Raw] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// The book's entries for `position`, in file order, each with its
    /// move decoded; entries whose code is not a legal move of the
    /// position are left out. Empty when the position is not in the book.
    pub fn entries(&self, position: &Position) -> Vec<BookEntry> {
        let key = position.polyglot_key();
        let raw = self.raw(key);
        if raw.is_empty() {
            return Vec::new();
        }
        let legal = legal_moves(position);
        raw.iter()
            .filter_map(|entry| {
                let mv = decode_move(entry.code)?;
                legal.as_slice().contains(&mv).then_some(BookEntry {
                    key,
                    mv,
                    code: entry.code,
                    weight: entry.weight,
                    learn: entry.learn,
                })
            })
            .collect()
    }

    /// The entry with the highest weight for `position` (the first of
    /// equals in file order), or `None` if the book has no legal move for
    /// it. Entries of weight 0 count too, as a last resort.
    pub fn best(&self, position: &Position) -> Option<BookEntry> {
        self.entries(position)
            .into_iter()
            .rev()
            .max_by_key(|entry| entry.weight)
    }

    /// A book move for `position`, chosen at random with probability
    /// proportional to its weight, or `None` if the position has no entry
    /// of positive weight. Deterministic: the same book, position and
    /// `seed` give the same move; vary the seed to vary the play.
    pub fn choose(&self, position: &Position, seed: u64) -> Option<Move> {
        self.choose_entry(position, seed).map(|entry| entry.mv)
    }

    /// [`PolyglotBook::choose`], returning the whole entry.
    pub fn choose_entry(&self, position: &Position, seed: u64) -> Option<BookEntry> {
        let entries = self.entries(position);
        let total: u64 = entries.iter().map(|e| u64::from(e.weight)).sum();
        if total == 0 {
            return None;
        }
        // A uniform number below `total` by multiply-and-shift (the bias of
        // a 64-bit draw over at most 2^32 values is negligible).
        let mut pick = ((u128::from(splitmix64(seed)) * u128::from(total)) >> 64) as u64;
        entries.into_iter().find(|entry| {
            let weight = u64::from(entry.weight);
            if pick < weight {
                true
            } else {
                pick -= weight;
                false
            }
        })
    }
}

/// SplitMix64's output function: spreads any seed (0, 1, 2, ...) over all
/// 64 bits.
fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_follow_the_weights() {
        let start = Position::startpos();
        let mut bytes = Vec::new();
        for (text, weight) in [("e2e4", 3u16), ("d2d4", 1), ("g1f3", 0)] {
            let mv = start.parse_uci(text).unwrap();
            bytes.extend(start.polyglot_key().to_be_bytes());
            bytes.extend(super::super::encode_move(mv).to_be_bytes());
            bytes.extend(weight.to_be_bytes());
            bytes.extend(0u32.to_be_bytes());
        }
        let book = PolyglotBook::from_bytes(bytes).unwrap();
        let mut counts = [0u32; 3];
        for seed in 0..4000 {
            match start.uci(book.choose(&start, seed).unwrap()).as_str() {
                "e2e4" => counts[0] += 1,
                "d2d4" => counts[1] += 1,
                _ => counts[2] += 1,
            }
        }
        assert_eq!(counts[2], 0, "weight 0 is never chosen");
        assert!((2800..3200).contains(&counts[0]), "{counts:?}");
    }
}
