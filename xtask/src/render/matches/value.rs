//! `matches.value`: one figure of a record inline.

use std::collections::BTreeMap;

use super::cells::{day, elo_text, host_label, nps, options, percent, ptnml, short, signed, wdl};
use crate::record::matches::MatchRecord;
use crate::util::Result;

/// The fields `matches.value` knows.
pub const FIELDS: &[&str] = &[
    "games",
    "pairs",
    "wins",
    "draws",
    "losses",
    "wdl",
    "score",
    "pentanomial",
    "elo",
    "elo_estimate",
    "elo_margin",
    "elo_low",
    "elo_high",
    "elo_trinomial",
    "llr",
    "verdict",
    "bounds",
    "time_losses",
    "illegal_moves",
    "crashes",
    "hangs",
    "endings",
    "nps_a",
    "nps_b",
    "tc",
    "date",
    "host",
    "hosts",
    "a",
    "b",
    "a_commit",
    "b_commit",
    "a_options",
    "b_options",
    "openings",
    "concurrency",
    "games_planned",
    "title",
    "outcome",
];

/// How the runner's terminations read in prose, singular and plural.
fn ending_words(termination: &str) -> (String, String) {
    let (one, many) = match termination {
        "adjudication (resign)" => (
            "resignation by adjudication",
            "resignations by adjudication",
        ),
        "adjudication (draw)" => ("draw by adjudication", "draws by adjudication"),
        "threefold_repetition" => ("threefold repetition", "threefold repetitions"),
        "fivefold_repetition" => ("fivefold repetition", "fivefold repetitions"),
        "fifty_moves" => ("fifty-move draw", "fifty-move draws"),
        "seventyfive_moves" => ("seventy-five-move draw", "seventy-five-move draws"),
        "checkmate" => ("mate", "mates"),
        "stalemate" => ("stalemate", "stalemates"),
        "insufficient_material" => (
            "draw by insufficient material",
            "draws by insufficient material",
        ),
        "time forfeit" => ("loss on time", "losses on time"),
        "time forfeit (engine hung)" => ("loss by a hung engine", "losses by a hung engine"),
        "illegal move" => ("illegal move", "illegal moves"),
        "engine error" => ("loss by an engine error", "losses by an engine error"),
        other => (other, other),
    };
    (one.to_string(), many.to_string())
}

fn endings(t: &BTreeMap<String, u32>) -> String {
    let mut items: Vec<(&String, &u32)> = t.iter().collect();
    items.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let words: Vec<String> = items
        .into_iter()
        .map(|(k, &n)| {
            let (one, many) = ending_words(k);
            format!("{n} {}", if n == 1 { one } else { many })
        })
        .collect();
    match words.len() {
        0 => "none".into(),
        1 => words[0].clone(),
        n => format!("{} and {}", words[..n - 1].join(", "), words[n - 1]),
    }
}

pub(super) fn value(args: &[&str], matches: &[MatchRecord]) -> Result<String> {
    let (name, field, host) = match args {
        [n, f] => (*n, *f, None),
        [n, f, h] => (
            *n,
            *f,
            Some(
                h.parse::<usize>()
                    .ok()
                    .filter(|&h| h >= 1)
                    .ok_or_else(|| format!("HOST must be a number from 1, got {h:?}"))?,
            ),
        ),
        _ => return Err("usage: matches.value RECORD FIELD [HOST]".into()),
    };
    let r = super::named(matches, name)?;
    let hosts = r.by_host();
    let (host, s) = match host {
        None => (None, r.results.overall.clone()),
        Some(h) => {
            let (host, s) = hosts
                .get(h - 1)
                .ok_or_else(|| format!("{name} was played on {} host(s), not {h}", hosts.len()))?;
            (Some(host.clone()), s.clone())
        }
    };
    let t = &s.tally;
    let elo = || {
        s.elo
            .ok_or_else(|| "no Elo estimate (fewer than two pairs)".to_string())
    };
    let text = match field {
        "games" => t.games().to_string(),
        "pairs" => t.pairs().to_string(),
        "wins" => t.wdl[0].to_string(),
        "draws" => t.wdl[1].to_string(),
        "losses" => t.wdl[2].to_string(),
        "wdl" => wdl(&s),
        "score" => s.score.map(percent).ok_or("no games")?,
        "pentanomial" => ptnml(&s),
        "elo" => elo_text(&elo()?),
        "elo_estimate" => signed(elo()?.estimate, 1),
        "elo_margin" => format!("{:.1}", elo()?.margin),
        "elo_low" => signed(elo()?.estimate - elo()?.margin, 1),
        "elo_high" => signed(elo()?.estimate + elo()?.margin, 1),
        "elo_trinomial" => elo_text(&s.elo_trinomial.ok_or("no games")?),
        "llr" => signed(s.llr.ok_or_else(|| format!("{name} is not an SPRT"))?, 2),
        "verdict" => {
            let v = s.verdict.ok_or_else(|| format!("{name} is not an SPRT"))?;
            match s.approximate_verdict {
                Some(old) => format!(
                    "{} ({} only under the normal approximation)",
                    v.as_str(),
                    old.as_str()
                ),
                None => v.as_str().to_string(),
            }
        }
        "bounds" => r
            .sprt
            .as_ref()
            .map(|b| format!("[{}, {}]", b.elo0, b.elo1))
            .ok_or_else(|| format!("{name} is not an SPRT"))?,
        "time_losses" => (t.time_losses[0] + t.time_losses[1]).to_string(),
        "illegal_moves" => (t.illegal_moves[0] + t.illegal_moves[1]).to_string(),
        "crashes" => (t.crashes[0] + t.crashes[1]).to_string(),
        "hangs" => (t.hangs[0] + t.hangs[1]).to_string(),
        "endings" => endings(&t.terminations),
        "nps_a" => nps(s.nps(0).ok_or("nodes/s not logged")?),
        "nps_b" => nps(s.nps(1).ok_or("nodes/s not logged")?),
        "tc" => r.time_control.clone().ok_or("time control not recorded")?,
        "date" => day(&s, r),
        "host" => match host {
            Some(h) => host_label(h.as_ref()),
            None if hosts.len() == 1 => host_label(hosts[0].0.as_ref()),
            None => {
                return Err(format!(
                    "{name} was played on {} hosts: give HOST",
                    hosts.len()
                ));
            }
        },
        "hosts" => {
            let parts: Vec<String> = hosts
                .iter()
                .map(|(h, s)| format!("{} games on {}", s.tally.games(), host_label(h.as_ref())))
                .collect();
            parts.join(" and ")
        }
        "a" => r.engines.a.label.clone(),
        "b" => r.engines.b.label.clone(),
        "a_commit" => short(
            r.engines
                .a
                .commit
                .as_deref()
                .ok_or("A's commit not recorded")?,
        )
        .into(),
        "b_commit" => short(
            r.engines
                .b
                .commit
                .as_deref()
                .ok_or("B's commit not recorded")?,
        )
        .into(),
        "a_options" => options(&r.engines.a),
        "b_options" => options(&r.engines.b),
        "openings" => match (&r.openings, t.openings) {
            (Some(o), Some((lo, hi))) => format!(
                "{} {lo}-{hi}",
                o.file.as_deref().unwrap_or("the built-in lines")
            ),
            (Some(o), None) => o
                .file
                .clone()
                .unwrap_or_else(|| "the built-in lines".into()),
            (None, _) => return Err("openings not recorded".into()),
        },
        "concurrency" => r
            .concurrency
            .ok_or("games at once not recorded")?
            .to_string(),
        "games_planned" => r.games_planned.ok_or("not recorded")?.to_string(),
        "title" => r.title.clone().ok_or("no title")?,
        "outcome" => r.outcome.clone().ok_or("no outcome")?,
        other => {
            return Err(format!(
                "unknown field {other:?} (one of {})",
                FIELDS.join(", ")
            ));
        }
    };
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::matches::block;
    use crate::render::matches::fixtures::{an_sprt, v4};

    #[test]
    fn values_inline() {
        let records = [v4(), an_sprt()];
        let v = |args: &[&str]| block("matches.value", args, &records).unwrap();
        let name = "quince-nnue4-stockfish2400-200";
        assert_eq!(v(&[name, "score"]).unwrap(), "52.75 %");
        assert_eq!(v(&[name, "score", "1"]).unwrap(), "54.1 %");
        assert_eq!(v(&[name, "games", "2"]).unwrap(), "42");
        assert_eq!(v(&[name, "elo"]).unwrap(), "+19.1 ± 40.3");
        assert_eq!(v(&[name, "elo_low"]).unwrap(), "-21.1");
        assert_eq!(v(&[name, "wdl"]).unwrap(), "76 / 59 / 65");
        assert_eq!(
            v(&[name, "endings", "2"]).unwrap(),
            "30 resignations by adjudication, 11 threefold repetitions and 1 mate"
        );
        assert!(
            v(&[name, "hosts"])
                .unwrap()
                .starts_with("158 games on Intel")
        );
        assert!(v(&[name, "host"]).is_err(), "two hosts: which one?");
        assert!(v(&[name, "score", "3"]).is_err());
        assert!(v(&[name, "llr"]).is_err());
        assert!(v(&[name, "bogus"]).is_err());
        assert!(v(&["nope", "score"]).is_err());
        let sprt = "sprt-7055d2f-vs-a83f0b6";
        assert_eq!(v(&[sprt, "llr"]).unwrap(), "+2.80");
        assert_eq!(
            v(&[sprt, "verdict"]).unwrap(),
            "open (H1 only under the normal approximation)"
        );
        assert_eq!(v(&[sprt, "bounds"]).unwrap(), "[0, 10]");
        assert_eq!(v(&[sprt, "a_commit"]).unwrap(), "7055d2f");
    }

    #[test]
    fn endings_read_as_prose() {
        let mut t = BTreeMap::new();
        assert_eq!(endings(&t), "none");
        t.insert("fifty_moves".to_string(), 1);
        assert_eq!(endings(&t), "1 fifty-move draw");
        t.insert("adjudication (draw)".to_string(), 17);
        assert_eq!(
            endings(&t),
            "17 draws by adjudication and 1 fifty-move draw"
        );
    }
}
