//! The data-set blocks of `reports/nnue.md`, from the data-set records
//! (`reports/data/dataset-*.json`, [`crate::record::datasets`]):
//!
//! * `datasets.table`: one row per set (command, the commit whose engine
//!   played it, its evaluation, games, scored plies, positions the trainer
//!   keeps, split into those it trains on and those it holds out for
//!   validation, results, scored plies and kept positions per core-hour where
//!   the record has the set's generation time, compressed size, record)
//!   and a total row.
//! * `datasets.value FIELD`: one figure inline: `games`, `scored`,
//!   `positions` (kept: training and validation together), `training`,
//!   `validation` (totals over every set), `xz` (the compressed files
//!   together), `sets` (how many), `repository` (the repository's object
//!   store when the newest record was written) or `last` (that record's
//!   set); `rate` and `kept-rate`: scored plies and kept positions per
//!   core-hour over the sets with a generation time, `timed` (how many
//!   those are).

use std::fmt::Write as _;

use super::format::{human_bytes, human_rate, record_link};
use crate::record::datasets::{DatasetRecord, listed_sha256, unpacked_name};
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
        "| Set | Command | Engine | Evaluation playing | Games | Scored plies | Positions kept | of which training / validation | White wins / draws / Black wins | Per core-hour: scored / kept | File (xz) | Record |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for (file, r) in sets {
        let _ = writeln!(
            out,
            "| {} | `{}` | `{}` | {} | {} | {} | {} | {} / {} | {} / {} / {} | {} | `{}` ({}) | {} |",
            r.name,
            r.command,
            short(&r.engine_commit),
            r.evaluation,
            thousands(r.games),
            thousands(r.scored_plies),
            thousands(r.positions),
            thousands(training(r)),
            thousands(r.validation_positions),
            thousands(r.results.white_wins),
            thousands(r.results.draws),
            thousands(r.results.black_wins),
            rates([r]).unwrap_or_else(|| "–".into()),
            r.file,
            human_bytes(r.xz_bytes),
            record_link(page, file),
        );
    }
    let sum = |f| total(sets, f);
    let all_sets = rates(sets.iter().map(|(_, r)| r));
    let _ = writeln!(
        out,
        "| **all {}** | | | | {} | {} | {} | {} / {} | | {} | {} | |",
        sets.len(),
        thousands(sum(|r| r.games)),
        thousands(sum(|r| r.scored_plies)),
        thousands(sum(|r| r.positions)),
        thousands(sum(training)),
        thousands(sum(|r| r.validation_positions)),
        all_sets.map_or_else(|| "–".into(), |rate| format!("{rate} (timed sets)")),
        human_bytes(sum(|r| r.xz_bytes)),
    );
    Ok(out)
}

/// The positions of a set the trainer trains on: those kept, less those
/// of the games it holds out for validation.
pub(super) fn training(r: &DatasetRecord) -> u64 {
    r.positions.saturating_sub(r.validation_positions)
}

/// Scored plies and kept positions per core-hour over the `sets` whose
/// record has a generation time ("2.66 M / 1.96 M"), or `None` when none
/// has one.
fn rates<'a>(sets: impl IntoIterator<Item = &'a DatasetRecord>) -> Option<String> {
    let (scored, kept) = per_core_hour(sets)?;
    Some(format!("{} / {}", human_rate(scored), human_rate(kept)))
}

/// Scored plies and kept positions per core-hour over the timed `sets`.
fn per_core_hour<'a>(sets: impl IntoIterator<Item = &'a DatasetRecord>) -> Option<(f64, f64)> {
    let timed = sets
        .into_iter()
        .filter_map(|r| Some((r, r.generation?.core_hours())));
    let (mut scored, mut kept, mut hours) = (0u64, 0u64, 0.0);
    for (r, h) in timed {
        scored += r.scored_plies;
        kept += r.positions;
        hours += h;
    }
    (hours > 0.0).then(|| (scored as f64 / hours, kept as f64 / hours))
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
        "training" => thousands(sum(training)),
        "validation" => thousands(sum(|r| r.validation_positions)),
        "xz" => human_bytes(sum(|r| r.xz_bytes)),
        "sets" => sets.len().to_string(),
        "repository" => human_bytes(newest()?.repository_bytes),
        "last" => newest()?.name.clone(),
        "rate" | "kept-rate" => {
            let (scored, kept) = per_core_hour(sets.iter().map(|(_, r)| r))
                .ok_or_else(|| "no data-set record has a generation time".to_string())?;
            human_rate(if field == "rate" { scored } else { kept })
        }
        "timed" => sets
            .iter()
            .filter(|(_, r)| r.generation.is_some())
            .count()
            .to_string(),
        other => {
            return Err(format!(
                "no datasets field '{other}' (games, scored, positions, training, validation, xz, sets, repository, last, rate, kept-rate, timed)"
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
        let unpacked = unpacked_name(&r.file);
        if listed_sha256(&sums, &unpacked) != Some(r.sha256.as_str()) {
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

    /// A set of `scored` plies and `kept` positions, played in `seconds`
    /// on two threads where given.
    fn set(name: &str, scored: u64, kept: u64, seconds: Option<f64>) -> (String, DatasetRecord) {
        let generation = seconds.map_or(String::new(), |s| {
            format!(r#","generation":{{"seconds":{s},"threads":2}}"#)
        });
        let text = format!(
            r#"{{"kind":"dataset","name":"{name}","file":"data/{name}.qdg.xz","command":"c",
            "engine_commit":"b3b1e61","evaluation":"NNUE v8","games":10,"scored_plies":{scored},
            "positions":{kept},"validation_positions":0,
            "results":{{"white_wins":4,"draws":2,"black_wins":4}},"bytes":1,"xz_bytes":1,
            "sha256":"aa","recorded_utc":"2026-11-28T00:00:00Z","recorded_at":"x",
            "repository_bytes":1,"host":{{"cpu_model_name":"x","logical_cores":2,"bmi2":true,"avx2":true}}{generation}}}"#
        );
        let record = serde_json::from_str(&text).expect("a valid record");
        (format!("dataset-{name}.json"), record)
    }

    #[test]
    fn rates_count_only_the_timed_sets() {
        // 2.7 M plies in half an hour on two threads: 2.7 M per core-hour.
        let sets = [
            set("s1", 1_000_000, 900_000, None),
            set("s2", 2_700_000, 2_000_000, Some(1800.0)),
        ];
        assert_eq!(value(&sets, "rate").unwrap(), "2.70 M");
        assert_eq!(value(&sets, "kept-rate").unwrap(), "2.00 M");
        assert_eq!(value(&sets, "timed").unwrap(), "1");
        let table = table(&sets, "reports/nnue.md").unwrap();
        assert!(table.contains("| 4 / 2 / 4 | – |"), "{table}");
        assert!(table.contains("| 4 / 2 / 4 | 2.70 M / 2.00 M |"), "{table}");
        assert!(
            table.contains("| 2.70 M / 2.00 M (timed sets) |"),
            "{table}"
        );
        assert!(value(&sets[..1], "rate").is_err());
    }

    #[test]
    fn unknown_fields_and_no_records_are_errors() {
        assert!(value(&[], "sideways").is_err());
        assert!(table(&[], "reports/nnue.md").is_err());
        assert!(block("datasets.value", &[], &[], "reports/nnue.md").is_some_and(|r| r.is_err()));
        assert!(block("matches.table", &[], &[], "reports/nnue.md").is_none());
    }
}
