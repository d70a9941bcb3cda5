//! `matches.table`: one row per host of every selected match, and one
//! for all its games where it was played on several.

use std::fmt::Write as _;

use super::cells::{
    Notes, day, engine_cell, failures, host_label, percent, ptnml, record_link, signed,
    verdict_text, wdl,
};
use crate::record::matches::{MatchRecord, Stats};
use crate::util::Result;

/// One table row per host (and one for all games when there are several).
pub(super) fn rows(r: &MatchRecord) -> Vec<(String, Stats, bool)> {
    let hosts = r.by_host();
    let mut out: Vec<(String, Stats, bool)> = hosts
        .iter()
        .map(|(h, s)| (host_label(h.as_ref()), s.clone(), hosts.len() == 1))
        .collect();
    if hosts.len() > 1 {
        out.push((
            if hosts.len() == 2 {
                "both hosts".to_string()
            } else {
                format!("all {} hosts", hosts.len())
            },
            r.results.overall.clone(),
            true,
        ));
    }
    if out.is_empty() {
        out.push(("–".into(), r.results.overall.clone(), true));
    }
    out
}

/// The sentence under a table with a Stockfish `UCI_Elo` opponent.
fn calibration(rs: &[&MatchRecord]) -> Option<String> {
    let mut tcs: Vec<&str> = rs
        .iter()
        .filter(|r| {
            [&r.engines.a, &r.engines.b]
                .iter()
                .any(|e| e.options.keys().any(|k| k.eq_ignore_ascii_case("UCI_Elo")))
        })
        .filter_map(|r| r.time_control.as_deref())
        .collect();
    if tcs.is_empty() {
        return None;
    }
    tcs.sort_unstable();
    tcs.dedup();
    Some(format!(
        "\nStockfish calibrates its `UCI_Elo` scale at 60+0.6 (its `src/search.cpp`: anchored \
         to CCRL Elo, Goldfish 1.13 = 2000, and fitted to match results at 60+0.6); the games \
         above were played at {}, so a `UCI_Elo` setting names an opponent here, not a rating at \
         this time control.\n",
        tcs.join(" and ")
    ))
}

pub(super) fn table(rs: &[&MatchRecord], titles: bool) -> Result<String> {
    let sprt = rs.iter().any(|r| r.sprt.is_some());
    let mut out = String::from(if titles { "| Test " } else { "" });
    let mut rule = String::from(if titles { "|---" } else { "" });
    out.push_str(
        "| Engine | Opponent | Time control | Games | W / D / L | Score | Pentanomial | Elo (95 %) |",
    );
    rule.push_str("|---|---|---|---|---|---|---|---|");
    if sprt {
        out.push_str(" LLR | Verdict |");
        rule.push_str("---|---|");
    }
    out.push_str(" Time losses / illegal moves / crashes | Host | Date | Record |\n");
    rule.push_str("---|---|---|---|\n");
    out.push_str(&rule);
    let mut notes = Notes::default();
    for r in rs {
        let mut engine = engine_cell(&r.engines.a);
        if r.discarded {
            engine.push_str(" (discarded run)");
        }
        for (host, s, whole) in rows(r) {
            if titles {
                let _ = write!(out, "| {} ", r.title.as_deref().unwrap_or("–"));
            }
            let _ = write!(
                out,
                "| {engine} | {} | {} | {} | {} | {} | {} | {} |",
                engine_cell(&r.engines.b),
                r.time_control.as_deref().unwrap_or("–"),
                s.tally.games(),
                wdl(&s),
                s.score.map(percent).unwrap_or_else(|| "–".into()),
                ptnml(&s),
                notes.elo(&s),
            );
            if sprt {
                match (whole, s.llr) {
                    (true, Some(llr)) => {
                        let _ = write!(out, " {} | {} |", signed(llr, 2), verdict_text(&s, r));
                    }
                    _ => out.push_str(" – | – |"),
                }
            }
            let _ = writeln!(
                out,
                " {} | {host} | {} | {} |",
                failures(&s, r),
                day(&s, r),
                record_link(r)
            );
        }
    }
    notes.write(&mut out);
    if let Some(c) = calibration(rs) {
        out.push_str(&c);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use crate::record::matches::{Segment, SegmentResult};
    use crate::render::matches::block;
    use crate::render::matches::fixtures::v4;

    #[test]
    fn a_match_on_two_hosts_has_a_row_for_each_and_one_for_all() {
        let records = [v4()];
        let out = block("matches.table", &["stockfish"], &records)
            .unwrap()
            .unwrap();
        let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("| Quince")).collect();
        assert_eq!(rows.len(), 3, "{out}");
        assert!(
            rows[0].contains("| 158 | 62 / 47 / 49 | 54.1 % |") && rows[0].contains("Rocket Lake")
        );
        assert!(rows[1].contains("| 42 | 14 / 12 / 16 | 47.6 % |") && rows[1].contains("Zen 4"));
        assert!(
            rows[2].contains("| 200 | 76 / 59 / 65 | 52.75 % | 12 16 33 27 12 | +19.1 ± 40.3 |")
        );
        assert!(rows[2].contains("both hosts"));
        assert!(out.contains("`Move Overhead=100`, `UCI_Elo=2400`, `UCI_LimitStrength=true`"));
        assert!(out.contains("[match-quince-nnue4-stockfish2400-200.json](data/match-quince-nnue4-stockfish2400-200.json) (backfilled)"));
        assert!(
            out.contains("calibrates its `UCI_Elo` scale at 60+0.6")
                && out.contains("played at 10+0.1")
        );
        assert!(out.ends_with('\n'));
    }

    #[test]
    fn segments_without_games_are_not_rows() {
        let mut r = v4();
        r.results.segments.push(SegmentResult::default());
        r.segments.push(Segment {
            host: None,
            pairs: Some(vec![]),
            started_utc: None,
            finished_utc: None,
            source: None,
        });
        assert_eq!(r.by_host().len(), 2);
    }
}
