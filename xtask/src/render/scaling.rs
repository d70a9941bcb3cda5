//! `datasets.doubling MATCH SMALL LARGE`: the Elo a network gains per
//! doubling of its training data, from a match between two networks that
//! one training command made from two sets of data (engine A trained on
//! the sets SMALL, engine B on LARGE). Issue 69 asks for this figure; it
//! is a ratio of two records (the match's Elo, the data sets' training
//! positions), so it is computed here rather than typed.
//!
//! SMALL and LARGE list data sets by name, separated by commas, where
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
        [record, small, large] => doubling(record, small, large, matches, sets),
        _ => Err("usage: datasets.doubling MATCH SMALL LARGE".into()),
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
    small: &str,
    large: &str,
    matches: &[MatchRecord],
    sets: &[(String, DatasetRecord)],
) -> Result<String> {
    let elo = named(matches, record)?
        .results
        .overall
        .elo
        .ok_or_else(|| format!("{record} has no Elo estimate yet"))?;
    let (small_n, large_n) = (
        training_positions(small, sets)?,
        training_positions(large, sets)?,
    );
    if small_n == 0 || large_n <= small_n {
        return Err(format!(
            "{large} ({large_n} positions) must hold more than {small} ({small_n})"
        ));
    }
    let (per, margin, doublings) = per_doubling(elo.estimate, elo.margin, small_n, large_n);
    Ok(format!(
        "{} ± {margin:.1} Elo per doubling ({} against {} training positions, {doublings:.2} of a doubling)",
        signed(per, 1),
        thousands(large_n),
        thousands(small_n),
    ))
}

/// The Elo per doubling and its margin, and how many doublings apart the
/// two amounts of data are, from the Elo (and margin) of the engine
/// trained on `small` positions against the one trained on `large`.
fn per_doubling(elo: f64, margin: f64, small: u64, large: u64) -> (f64, f64, f64) {
    let doublings = (large as f64 / small as f64).log2();
    // A trained on less: B's gain is minus A's Elo.
    (-elo / doublings, margin / doublings, doublings)
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
}
