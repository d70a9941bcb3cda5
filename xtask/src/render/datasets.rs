//! The data-set blocks of `reports/nnue.md`, from the data-set records
//! (`reports/data/dataset-*.json`, [`crate::record::datasets`]):
//!
//! * `datasets.table`: one row per set (command, the commit whose engine
//!   played it, its evaluation, games, scored plies, positions the trainer
//!   keeps, results, compressed size, record) and a total row.
//! * `datasets.value FIELD`: one figure inline: `games`, `scored`,
//!   `positions` (totals over every set), `xz` (the compressed files
//!   together), `sets` (how many), `repository` (the repository's object
//!   store when the newest record was written) or `last` (that record's
//!   set).

use std::fmt::Write as _;

use super::format::{human_bytes, record_link};
use crate::record::datasets::{DatasetRecord, listed_sha256};
use crate::util::Result;

/// The block `name` with `args`, or `None` when the name is not a
/// data-set block.
pub fn block(
    name: &str,
    args: &[&str],
    sets: &[(String, DatasetRecord)],
    page: &str,
) -> Option<Result<String>> {
    match name {
        "datasets.table" => Some(table(sets, page)),
        "datasets.value" => Some(match args {
            [field] => value(sets, field),
            _ => Err("datasets.value wants one FIELD".into()),
        }),
        _ => None,
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn short(hash: &str) -> &str {
    hash.get(..7).unwrap_or(hash)
}

fn table(sets: &[(String, DatasetRecord)], page: &str) -> Result<String> {
    if sets.is_empty() {
        return Err("no dataset-*.json record in reports/data/".into());
    }
    let mut out = String::from(
        "| Set | Command | Engine | Evaluation playing | Games | Scored plies | Positions kept | White wins / draws / Black wins | File (xz) | Record |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    for (file, r) in sets {
        let _ = writeln!(
            out,
            "| {} | `{}` | `{}` | {} | {} | {} | {} | {} / {} / {} | `{}` ({}) | {} |",
            r.name,
            r.command,
            short(&r.engine_commit),
            r.evaluation,
            thousands(r.games),
            thousands(r.scored_plies),
            thousands(r.positions),
            thousands(r.results.white_wins),
            thousands(r.results.draws),
            thousands(r.results.black_wins),
            r.file,
            human_bytes(r.xz_bytes),
            record_link(page, file),
        );
    }
    let sum = |f| total(sets, f);
    let _ = writeln!(
        out,
        "| **all {}** | | | | {} | {} | {} | | {} | |",
        sets.len(),
        thousands(sum(|r| r.games)),
        thousands(sum(|r| r.scored_plies)),
        thousands(sum(|r| r.positions)),
        human_bytes(sum(|r| r.xz_bytes)),
    );
    Ok(out)
}

/// `field` of every set, added up.
fn total(sets: &[(String, DatasetRecord)], field: fn(&DatasetRecord) -> u64) -> u64 {
    sets.iter().map(|(_, r)| field(r)).sum()
}

fn value(sets: &[(String, DatasetRecord)], field: &str) -> Result<String> {
    let sum = |f| total(sets, f);
    let newest = || {
        sets.iter()
            .map(|(_, r)| r)
            .max_by(|a, b| a.recorded_utc.cmp(&b.recorded_utc))
            .ok_or_else(|| "no dataset-*.json record in reports/data/".to_string())
    };
    Ok(match field {
        "games" => thousands(sum(|r| r.games)),
        "scored" => thousands(sum(|r| r.scored_plies)),
        "positions" => thousands(sum(|r| r.positions)),
        "xz" => human_bytes(sum(|r| r.xz_bytes)),
        "sets" => sets.len().to_string(),
        "repository" => human_bytes(newest()?.repository_bytes),
        "last" => newest()?.name.clone(),
        other => {
            return Err(format!(
                "no datasets field '{other}' (games, scored, positions, xz, sets, repository, last)"
            ));
        }
    })
}

/// Where a data-set record no longer describes the committed data: its
/// compressed file missing or of another size, or its checksum not the one
/// `data/SHA256SUMS` lists (one line each; `report --check` fails on any).
pub fn stale(sets: &[(String, DatasetRecord)], root: &std::path::Path) -> Vec<String> {
    let sums = std::fs::read_to_string(root.join("data/SHA256SUMS")).unwrap_or_default();
    let mut problems = Vec::new();
    for (file, r) in sets {
        match std::fs::metadata(root.join(&r.file)) {
            Ok(m) if m.len() == r.xz_bytes => {}
            Ok(m) => problems.push(format!(
                "reports/data/{file}: {} is {} bytes, the record says {}",
                r.file,
                m.len(),
                r.xz_bytes
            )),
            Err(e) => problems.push(format!("reports/data/{file}: {}: {e}", r.file)),
        }
        let unpacked = r.file.trim_end_matches(".xz");
        if listed_sha256(&sums, unpacked) != Some(r.sha256.as_str()) {
            problems.push(format!(
                "reports/data/{file}: data/SHA256SUMS has no line '{}  {unpacked}'",
                r.sha256
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(2449277), "2,449,277");
    }

    #[test]
    fn unknown_fields_and_no_records_are_errors() {
        assert!(value(&[], "sideways").is_err());
        assert!(table(&[], "reports/nnue.md").is_err());
        assert!(block("datasets.value", &[], &[], "reports/nnue.md").is_some_and(|r| r.is_err()));
        assert!(block("matches.table", &[], &[], "reports/nnue.md").is_none());
    }
}
