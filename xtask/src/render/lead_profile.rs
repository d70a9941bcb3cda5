//! `atlas.lead-profile` on `reports/atlas.md`: what the lead over Gigantua
//! is made of, from the newest clean lead-profile record
//! ([`crate::record::lead_profile`]): instructions, branches and
//! mispredicted branches per leaf of both programs on each position, then,
//! for every position whose median lead misses the target on some atlas
//! CPU, how its counts differ from the positions that clear it everywhere,
//! and the leads that clear it by the median only (their interval reaching
//! below it).

use std::fmt::Write as _;

use super::atlas::{PositionLead, RoundRange};
use super::format::{ratio_text, record_link};
use crate::record::Records;
use crate::record::lead_profile::{LeadProfileRecord, PerLeaf};
use crate::util::Result;

/// Issue 66's target: Quince at least this many times as fast as the best
/// C/C++ perft program on every standard position, on every atlas CPU.
pub const LEAD_TARGET: f64 = 1.25;

pub fn block(name: &str, records: &Records, page: &str) -> Option<Result<String>> {
    if name != "atlas.lead-profile" {
        return None;
    }
    let newest = records
        .lead_profile
        .iter()
        .filter(|(_, r)| !r.commit.dirty)
        .max_by(|a, b| a.1.date_utc.cmp(&b.1.date_utc));
    let Some((file, r)) = newest else {
        return Some(Ok(
            "No clean lead-profile record in `reports/data/` yet (`cargo run --release -p xtask -- lead-profile --gigantua BIN`).\n"
                .into(),
        ));
    };
    let leads = super::atlas::leads(records);
    Some(Ok(render(file, r, &short_leads(&leads), page)))
}

/// A lead that does not clear [`LEAD_TARGET`]: its median is below it,
/// or its interval reaches below it.
struct Short<'a> {
    cpu: &'a str,
    lead: &'a PositionLead,
}

impl Short<'_> {
    /// Whether the median itself misses the target (else only the
    /// interval reaches below it).
    fn median_below(&self) -> bool {
        self.lead.ratio.interval.median < LEAD_TARGET
    }

    /// "Intel ... 1.19x (1.11-1.33) against gigantua", as the lead block
    /// writes a ratio.
    ///
    /// A median under the target that two decimals round up to it (1.249
    /// shows as 1.25) gets three decimals beside it, so that the sentence
    /// "Below 1.25x" does not seem to list a lead of 1.25x.
    fn text(&self) -> String {
        let median = self.lead.ratio.interval.median;
        let unrounded =
            if median < LEAD_TARGET && format!("{median:.2}") == format!("{LEAD_TARGET:.2}") {
                format!(", {median:.3}x unrounded")
            } else {
                String::new()
            };
        format!(
            "{} {}{unrounded} against {}",
            self.cpu,
            ratio_text(&self.lead.ratio),
            self.lead.peer
        )
    }
}

/// Every lead whose interval reaches below [`LEAD_TARGET`].
fn short_leads(leads: &[(String, Vec<PositionLead>)]) -> Vec<Short<'_>> {
    leads
        .iter()
        .flat_map(|(cpu, cells)| cells.iter().map(move |lead| Short { cpu, lead }))
        .filter(|s| s.lead.ratio.interval.lo < LEAD_TARGET)
        .collect()
}

/// Quince's and Gigantua's per-leaf figures on one position.
struct Row<'a> {
    position: &'a str,
    depths: [u32; 2],
    quince: PerLeaf,
    gigantua: PerLeaf,
}

impl Row<'_> {
    /// How many times fewer instructions per leaf Quince runs.
    fn instruction_lead(&self) -> f64 {
        self.gigantua.instructions / self.quince.instructions
    }
    /// Quince's branches per leaf over Gigantua's.
    fn branch_share(&self) -> f64 {
        self.quince.branches / self.gigantua.branches
    }
    /// Quince's mispredicted branches per leaf over Gigantua's.
    fn mispredict_share(&self) -> f64 {
        self.quince.mispredicts / self.gigantua.mispredicts
    }
}

fn render(file: &str, r: &LeadProfileRecord, short: &[Short], page: &str) -> String {
    let rows: Vec<Row> = r
        .positions
        .iter()
        .filter_map(|p| {
            Some(Row {
                position: &p.position,
                depths: p.depths,
                quince: p.per_leaf("quince")?,
                gigantua: p.per_leaf("gigantua")?,
            })
        })
        .collect();
    let version = |name: &str| {
        r.programs
            .iter()
            .find(|p| p.name == name)
            .map_or("unknown", |p| p.version.as_str())
    };
    let mut s = String::new();
    writeln!(
        s,
        "Record {}: Quince {}, Gigantua ({}), both built for `x86-64-v3`, counted by `{}` ({}). Per leaf of bulk perft: the deeper run's counts minus the shallower's, over the leaves it adds, so process start and table set-up drop out. Mispredictions are cachegrind's model of a predictor, the same on every CPU, not any CPU's own; they show where a position makes a generator's branches hard to guess, not how many cycles that costs.\n",
        record_link(page, file),
        commit_in_code(version("quince")),
        version("gigantua"),
        r.tool,
        r.toolchain.valgrind.as_deref().unwrap_or("valgrind"),
    )
    .unwrap();
    s.push_str("| position | depths | instructions, Quince / Gigantua | Quince's fewer | branches, Quince / Gigantua | mispredicted, Quince / Gigantua | mispredicted, Quince's over Gigantua's |\n");
    s.push_str("| --- | --- | --- | --- | --- | --- | --- |\n");
    for row in &rows {
        writeln!(
            s,
            "| {} | {}-{} | {:.2} / {:.2} | {:.2}x | {:.2} / {:.2} | {:.4} / {:.4} | {:.2}x |",
            row.position,
            row.depths[0],
            row.depths[1],
            row.quince.instructions,
            row.gigantua.instructions,
            row.instruction_lead(),
            row.quince.branches,
            row.gigantua.branches,
            row.quince.mispredicts,
            row.gigantua.mispredicts,
            row.mispredict_share(),
        )
        .unwrap();
    }
    s.push('\n');
    s.push_str(&explanation(&rows, short));
    s
}

/// The sentences under the table: for each position whose median lead
/// misses the target on some CPU, its counts against the range of the
/// positions whose median clears it on every CPU; then the leads that
/// clear it by the median while their interval reaches below it (not
/// shown at 95 %: a noisy run, or a lead close to the target).
fn explanation(rows: &[Row], short: &[Short]) -> String {
    let mut below: Vec<&str> = short
        .iter()
        .filter(|b| b.median_below())
        .map(|b| b.lead.position.as_str())
        .collect();
    below.sort();
    below.dedup();
    let mut s = String::new();
    if below.is_empty() {
        writeln!(
            s,
            "Every atlas CPU's median lead is at least {LEAD_TARGET:.2}x on every position (the lead above)."
        )
        .unwrap();
    }
    let met: Vec<&Row> = rows
        .iter()
        .filter(|r| !below.contains(&r.position))
        .collect();
    // The smallest and the largest of a figure over those positions.
    let range = |values: Vec<f64>| RoundRange::of(&values).map(|r| (r.lo, r.hi));
    let instruction_range = range(met.iter().map(|r| r.instruction_lead()).collect());
    let branch_range = range(met.iter().map(|r| r.branch_share()).collect());
    let mispredict_range = range(met.iter().map(|r| r.mispredict_share()).collect());
    for &position in &below {
        let cpus: Vec<String> = short
            .iter()
            .filter(|b| b.lead.position == position && b.median_below())
            .map(Short::text)
            .collect();
        write!(
            s,
            "Below {LEAD_TARGET:.2}x: **{position}** ({}).",
            cpus.join("; ")
        )
        .unwrap();
        let Some(row) = rows.iter().find(|r| r.position == position) else {
            s.push_str(" The record does not count this position.\n");
            continue;
        };
        write!(
            s,
            " There Quince runs {:.2}x fewer instructions per leaf than Gigantua",
            row.instruction_lead()
        )
        .unwrap();
        if let Some((lo, hi)) = instruction_range {
            write!(
                s,
                ", against {lo:.2}-{hi:.2}x on the positions whose median lead clears the target on every CPU"
            )
            .unwrap();
        }
        write!(
            s,
            ", runs {:.2}x as many branches as Gigantua",
            row.branch_share()
        )
        .unwrap();
        if let Some((lo, hi)) = branch_range {
            write!(s, " ({lo:.2}-{hi:.2}x there)").unwrap();
        }
        write!(s, " and mispredicts {:.2}x as many", row.mispredict_share()).unwrap();
        if let Some((lo, hi)) = mispredict_range {
            write!(s, " ({lo:.2}-{hi:.2}x there)").unwrap();
        }
        s.push_str(": ");
        let smallest_lead = instruction_range.is_some_and(|(lo, _)| row.instruction_lead() < lo);
        let most_mispredicts = mispredict_range.is_some_and(|(_, hi)| row.mispredict_share() > hi);
        s.push_str(match (smallest_lead, most_mispredicts) {
            (true, true) => "both its instruction lead is the smallest and its share of mispredictions the largest, so less of the work is saved and more of it waits on guessed branches.\n",
            (true, false) => "its instruction lead is the smallest; mispredictions are not what sets it apart.\n",
            (false, true) => "its instruction lead is in the usual range, but its share of mispredictions is the largest: the time goes to guessed branches.\n",
            (false, false) => "neither count sets it apart; the difference is in what these counts do not see (cache misses or the CPU's own predictor).\n",
        });
    }
    let uncertain: Vec<String> = short
        .iter()
        .filter(|b| !b.median_below())
        .map(|b| format!("{} {}", b.lead.position, b.text()))
        .collect();
    if !uncertain.is_empty() {
        writeln!(
            s,
            "\nAt {LEAD_TARGET:.2}x or more by the median, but not shown at 95 %, the interval reaching below it: {}.",
            uncertain.join("; ")
        )
        .unwrap();
    }
    s
}

/// "`0df628f264e7` with the pext backend": the version's leading commit
/// in code type, the rest as it is.
fn commit_in_code(version: &str) -> String {
    match version.split_once(' ') {
        Some((commit, rest)) => format!("`{commit}` {rest}"),
        None => format!("`{version}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::Ratio;
    use crate::measure::stats::Interval;

    fn row(position: &str, qi: f64, gi: f64, qm: f64, gm: f64) -> Row<'_> {
        let leaf = |i, m| PerLeaf {
            instructions: i,
            branches: 1.0,
            mispredicts: m,
        };
        Row {
            position,
            depths: [4, 5],
            quince: leaf(qi, qm),
            gigantua: leaf(gi, gm),
        }
    }

    const CPU: &str = "Intel Emerald Rapids (family 6 model 207)";

    /// A lead against Gigantua with this median and interval (no tie).
    fn lead(position: &str, median: f64, lo: f64, hi: f64) -> PositionLead {
        PositionLead {
            position: position.to_string(),
            peer: "gigantua".to_string(),
            ratio: Ratio {
                rounds: vec![median],
                interval: Interval {
                    median,
                    lo,
                    hi,
                    coverage: 0.9,
                },
                tie: false,
                bimodal: false,
            },
        }
    }

    #[test]
    fn a_median_that_rounds_up_to_the_target_shows_three_decimals() {
        let leads = [(
            CPU.to_string(),
            vec![
                lead("pos3", 1.2486, 1.23, 1.28),
                lead("pos4", 1.2, 1.1, 1.3),
            ],
        )];
        let short = short_leads(&leads);
        assert_eq!(
            short[0].text(),
            "Intel Emerald Rapids (family 6 model 207) 1.25x (1.23-1.28), 1.249x unrounded against gigantua"
        );
        assert_eq!(
            short[1].text(),
            "Intel Emerald Rapids (family 6 model 207) 1.20x (1.10-1.30) against gigantua"
        );
    }

    #[test]
    fn explains_a_short_position_against_the_others() {
        let rows = [
            row("start", 5.0, 15.0, 0.01, 0.03),
            row("pos3", 11.0, 17.6, 0.064, 0.045),
            row("pos6", 4.0, 10.0, 0.02, 0.04),
        ];
        let leads = [(
            CPU.to_string(),
            vec![
                lead("pos3", 1.19, 1.11, 1.33),
                lead("start", 1.9, 1.07, 2.66),
            ],
        )];
        let short = short_leads(&leads);
        assert_eq!(short.len(), 2);
        let text = explanation(&rows, &short);
        assert!(
            text.starts_with("Below 1.25x: **pos3** (Intel Emerald Rapids (family 6 model 207) 1.19x (1.11-1.33) against gigantua)."),
            "{text}"
        );
        assert!(text.contains("1.60x fewer instructions"), "{text}");
        assert!(text.contains("against 2.50-3.00x"), "{text}");
        assert!(
            text.contains("runs 1.00x as many branches as Gigantua (1.00-1.00x there)"),
            "{text}"
        );
        assert!(
            text.contains("mispredicts 1.42x as many (0.33-0.50x there)"),
            "{text}"
        );
        assert!(
            text.contains("both its instruction lead is the smallest"),
            "{text}"
        );
        assert!(
            text.ends_with("not shown at 95 %, the interval reaching below it: start Intel Emerald Rapids (family 6 model 207) 1.90x (1.07-2.66) against gigantua.\n"),
            "{text}"
        );
    }

    #[test]
    fn says_so_when_every_lead_meets_the_target() {
        let rows = [row("start", 5.0, 15.0, 0.01, 0.03)];
        assert!(
            explanation(&rows, &[]).starts_with("Every atlas CPU's median lead is at least 1.25x")
        );
    }
}
