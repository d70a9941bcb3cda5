//! Syzygy endgame tablebases: the exact result (WDL) and distance to
//! zeroing (DTZ) of positions with few pieces, read from Ronald de Man's
//! table files (`KQvKR.rtbw`, `KQvKR.rtbz`).
//!
//! Quince's own prober, written from the format's description: no C, no
//! global state (open as many [`Tablebase`]s as you like), every read of
//! a file bounds checked (a truncated or corrupt file gives a
//! [`ProbeError`], never a panic), files mapped lazily on first probe.
//! Its answers equal python-chess's prober on every 3- and 4-piece table
//! (`tests/python/test_syzygy.py`). Needs the `syzygy` feature (on with
//! `cli`; it adds the `memmap2` crate).
//!
//! ```no_run
//! use quince::Position;
//! use quince::syzygy::{Tablebase, Wdl};
//!
//! // Several directories, separated as in PATH (`:` on Unix, `;` on Windows).
//! let tables = Tablebase::open("/tb/3-4-5:/tb/6")?;
//! let position = Position::from_fen("8/8/8/8/8/3k4/8/KQ6 w - - 0 1")?;
//! assert_eq!(tables.probe_wdl(&position)?, Wdl::Win);
//! let dtz = tables.probe_dtz(&position)?;
//! assert!(dtz.0 > 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bytes;
mod index;
mod material;
mod pairs;
mod probe;
mod table;

pub use index::MAX_PIECES;
use material::Material;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use table::{OpenError, Table, TableName};

/// Win/draw/loss from the side to move, under the fifty-move rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost.
    Loss,
    /// Lost without the fifty-move rule, drawn with it.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won without the fifty-move rule, drawn with it.
    CursedWin,
    /// Won.
    Win,
}

impl Wdl {
    /// -2 (loss) to 2 (win), the format's numbers.
    pub const fn value(self) -> i32 {
        self as i32 - 2
    }

    fn from_value(value: i32) -> Wdl {
        match value {
            ..=-2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            _ => Wdl::Win,
        }
    }
}

/// Distance to zeroing in plies from the side to move: the number of plies
/// to a capture or pawn move that keeps the best result, positive when
/// winning, negative when losing, 0 when drawn; beyond ±100 when the
/// fifty-move rule spoils the result (a cursed win or a blessed loss).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Dtz(pub i32);

/// Which kind of table file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableKind {
    /// `.rtbw`: win/draw/loss.
    Wdl,
    /// `.rtbz`: distance to zeroing.
    Dtz,
}

impl TableKind {
    fn extension(self) -> &'static str {
        match self {
            TableKind::Wdl => "rtbw",
            TableKind::Dtz => "rtbz",
        }
    }
}

/// Why tables could not be added.
#[derive(Debug)]
pub enum TablebaseError {
    /// A directory of the path could not be listed.
    Directory {
        /// The directory.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file named like a table could not be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file named like a table is not one (size or magic number wrong).
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: &'static str,
    },
}

impl fmt::Display for TablebaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablebaseError::Directory { path, source } => {
                write!(
                    f,
                    "cannot read the tablebase directory {}: {source}",
                    path.display()
                )
            }
            TablebaseError::Unreadable { path, source } => {
                write!(f, "cannot read the table {}: {source}", path.display())
            }
            TablebaseError::Corrupt { path, problem } => {
                write!(
                    f,
                    "{} is not a valid Syzygy table: {problem}",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for TablebaseError {}

/// Why a position could not be probed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// Tables hold no position with castling rights.
    CastlingRights,
    /// More pieces than the largest table loaded.
    TooManyPieces {
        /// The position's pieces, kings included.
        pieces: u32,
        /// The most pieces of any loaded table.
        max: u32,
    },
    /// The table this position (or a capture from it) needs is not loaded.
    MissingTable {
        /// Its name, e.g. `KQvKR`.
        name: String,
        /// WDL or DTZ.
        kind: TableKind,
    },
    /// A table file failed a check while being read.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: &'static str,
    },
    /// A table file could not be opened on first use.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What the system said.
        problem: String,
    },
}

impl ProbeError {
    fn corrupt(path: &Path, corrupt: bytes::Corrupt) -> ProbeError {
        ProbeError::Corrupt {
            path: path.to_path_buf(),
            problem: corrupt.0,
        }
    }
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::CastlingRights => {
                write!(f, "tablebases hold no position with castling rights")
            }
            ProbeError::TooManyPieces { pieces, max } => {
                write!(f, "{pieces} pieces: the loaded tables hold at most {max}")
            }
            ProbeError::MissingTable { name, kind } => {
                write!(f, "the table {name}.{} is not loaded", kind.extension())
            }
            ProbeError::Corrupt { path, problem } => {
                write!(f, "{} is corrupt: {problem}", path.display())
            }
            ProbeError::Unreadable { path, problem } => {
                write!(f, "cannot read {}: {problem}", path.display())
            }
        }
    }
}

impl std::error::Error for ProbeError {}

/// One table file, read on first use.
struct Entry {
    path: PathBuf,
    name: TableName,
    kind: TableKind,
    table: OnceLock<Result<Table, ProbeError>>,
}

impl Entry {
    fn get(&self) -> Result<&Table, ProbeError> {
        self.table
            .get_or_init(|| {
                Table::open(&self.path, self.name.clone(), self.kind == TableKind::Wdl).map_err(
                    |e| match e {
                        OpenError::Io(source) => ProbeError::Unreadable {
                            path: self.path.clone(),
                            problem: source.to_string(),
                        },
                        OpenError::Corrupt(c) => ProbeError::corrupt(&self.path, c),
                    },
                )
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// A set of Syzygy tables, found by directory and read on first probe.
/// Shared between threads as it is (`&Tablebase` is `Sync`).
#[derive(Default)]
pub struct Tablebase {
    wdl: HashMap<Material, Arc<Entry>>,
    dtz: HashMap<Material, Arc<Entry>>,
    max_pieces: usize,
    files: usize,
}

impl Tablebase {
    /// No tables: every probe says [`ProbeError::TooManyPieces`].
    pub fn new() -> Tablebase {
        Tablebase::default()
    }

    /// The tables in every directory of `paths`, separated as in the
    /// system's PATH (`:` on Unix, `;` on Windows), as engines read their
    /// `SyzygyPath`. Empty entries are skipped.
    pub fn open(paths: &str) -> Result<Tablebase, TablebaseError> {
        let mut tables = Tablebase::new();
        for directory in std::env::split_paths(paths) {
            if !directory.as_os_str().is_empty() {
                tables.add_directory(&directory)?;
            }
        }
        Ok(tables)
    }

    /// Adds every table file in `directory` (not its subdirectories) and
    /// returns how many it found. Each file's size and magic number are
    /// checked now; the rest of it is read on first probe. On an error
    /// nothing from this directory is added.
    pub fn add_directory(&mut self, directory: impl AsRef<Path>) -> Result<usize, TablebaseError> {
        let directory = directory.as_ref();
        let listing = std::fs::read_dir(directory).map_err(|source| TablebaseError::Directory {
            path: directory.to_path_buf(),
            source,
        })?;
        let mut found = Vec::new();
        for entry in listing {
            let entry = entry.map_err(|source| TablebaseError::Directory {
                path: directory.to_path_buf(),
                source,
            })?;
            let path = entry.path();
            let Some(kind) = path
                .extension()
                .and_then(|e| e.to_str())
                .and_then(|e| match e {
                    "rtbw" => Some(TableKind::Wdl),
                    "rtbz" => Some(TableKind::Dtz),
                    _ => None,
                })
            else {
                continue;
            };
            let Some(name) = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(Material::from_name)
                .filter(Material::is_canonical)
                .and_then(TableName::new)
            else {
                continue;
            };
            if !path.is_file() {
                continue;
            }
            let bytes = bytes::Bytes::map(&path).map_err(|source| TablebaseError::Unreadable {
                path: path.clone(),
                source,
            })?;
            table::check_file(&bytes, kind == TableKind::Wdl).map_err(|c| {
                TablebaseError::Corrupt {
                    path: path.clone(),
                    problem: c.0,
                }
            })?;
            found.push(Entry {
                path,
                name,
                kind,
                table: OnceLock::new(),
            });
        }
        let count = found.len();
        for entry in found {
            let material = entry.name.material;
            if entry.kind == TableKind::Wdl {
                self.max_pieces = self.max_pieces.max(material.pieces());
            }
            let map = match entry.kind {
                TableKind::Wdl => &mut self.wdl,
                TableKind::Dtz => &mut self.dtz,
            };
            let entry = Arc::new(entry);
            map.insert(material, Arc::clone(&entry));
            map.insert(material.mirrored(), entry);
        }
        self.files += count;
        Ok(count)
    }

    /// The most pieces (kings included) of any WDL table loaded; 0 if none.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// How many table files (WDL and DTZ) were found.
    pub fn files(&self) -> usize {
        self.files
    }

    /// The table for the position's material, read on first use, and its
    /// file's path.
    fn table(&self, position: &crate::Position, wdl: bool) -> Result<(&Table, &Path), ProbeError> {
        let material = Material::of(position);
        let (map, kind) = if wdl {
            (&self.wdl, TableKind::Wdl)
        } else {
            (&self.dtz, TableKind::Dtz)
        };
        let entry = map.get(&material).ok_or_else(|| ProbeError::MissingTable {
            name: if material.is_canonical() {
                material.name()
            } else {
                material.mirrored().name()
            },
            kind,
        })?;
        Ok((entry.get()?, &entry.path))
    }
}
