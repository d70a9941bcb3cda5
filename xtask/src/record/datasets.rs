//! Data-set records (`reports/data/dataset-<set>.json`): what one
//! self-play set under `data/` holds (games, scored plies, the positions
//! the trainer keeps after filtering, results), how it is stored (bytes
//! unpacked and compressed, the checksum `data/SHA256SUMS` lists) and how
//! it was made (the `quince datagen` command and the commit whose engine
//! played it). `cargo run -p xtask -- dataset` writes one; the data-set
//! table and the data volume in `reports/nnue.md` are rendered from them.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::measure::host::Host;
use crate::util::Result;

/// Game results as the trainer's `stats` counts them.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Results {
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
}

/// One data set.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct DatasetRecord {
    /// Always `"dataset"`.
    pub kind: String,
    /// The set's name (`s8`), which is the file's stem.
    pub name: String,
    /// The committed, compressed file (`data/s8.qdg.xz`).
    pub file: String,
    /// The `quince datagen` command that made it (the binary called
    /// `quince`).
    pub command: String,
    /// The full hash of the commit whose engine played the games.
    pub engine_commit: String,
    /// The evaluation that engine played with (`NNUE v6`).
    pub evaluation: String,
    pub games: u64,
    /// Plies with a search score (every move of a game after its opening).
    pub scored_plies: u64,
    /// Positions the trainer keeps after its filters (not in check, best
    /// move quiet, no mate score), training and validation together.
    pub positions: u64,
    /// Of `positions`, those of the games the trainer holds out for
    /// validation (every 20th game).
    pub validation_positions: u64,
    pub results: Results,
    /// Size of the unpacked `.qdg` file.
    pub bytes: u64,
    /// Size of the committed `.qdg.xz` file.
    pub xz_bytes: u64,
    /// SHA-256 of the unpacked file (the line of `data/SHA256SUMS`).
    pub sha256: String,
    /// When the record was written, ISO 8601 UTC, and the repository's
    /// commit then.
    pub recorded_utc: String,
    pub recorded_at: String,
    /// The repository's object store (`git count-objects -v`: packed and
    /// loose) when the record was written, in bytes.
    pub repository_bytes: u64,
    /// The machine the record was written on (not the one that played the
    /// games, which earlier sets did not record).
    pub host: Host,
}

/// Every `dataset-*.json` under `dir`, with its file name, in set order
/// (s1, s2, ..., s10: by the number in the name, then by name).
pub fn load(dir: &Path) -> Result<Vec<(String, DatasetRecord)>> {
    let mut out = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !(name.starts_with("dataset-") && name.ends_with(".json")) {
            continue;
        }
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let r: DatasetRecord =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if r.kind != "dataset" {
            return Err(format!("{name}: kind '{}', not 'dataset'", r.kind));
        }
        out.push((name, r));
    }
    out.sort_by_key(|(_, r)| set_order(&r.name));
    Ok(out)
}

/// Sort key of a set's name: its number (`s10` after `s9`), then the name.
pub fn set_order(name: &str) -> (u64, String) {
    let digits: String = name.chars().filter(char::is_ascii_digit).collect();
    (digits.parse().unwrap_or(u64::MAX), name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_sort_by_their_number() {
        let mut names = vec!["s10", "s2", "s1", "extra"];
        names.sort_by_key(|n| set_order(n));
        assert_eq!(names, ["s1", "s2", "s10", "extra"]);
    }
}
