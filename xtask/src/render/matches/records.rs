//! `matches.records`: the records themselves, with the facts each leaves
//! `null`.

use std::fmt::Write as _;

use super::cells::host_label;
use crate::record::matches::{Kind, MatchRecord, ranges};

/// Pair indices as the logs number them: "pairs 0-78, 80".
fn pairs_text(indices: &[u32]) -> String {
    let parts: Vec<String> = ranges(indices)
        .iter()
        .map(|[lo, hi]| {
            if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}-{hi}")
            }
        })
        .collect();
    match parts.as_slice() {
        [] => "no pairs".into(),
        [one] if !one.contains('-') => format!("pair {one}"),
        _ => format!("pairs {}", parts.join(", ")),
    }
}

/// The facts a record leaves `null`.
fn unknowns(r: &MatchRecord) -> Vec<String> {
    let mut out = Vec::new();
    for (role, e) in [("A", &r.engines.a), ("B", &r.engines.b)] {
        let quince = e.label.to_lowercase().contains("quince")
            || e.id_name
                .as_deref()
                .is_some_and(|n| n.to_lowercase().contains("quince"))
            || e.path.as_deref().is_some_and(|p| p.contains("target/"));
        if quince && e.commit.is_none() {
            out.push(format!("{role}'s commit"));
        }
        if e.sha256.is_none() {
            out.push(format!("{role}'s binary hash"));
        }
    }
    if let crate::record::matches::pgn::Kept::No(why) =
        crate::record::matches::pgn::locate(&crate::util::root(), r.pgn.as_deref())
    {
        out.push(format!("the games ({why})"));
    }
    if r.time_control.is_none() {
        out.push("time control".into());
    }
    if r.openings.is_none() {
        out.push("openings".into());
    }
    if r.concurrency.is_none() {
        out.push("games at once".into());
    }
    if r.adjudication.is_none() {
        out.push("adjudication".into());
    }
    let hosts = r.by_host();
    if hosts.is_empty() || hosts.iter().any(|(h, _)| h.is_none()) {
        out.push("host".into());
    } else if hosts
        .iter()
        .any(|(h, _)| h.as_ref().is_some_and(|h| h.cpu_family.is_none()))
    {
        out.push("CPU family and model".into());
    } else if hosts
        .iter()
        .any(|(h, _)| h.as_ref().is_some_and(|h| h.cpu_model.is_none()))
    {
        out.push("CPU model number".into());
    }
    out
}

pub(super) fn records(rs: &[&MatchRecord]) -> String {
    let mut out = String::from(
        "| Record | Kind | Engines | Games | Hosts | Written | Not recorded |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for r in rs {
        let kind = match r.kind {
            Kind::Match => "match",
            Kind::Sprt => "SPRT",
            Kind::Sweep => "sweep",
        };
        let hosts: Vec<String> = r
            .by_host()
            .iter()
            .map(|(h, s)| {
                format!(
                    "{}: {} games, {}",
                    host_label(h.as_ref()),
                    s.tally.games(),
                    pairs_text(&s.tally.pair_indices)
                )
            })
            .collect();
        let unknown = unknowns(r);
        let _ = writeln!(
            out,
            "| [{}](data/{}) | {kind} | {} vs {} | {} | {} | {} | {} |",
            r.name,
            r.file,
            r.engines.a.label,
            r.engines.b.label,
            r.results.overall.tally.games(),
            hosts.join("; "),
            if r.backfilled {
                "backfilled"
            } else {
                "by the runner"
            },
            if unknown.is_empty() {
                "–".into()
            } else {
                unknown.join(", ")
            }
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_ranges_read_as_the_logs_number_them() {
        assert_eq!(pairs_text(&[0, 1, 2, 5]), "pairs 0-2, 5");
        assert_eq!(pairs_text(&[7]), "pair 7");
        assert_eq!(pairs_text(&[]), "no pairs");
    }
}
