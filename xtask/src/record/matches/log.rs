//! Reading the two games log formats (`pairs` and `text`, described in
//! the parent module): each gives the pairs of games with their counts.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{Engine, Tally};
use crate::util::Result;

/// One pair of games as the log has it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pair {
    pub index: u32,
    pub opening: Option<u32>,
    pub tally: Tally,
    /// The header segment this pair names (logs since the headers).
    pub segment: Option<usize>,
}

#[derive(Deserialize)]
struct PairLine {
    pair: u32,
    #[serde(default)]
    opening: Option<String>,
    games: Vec<GameLine>,
    #[serde(default)]
    events: BTreeMap<String, BTreeMap<String, u32>>,
    #[serde(default)]
    finished: Option<f64>,
    #[serde(default)]
    segment: Option<usize>,
    #[serde(default)]
    nps: BTreeMap<String, f64>,
}

#[derive(Deserialize)]
struct GameLine {
    a_white: bool,
    result: String,
    termination: String,
}

/// A's points for a result from White's view.
fn a_points(result: &str, a_white: bool) -> Result<f64> {
    let white = match result {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        other => return Err(format!("unknown result {other:?}")),
    };
    Ok(if a_white { white } else { 1.0 - white })
}

/// The opening number at the end of a label such as `openings.epd:17`.
fn opening_number(label: &str) -> Option<u32> {
    label.rsplit_once(':').and_then(|(_, n)| n.parse().ok())
}

fn role_index(role: &str) -> Option<usize> {
    match role {
        "A" => Some(0),
        "B" => Some(1),
        _ => None,
    }
}

/// Adds one game (A's points) to a tally.
fn add_game(t: &mut Tally, points: f64, termination: &str) {
    let slot = if points == 1.0 {
        0
    } else if points == 0.5 {
        1
    } else {
        2
    };
    t.wdl[slot] += 1;
    *t.terminations.entry(termination.to_string()).or_default() += 1;
}

/// The pairs of a `tools/match.py` state file.
pub fn parse_pairs(log: &str) -> Result<Vec<Pair>> {
    let mut pairs = Vec::new();
    for (number, line) in log.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let p: PairLine =
            serde_json::from_str(line).map_err(|e| format!("line {}: {e}", number + 1))?;
        let mut t = Tally::default();
        let mut points = 0.0;
        for g in &p.games {
            let a =
                a_points(&g.result, g.a_white).map_err(|e| format!("line {}: {e}", number + 1))?;
            points += a;
            add_game(&mut t, a, &g.termination);
        }
        if p.games.len() == 2 {
            t.ptnml[(points * 2.0).round() as usize] += 1;
        }
        for (event, roles) in &p.events {
            for (role, &n) in roles {
                let Some(i) = role_index(role) else { continue };
                match event.as_str() {
                    "time_losses" => t.time_losses[i] += n,
                    "illegal" => t.illegal_moves[i] += n,
                    "crashes" => t.crashes[i] += n,
                    "hangs" => t.hangs[i] += n,
                    _ => {}
                }
            }
        }
        for (role, &v) in &p.nps {
            if let Some(i) = role_index(role) {
                t.nps_sum[i] += v;
                t.nps_n[i] += 1;
            }
        }
        t.first_finished = p.finished;
        t.last_finished = p.finished;
        let opening = p.opening.as_deref().and_then(opening_number);
        t.openings = opening.map(|n| (n, n));
        t.pair_indices = vec![p.pair];
        pairs.push(Pair {
            index: p.pair,
            opening,
            tally: t,
            segment: p.segment,
        });
    }
    Ok(pairs)
}

/// One game line of the first runner's log.
struct TextGame {
    number: u32,
    white: String,
    black: String,
    result: String,
    termination: String,
}

fn parse_text_game(line: &str) -> Option<TextGame> {
    let rest = line.strip_prefix("game")?.trim_start();
    let (numbers, rest) = rest.split_once(": ")?;
    let number = numbers.split('/').next()?.trim().parse().ok()?;
    let (at, result) = ["1-0", "0-1", "1/2-1/2"]
        .iter()
        .filter_map(|r| rest.find(&format!(" {r} (")).map(|i| (i, *r)))
        .min()?;
    let (white, black) = rest[..at].split_once(" - ")?;
    let after = &rest[at + result.len() + 3..];
    let inside = &after[..after.find(')')?];
    let (_opening, termination) = inside.rsplit_once(", ")?;
    Some(TextGame {
        number,
        white: white.to_string(),
        black: black.to_string(),
        result: result.to_string(),
        termination: termination.to_string(),
    })
}

/// The games of the first runner's text log, as pairs (games 2k-1 and 2k
/// share an opening with colours swapped). Engine A is the one whose name
/// is `a`'s label or `id name`.
pub fn parse_text(log: &str, a: &Engine) -> Result<Vec<Pair>> {
    let is_a = |name: &str| name == a.label || a.id_name.as_deref() == Some(name);
    let mut pairs: Vec<Pair> = Vec::new();
    for (number, line) in log.lines().enumerate() {
        if !line.starts_with("game ") {
            continue;
        }
        let g =
            parse_text_game(line).ok_or_else(|| format!("line {}: not a game line", number + 1))?;
        let a_white = if is_a(&g.white) {
            true
        } else if is_a(&g.black) {
            false
        } else {
            return Err(format!(
                "line {}: neither {:?} nor {:?} is engine A ({:?})",
                number + 1,
                g.white,
                g.black,
                a.label
            ));
        };
        let points = a_points(&g.result, a_white)?;
        let index = (g.number - 1) / 2;
        if pairs.last().is_none_or(|p| p.index != index) {
            pairs.push(Pair {
                index,
                tally: Tally {
                    pair_indices: vec![index],
                    ..Tally::default()
                },
                ..Pair::default()
            });
        }
        let pair = pairs.last_mut().expect("pushed above");
        let t = &mut pair.tally;
        add_game(t, points, &g.termination);
        if g.termination.starts_with("time forfeit") && points == 0.0 {
            t.time_losses[0] += 1;
        } else if g.termination.starts_with("time forfeit") {
            t.time_losses[1] += 1;
        }
        if g.termination == "illegal move" {
            t.illegal_moves[if points == 0.0 { 0 } else { 1 }] += 1;
        }
    }
    // Pentanomial counts only for whole pairs.
    for p in &mut pairs {
        if p.tally.games() == 2 {
            let points = p.tally.wdl[0] as f64 + p.tally.wdl[1] as f64 / 2.0;
            p.tally.ptnml[(points * 2.0).round() as usize] += 1;
        }
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_log_is_counted() {
        let log = r#"{"pair": 0, "opening": "openings.epd:1", "games": [{"a_white": true, "result": "1-0", "termination": "adjudication (resign)"}, {"a_white": false, "result": "1/2-1/2", "termination": "threefold_repetition"}], "events": {}, "finished": 1795638783.3}

{"pair": 1, "opening": "openings.epd:2", "games": [{"a_white": true, "result": "0-1", "termination": "time forfeit"}, {"a_white": false, "result": "0-1", "termination": "checkmate"}], "events": {"time_losses": {"A": 1}}, "finished": 1795638797.4, "segment": 1, "nps": {"A": 2000000, "B": 1000000}}
"#;
        let pairs = parse_pairs(log).unwrap();
        assert_eq!(pairs.len(), 2);
        assert_eq!(pairs[0].tally.wdl, [1, 1, 0]);
        assert_eq!(pairs[0].tally.ptnml, [0, 0, 0, 1, 0]);
        assert_eq!(pairs[1].tally.wdl, [1, 0, 1]);
        assert_eq!(pairs[1].tally.ptnml, [0, 0, 1, 0, 0]);
        assert_eq!(pairs[1].tally.time_losses, [1, 0]);
        assert_eq!(pairs[1].segment, Some(1));
        assert_eq!(pairs[1].opening, Some(2));
        assert_eq!(pairs[1].tally.nps_n, [1, 1]);
        assert!(parse_pairs("{\"pair\": 0}\n").is_err());
    }

    fn engine(label: &str) -> Engine {
        Engine {
            label: label.into(),
            path: None,
            protocol: None,
            id_name: None,
            commit: None,
            sha256: None,
            options: BTreeMap::new(),
        }
    }

    #[test]
    fn text_log_is_counted() {
        let log = "\
 20:01:56 up  4:04,  0 user,  load average: 4.11, 3.82, 3.19
game   1/20: Quince 0.1.0 - Stockfish 15.1 UCI_Elo 2000 1-0 (Italian, time forfeit)   Quince 0.1.0: +1 =0 -0
game   2/20: Stockfish 15.1 UCI_Elo 2000 - Quince 0.1.0 1/2-1/2 (Italian, threefold_repetition)   Quince 0.1.0: +1 =1 -0
game   3/20: Quince 0.1.0 - Stockfish 15.1 UCI_Elo 2000 0-1 (Queen's Gambit Declined, checkmate)   Quince 0.1.0: +1 =1 -1

Quince 0.1.0 vs Stockfish 15.1 UCI_Elo 2000, 3 games at 10+0.1
W/D/L: 1/1/1  score 50.0 %
";
        let pairs = parse_text(log, &engine("Quince 0.1.0")).unwrap();
        assert_eq!(pairs.len(), 2);
        assert_eq!(pairs[0].tally.wdl, [1, 1, 0]);
        assert_eq!(pairs[0].tally.ptnml, [0, 0, 0, 1, 0]);
        assert_eq!(pairs[0].tally.time_losses, [0, 1]);
        assert_eq!(pairs[1].tally.wdl, [0, 0, 1]);
        assert_eq!(
            pairs[1].tally.ptnml, [0; 5],
            "half a pair has no pentanomial count"
        );
        assert_eq!(pairs[1].tally.terminations["checkmate"], 1);
        assert!(parse_text(log, &engine("Quince 9")).is_err());
    }
}
