//! `datasets.doubling MATCH A_SETS B_SETS`: the Elo a network gains per
//! doubling of its training data, from a match between two networks that
//! one training command made from two sets of data (the match's engine A
//! trained on the sets A_SETS, engine B on B_SETS; either may be the one
//! with more). Issue 69 asks for this figure; it is a ratio of two records
//! (the match's Elo, the data sets' training positions), so it is computed
//! here rather than typed.
//!
//! A_SETS and B_SETS list data sets by name, separated by commas, where
//! `sA..sB` stands for every set from `sA` to `sB`: `s1..s25` or
//! `s1,s3,s5`. The training positions of a set are its kept positions
//! less those held out for validation, as in `datasets.table`.

use super::datasets::{thousands, training};
use super::matches::{cells::signed, named};
use crate::record::datasets::DatasetRecord;
use crate::record::matches::MatchRecord;
use crate::util::Result;

/// The block `name` with `args`, or `None` when it is not this block.
pub fn block(
    name: &str,
    args: &[&str],
    matches: &[MatchRecord],
    sets: &[(String, DatasetRecord)],
) -> Option<Result<String>> {
    (name == "datasets.doubling").then(|| match args {
        [record, a_sets, b_sets] => doubling(record, a_sets, b_sets, matches, sets),
        _ => Err("usage: datasets.doubling MATCH A_SETS B_SETS".into()),
    })
}

/// The set names a list stands for (see the module's documentation).
fn set_names(list: &str) -> Result<Vec<String>> {
    let number = |name: &str| {
        name.strip_prefix('s')
            .and_then(|n| n.parse::<u32>().ok())
            .ok_or_else(|| format!("'{name}' is not a data set name like s12"))
    };
    let mut names = Vec::new();
    for item in list.split(',') {
        match item.split_once("..") {
            Some((first, last)) => {
                let (first, last) = (number(first)?, number(last)?);
                if first > last {
                    return Err(format!("the range '{item}' is empty"));
                }
                names.extend((first..=last).map(|n| format!("s{n}")));
            }
            None => {
                number(item)?;
                names.push(item.to_string());
            }
        }
    }
    Ok(names)
}

/// The training positions of the sets `list` names, all of which must
/// have a record.
fn training_positions(list: &str, sets: &[(String, DatasetRecord)]) -> Result<u64> {
    set_names(list)?
        .iter()
        .map(|name| {
            sets.iter()
                .find(|(_, r)| &r.name == name)
                .map(|(_, r)| training(r))
                .ok_or_else(|| format!("no data-set record for {name}"))
        })
        .sum()
}

fn doubling(
    record: &str,
    a_sets: &str,
    b_sets: &str,
    matches: &[MatchRecord],
    sets: &[(String, DatasetRecord)],
) -> Result<String> {
    let elo = named(matches, record)?
        .results
        .overall
        .elo
        .ok_or_else(|| format!("{record} has no Elo estimate yet"))?;
    let (a_n, b_n) = (
        training_positions(a_sets, sets)?,
        training_positions(b_sets, sets)?,
    );
    if a_n == 0 || b_n == 0 || a_n == b_n {
        return Err(format!(
            "{a_sets} ({a_n} positions) and {b_sets} ({b_n}) must differ, neither empty"
        ));
    }
    let (per, margin, doublings) = per_doubling(elo.estimate, elo.margin, a_n, b_n);
    let (small_n, large_n) = (a_n.min(b_n), a_n.max(b_n));
    Ok(format!(
        "{} ± {margin:.1} Elo per doubling ({} against {} training positions, {doublings:.2} of a doubling)",
        signed(per, 1),
        thousands(large_n),
        thousands(small_n),
    ))
}

/// The Elo per doubling and its margin, and how many doublings apart the
/// two amounts of data are, from the Elo (and margin) of the engine
/// trained on `a` positions against the one trained on `b`: A's Elo over
/// the doublings from B's data to A's (negative when A had less, so a
/// loss on less data is a gain per doubling).
fn per_doubling(elo: f64, margin: f64, a: u64, b: u64) -> (f64, f64, f64) {
    let doublings = (a as f64 / b as f64).log2();
    (elo / doublings, margin / doublings.abs(), doublings.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_ranges_name_the_sets() {
        assert_eq!(set_names("s1..s3,s7").unwrap(), ["s1", "s2", "s3", "s7"]);
        assert!(set_names("s3..s1").unwrap_err().contains("empty"));
        assert!(set_names("x4").unwrap_err().contains("not a data set name"));
    }

    #[test]
    fn the_smaller_networks_loss_spreads_over_the_doublings() {
        // -20 +- 10 Elo on a quarter of the data: +10 +- 5 per doubling.
        assert_eq!(per_doubling(-20.0, 10.0, 1_000, 4_000), (10.0, 5.0, 2.0));
        let (per, _, doublings) = per_doubling(-24.4, 25.4, 27_000, 48_000);
        assert!((doublings - 0.830).abs() < 1e-3 && per > 29.0 && per < 29.5);
    }

    #[test]
    fn the_larger_networks_gain_spreads_over_the_doublings() {
        // +10 +- 20 Elo on twice the data: the same, per doubling; the
        // order of the arguments follows the match's engines.
        assert_eq!(per_doubling(10.0, 20.0, 2_000, 1_000), (10.0, 20.0, 1.0));
        assert_eq!(per_doubling(-10.0, 20.0, 1_000, 2_000), (10.0, 20.0, 1.0));
    }
}
