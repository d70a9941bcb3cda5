//! `quince perft work --resume FILE`: a long run of work units that an
//! interruption costs one unit, not the whole run.
//!
//! The results go to FILE (appended) instead of stdout, and the units
//! whose results FILE already holds are skipped. A deep count such as
//! perft(11) on one machine is then one `work` process whose hash table
//! stays warm from unit to unit (neighbouring units share many
//! transpositions), killed and started again at will: the same command
//! line goes on where the last run stopped. Results are written one whole
//! line at a time; a last line without its newline (a write cut short,
//! say by a power loss) is dropped, and its unit counted again.

use crate::UserError;
use serde_json::Value;
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom};

/// The results file of a resumable run: which units it holds, and the
/// file itself, open for appending after the last whole line.
pub struct ResumeFile {
    /// `(split, unit)` of every result already in the file.
    done: HashSet<(String, u64)>,
    /// The file, positioned at its end.
    pub file: File,
}

impl ResumeFile {
    /// Opens (or creates) `path` for the units of the splits in `splits`.
    /// A result of another split is refused: appended to, the file would
    /// mix two runs, which `merge` rejects only at the very end.
    pub fn open(path: &str, splits: &HashSet<String>) -> Result<ResumeFile, UserError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(UserError(format!("cannot read '{path}': {e}"))),
        };
        let mut keep = text.len();
        if !text.is_empty() && !text.ends_with('\n') {
            keep = text.rfind('\n').map_or(0, |i| i + 1);
            eprintln!(
                "note: '{path}': its last line is unfinished (an interrupted write); \
                 dropped, and that unit is counted again"
            );
        }
        let mut done = HashSet::new();
        for (number, line) in text[..keep].lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = format!("{path}:{}", number + 1);
            let value: Value = serde_json::from_str(line)
                .map_err(|e| UserError(format!("{at}: not a JSON line: {e}")))?;
            let unit = value["unit"]
                .as_u64()
                .ok_or_else(|| UserError(format!("{at}: not a result line (no 'unit')")))?;
            if value["nodes"].as_u64().is_none() {
                return Err(UserError(format!("{at}: not a result line (no 'nodes')")));
            }
            let split = value["split"].as_str().unwrap_or_default().to_owned();
            if !splits.contains(&split) {
                return Err(UserError(format!(
                    "{at}: a result of another split ('{split}'); resume into a new file"
                )));
            }
            if !done.insert((split, unit)) {
                return Err(UserError(format!("{at}: unit {unit} appears twice")));
            }
        }
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(|e| UserError(format!("cannot write '{path}': {e}")))?;
        let io = |e: std::io::Error| UserError(format!("cannot write '{path}': {e}"));
        file.set_len(keep as u64).map_err(io)?;
        file.seek(SeekFrom::End(0)).map_err(io)?;
        Ok(ResumeFile { done, file })
    }

    /// Whether the result of unit `unit` of split `split` is in the file.
    pub fn has(&self, split: &str, unit: u64) -> bool {
        self.done.contains(&(split.to_owned(), unit))
    }
}
