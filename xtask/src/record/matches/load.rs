//! Reading the records and their logs: each record with the figures of
//! its games log, over all its pairs and per segment.

use std::fs;
use std::path::{Path, PathBuf};

use super::log::{Pair, parse_pairs, parse_text};
use super::{
    FORMAT_VERSION, LogFormat, MatchRecord, Results, Segment, SegmentResult, Stats, Tally,
};
use crate::util::Result;

/// Every match record under `dir` (`match-*.json`), each with the figures
/// of its games log, ordered by file name.
pub fn load(dir: &Path) -> Result<Vec<MatchRecord>> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", dir.display())),
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("match-") && n.ends_with(".json"))
        })
        .collect();
    paths.sort();
    paths.iter().map(|p| load_one(p)).collect()
}

/// One record and its log.
pub fn load_one(path: &Path) -> Result<MatchRecord> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut record: MatchRecord =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if record.format_version > FORMAT_VERSION {
        return Err(format!(
            "{}: format_version {} is newer than this reader ({FORMAT_VERSION})",
            path.display(),
            record.format_version
        ));
    }
    let file = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_string();
    record.name = file
        .trim_start_matches("match-")
        .trim_end_matches(".json")
        .to_string();
    record.file = file;
    let log_path = find_log(path, &record.games_log)?;
    let log = fs::read_to_string(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    let pairs = match record.log_format {
        LogFormat::Pairs => parse_pairs(&log),
        LogFormat::Text => parse_text(&log, &record.engines.a),
    }
    .map_err(|e| format!("{}: {e}", log_path.display()))?;
    record.results = results(&record, &pairs);
    Ok(record)
}

/// The games log named `relative` (to the repository root): looked up
/// from each directory above the record.
fn find_log(record: &Path, relative: &str) -> Result<PathBuf> {
    let rel = Path::new(relative);
    if rel.is_absolute() {
        return Ok(rel.to_path_buf());
    }
    record
        .ancestors()
        .skip(1)
        .map(|dir| dir.join(rel))
        .find(|p| p.is_file())
        .ok_or_else(|| format!("{}: games log {relative} not found", record.display()))
}

/// Which segment a pair belongs to: the one it names, else the one whose
/// ranges hold it, else the one without ranges; `segments.len()` for none.
pub fn segment_of(segments: &[Segment], pair: &Pair) -> usize {
    if let Some(k) = pair.segment.filter(|&k| k < segments.len()) {
        return k;
    }
    if let Some(k) = segments.iter().position(|s| {
        s.pairs
            .as_ref()
            .is_some_and(|r| r.iter().any(|[lo, hi]| (*lo..=*hi).contains(&pair.index)))
    }) {
        return k;
    }
    segments
        .iter()
        .position(|s| s.pairs.is_none())
        .unwrap_or(segments.len())
}

fn results(record: &MatchRecord, pairs: &[Pair]) -> Results {
    let per_game = record.log_format == LogFormat::Text;
    let sprt = record.sprt.as_ref();
    let n = record.segments.len();
    let mut tallies = vec![Tally::default(); n + 1];
    let mut overall = Tally::default();
    for p in pairs {
        tallies[segment_of(&record.segments, p)].add(&p.tally);
        overall.add(&p.tally);
    }
    let mut segments: Vec<SegmentResult> = record
        .segments
        .iter()
        .zip(&tallies)
        .map(|(s, t)| SegmentResult {
            host: s.host.clone(),
            source: s.source.clone(),
            stats: Stats::from_tally(t.clone(), per_game, sprt),
        })
        .collect();
    if tallies[n].games() > 0 {
        segments.push(SegmentResult {
            host: None,
            source: None,
            stats: Stats::from_tally(tallies[n].clone(), per_game, sprt),
        });
    }
    Results {
        overall: Stats::from_tally(overall, per_game, sprt),
        segments,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::matches::Host;
    use crate::record::matches::results::Verdict;

    fn segment(pairs: Option<Vec<[u32; 2]>>, family: Option<u32>) -> Segment {
        Segment {
            host: family.map(|f| Host {
                cpu_vendor: Some("AuthenticAMD".into()),
                cpu_family: Some(f),
                cpu_model: None,
                cpu_stepping: None,
                cpu_model_name: None,
                microarchitecture: None,
                logical_cores: Some(2),
            }),
            pairs,
            started_utc: None,
            finished_utc: None,
            source: None,
        }
    }

    #[test]
    fn pairs_find_their_segment() {
        let segs = vec![
            segment(Some(vec![[0, 3], [7, 7]]), Some(26)),
            segment(None, Some(25)),
        ];
        let pair = |index, segment| Pair {
            index,
            segment,
            ..Pair::default()
        };
        assert_eq!(segment_of(&segs, &pair(2, None)), 0);
        assert_eq!(segment_of(&segs, &pair(7, None)), 0);
        assert_eq!(segment_of(&segs, &pair(5, None)), 1);
        assert_eq!(segment_of(&segs, &pair(2, Some(1))), 1);
        assert_eq!(segment_of(&segs, &pair(2, Some(9))), 0);
        assert_eq!(segment_of(&segs[..1], &pair(5, None)), 1);
        assert_eq!(segment_of(&[], &pair(5, None)), 0);
    }

    fn write(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    fn game(a_white: bool, result: &str) -> String {
        format!(r#"{{"a_white": {a_white}, "result": "{result}", "termination": "checkmate"}}"#)
    }

    #[test]
    fn load_reads_records_and_logs_per_host() {
        let root = std::env::temp_dir().join(format!("xtask-matches-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let mut log = String::new();
        for i in 0..6 {
            let (g1, g2) = if i < 4 {
                (game(true, "1-0"), game(false, "1/2-1/2"))
            } else {
                (game(true, "0-1"), game(false, "1-0"))
            };
            log += &format!(
                "{{\"pair\": {i}, \"opening\": \"openings.epd:{}\", \"games\": [{g1}, {g2}], \"events\": {{}}, \"finished\": {}}}\n",
                i + 1,
                1795638783 + i * 60
            );
        }
        write(&root.join("reports/sprt/x-vs-y.jsonl"), &log);
        let record = r#"{
  "format_version": 1, "kind": "sprt", "games_log": "reports/sprt/x-vs-y.jsonl",
  "engines": {"a": {"label": "new x"}, "b": {"label": "base y"}},
  "time_control": "2+0.02",
  "sprt": {"elo0": 0, "elo1": 10},
  "segments": [
    {"host": {"cpu_vendor": "GenuineIntel", "cpu_family": 6, "cpu_model": 167}, "pairs": [[0, 3]]},
    {"host": {"cpu_vendor": "AuthenticAMD", "cpu_family": 25, "cpu_model": 17}, "pairs": [[4, 4]]}
  ],
  "an_unknown_field": [1, 2]
}"#;
        write(&root.join("reports/data/match-sprt-x-vs-y.json"), record);
        write(&root.join("reports/data/peers-other.json"), "{}");
        let records = load(&root.join("reports/data")).unwrap();
        let _ = fs::remove_dir_all(&root);
        assert_eq!(records.len(), 1);
        let r = &records[0];
        assert_eq!(r.name, "sprt-x-vs-y");
        assert_eq!(r.file, "match-sprt-x-vs-y.json");
        assert_eq!(r.results.overall.tally.wdl, [4, 4, 4]);
        assert_eq!(r.results.overall.tally.ptnml, [2, 0, 0, 4, 0]);
        assert_eq!(r.results.overall.tally.openings, Some((1, 6)));
        assert_eq!(r.results.overall.verdict, Some(Verdict::Open));
        // Pair 5 is claimed by no segment: a third, host not recorded.
        assert_eq!(r.results.segments.len(), 3);
        assert_eq!(r.results.segments[0].stats.tally.wdl, [4, 4, 0]);
        assert_eq!(r.results.segments[1].stats.tally.wdl, [0, 0, 2]);
        assert!(r.results.segments[2].host.is_none());
        let hosts = r.by_host();
        assert_eq!(hosts.len(), 3);
        assert_eq!(r.day().as_deref(), Some("2026-11-25"));
        assert!(r.sort_key().starts_with("2026-11-25T20:33"));
    }

    #[test]
    fn load_without_directory_is_empty_and_a_missing_log_is_an_error() {
        let root =
            std::env::temp_dir().join(format!("xtask-matches-missing-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        assert!(load(&root.join("reports/data")).unwrap().is_empty());
        write(
            &root.join("reports/data/match-x.json"),
            r#"{"format_version": 1, "kind": "match", "games_log": "reports/nope.jsonl",
               "engines": {"a": {"label": "a"}, "b": {"label": "b"}}}"#,
        );
        let err = load(&root.join("reports/data")).unwrap_err();
        let _ = fs::remove_dir_all(&root);
        assert!(err.contains("reports/nope.jsonl"), "{err}");
    }
}
