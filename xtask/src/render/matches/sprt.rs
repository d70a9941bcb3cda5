//! `matches.sprt`: the SPRT log, one row per host of every selected SPRT.

use std::fmt::Write as _;

use super::cells::{Notes, ptnml, record_link, short, signed, verdict_text, wdl};
use super::table::rows;
use crate::record::matches::MatchRecord;

pub(super) fn sprt_log(rs: &[&MatchRecord]) -> String {
    let bounds: Vec<String> = {
        let mut b: Vec<String> = rs
            .iter()
            .filter_map(|r| r.sprt.as_ref())
            .map(|s| format!("[{}, {}]", s.elo0, s.elo1))
            .collect();
        b.dedup();
        b
    };
    let llr_head = if bounds.len() == 1 {
        format!("LLR {}", bounds[0])
    } else {
        "LLR [elo0, elo1]".into()
    };
    let mut out = format!(
        "| Change | New vs base | Games | W / D / L | Pentanomial | Elo (95 %) | {llr_head} | Verdict | Host | Record |\n\
         |---|---|---|---|---|---|---|---|---|---|\n"
    );
    let mut notes = Notes::default();
    for r in rs {
        let change = r
            .title
            .clone()
            .unwrap_or_else(|| format!("{} vs {}", r.engines.a.label, r.engines.b.label));
        let commits = match (&r.engines.a.commit, &r.engines.b.commit) {
            (Some(a), Some(b)) if a == b => format!(
                "{} vs {} (both `{}`)",
                r.engines.a.label,
                r.engines.b.label,
                short(a)
            ),
            (Some(a), Some(b)) => format!("`{}` vs `{}`", short(a), short(b)),
            _ => format!("{} vs {}", r.engines.a.label, r.engines.b.label),
        };
        for (host, s, whole) in rows(r) {
            let (llr, verdict) = match (whole, s.llr) {
                (true, Some(llr)) => (signed(llr, 2), verdict_text(&s, r)),
                _ => ("–".into(), "–".into()),
            };
            let bounds = match (&r.sprt, bounds.len()) {
                (Some(b), n) if n > 1 => format!(" [{}, {}]", b.elo0, b.elo1),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "| {change} | {commits} | {} | {} | {} | {} | {llr}{bounds} | {verdict} | {host} | {} |",
                s.tally.games(),
                wdl(&s),
                ptnml(&s),
                notes.elo(&s),
                record_link(r)
            );
        }
    }
    notes.write(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use crate::render::matches::block;
    use crate::render::matches::fixtures::{an_sprt, v4};

    #[test]
    fn the_sprt_log_and_selectors() {
        let records = [v4(), an_sprt()];
        let out = block("matches.sprt", &[], &records).unwrap().unwrap();
        assert!(out.contains("| evaluation: NNUE v3 | `7055d2f` vs `a83f0b6` | 416 | 184 / 120 / 112 | 12 33 72 53 38 | +60.7 ± 27.3 | +2.80 | open (H1 only under the normal approximation): kept |"), "{out}");
        assert!(!out.contains("Stockfish"));
        let t = block("matches.table", &["kind:sprt", "titles"], &records)
            .unwrap()
            .unwrap();
        assert!(t.contains("| LLR | Verdict |") && !t.contains("calibrates"));
        assert!(
            t.starts_with("| Test | Engine |") && t.contains("| evaluation: NNUE v3 | new 7055d2f")
        );
        let both = block("matches.table", &["newest", "tc:10+0.1"], &records)
            .unwrap()
            .unwrap();
        assert!(!both.contains("LLR"));
        assert!(
            block("matches.table", &["vs:fairy"], &records)
                .unwrap()
                .is_err()
        );
        assert!(
            block("matches.table", &["bogus:1"], &records)
                .unwrap()
                .is_err()
        );
        let named = block(
            "matches.records",
            &[
                "name:sprt-7055d2f-vs-a83f0b6",
                "name:quince-nnue4-stockfish2400-200",
            ],
            &records,
        )
        .unwrap()
        .unwrap();
        let lines: Vec<&str> = named.lines().skip(2).collect();
        assert!(lines[0].contains("sprt-7055d2f") && lines[1].contains("nnue4"));
        assert!(lines[1].contains("B's binary hash") && !lines[1].contains("A's commit"));
    }
}
