//! Data-set records (`reports/data/dataset-<set>.json`): what one
//! self-play set under `data/` holds (games, scored plies, the positions
//! the trainer keeps after filtering, results), how it is stored (bytes
//! unpacked and compressed, the checksum `data/SHA256SUMS` lists) and how
//! it was made (the `quince datagen` command and the commit whose engine
//! played it, and, where one run played it whole, how long it took).
//! `cargo run -p xtask -- dataset` writes one; the data-set
//! table and the data volume in `reports/nnue.md` are rendered from them.

use serde::{Deserialize, Serialize};

use crate::measure::host::Host;

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
    /// The committed, compressed file: `data/s8.qdg.xz` (the games file
    /// itself), or for later sets `data/s30.qdp.xz` (its packed form,
    /// `quince pack`, about 40 % smaller).
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
    /// Size of the committed `.xz` file.
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
    /// games, which earlier sets did not record; `tools/dataset-sets.sh`
    /// writes the record on the machine that played the set).
    pub host: Host,
    /// How long the set took to play, where one `datagen` run played it
    /// from its first game to its last (none for sets finished over
    /// several runs, or made before this was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<Generation>,
}

/// The wall time of the one `datagen` run that played a whole set, as its
/// closing line reports it.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct Generation {
    /// Wall-clock seconds from the first game to the last.
    pub seconds: f64,
    /// Games played at once (`datagen --threads`; one per core).
    pub threads: u64,
}

impl Generation {
    /// Core-hours the set cost: wall time times threads.
    pub fn core_hours(&self) -> f64 {
        self.seconds * self.threads as f64 / 3600.0
    }
}

/// The checksum `data/SHA256SUMS` (its text `sums`) lists for `path`
/// (`data/s8.qdg`), if any: `sha256sum`'s lines, sum, two spaces, path.
pub fn listed_sha256<'a>(sums: &'a str, path: &str) -> Option<&'a str> {
    sums.lines().find_map(|line| {
        let (sum, listed) = line.split_once("  ")?;
        (listed == path).then_some(sum)
    })
}

/// The `.qdg` file a committed set file gives back (`data/s8.qdg.xz` and
/// `data/s30.qdp.xz` give `data/s8.qdg` and `data/s30.qdg`): the path its
/// checksum is listed under in `data/SHA256SUMS`.
pub fn unpacked_name(committed: &str) -> String {
    let stem = committed.trim_end_matches(".xz");
    match stem.strip_suffix(".qdp") {
        Some(base) => format!("{base}.qdg"),
        None => stem.to_string(),
    }
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

    #[test]
    fn committed_files_name_the_games_file_they_give_back() {
        assert_eq!(unpacked_name("data/s8.qdg.xz"), "data/s8.qdg");
        assert_eq!(unpacked_name("data/s30.qdp.xz"), "data/s30.qdg");
    }

    #[test]
    fn checksums_are_found_by_their_exact_path() {
        let sums = "aa  data/s1.qdg\nbb  data/s10.qdg\n";
        assert_eq!(listed_sha256(sums, "data/s1.qdg"), Some("aa"));
        assert_eq!(listed_sha256(sums, "data/s10.qdg"), Some("bb"));
        assert_eq!(listed_sha256(sums, "data/s2.qdg"), None);
    }
}
