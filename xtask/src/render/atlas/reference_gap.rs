//! Quince against the reference's own code: the round-by-round ratio in
//! Quince's own inputs, the instruction counts of both, and what they say
//! of a gap (more work per lookup, or waiting), for `atlas.detail`.

use super::RoundRange;
use crate::atlas::AtlasRecord;

/// How the reference driver's own loops ran, as a record states it; older
/// records do not, and their driver left the loops to `-funroll-loops`.
pub(super) fn harness_loop(stated: Option<&str>) -> String {
    match stated {
        Some(how) => format!("the driver's loops {how}"),
        None => "the driver's loops left to `-funroll-loops`, which wrote out some techniques' twelve lookups per occupancy while Quince's grouped loop stays rolled (for those, the reference's figures carry less loop work than Quince's)".into(),
    }
}

/// Quince's grouped rate over the reference's code in the same inputs,
/// round by round (the two ran back to back in each round): the median
/// and the range of the rounds.
pub(super) fn same_workload_ratio(r: &AtlasRecord, technique: &str) -> Option<RoundRange> {
    let theirs = r
        .reference_same_workload
        .as_ref()?
        .mqueens_per_s
        .get(technique)?;
    let ours = r.isolated.grouped.get(technique)?;
    let rounds: Vec<f64> = ours
        .iter()
        .zip(theirs)
        .filter(|(_, t)| **t > 0.0)
        .map(|(q, t)| q / t)
        .collect();
    RoundRange::of(&rounds)
}

/// Instructions per grouped lookup of `technique`: Quince's and the
/// reference's own code's, where the record has them.
pub(super) fn grouped_instructions(r: &AtlasRecord, technique: &str) -> (Option<f64>, Option<f64>) {
    let ours = r
        .techniques
        .iter()
        .find(|t| t.name == technique)
        .and_then(|t| t.instructions_per_grouped_lookup);
    let theirs = r
        .reference_instructions
        .as_ref()
        .and_then(|x| x.per_lookup.get(technique).copied());
    (ours, theirs)
}

/// What two instruction counts say of a gap in speed: more work per
/// lookup (Quince's count over 5 % above the reference's), or the same
/// work, so the time goes to waiting on what `waiting_on` names.
pub(super) fn work_verdict(quince: f64, reference: f64, waiting_on: &str) -> String {
    let counts = format!(
        "{quince:.1} instructions per grouped lookup against the reference's {reference:.1}"
    );
    if quince > reference * 1.05 {
        format!("{counts}: more work per lookup")
    } else {
        format!("{counts}: no more work per lookup, so the gap is in waiting ({waiting_on})")
    }
}

/// A technique below 0.9x of the reference's code in the same inputs,
/// with what its instruction counts say of the gap. Those inputs are
/// grouped and nothing is vectorised, so the same work means waiting on
/// the tables.
pub(super) fn short_in_same_inputs(r: &AtlasRecord, technique: &str) -> String {
    match grouped_instructions(r, technique) {
        (Some(q), Some(x)) => format!(
            "`{technique}`, {}",
            work_verdict(q, x, "the tables' layout and size")
        ),
        _ => format!("`{technique}`, no instruction counts in this record"),
    }
}

/// "1.02x (0.95-1.10x)": a median ratio and the range of its rounds.
pub(super) fn ratio_range(x: &RoundRange) -> String {
    format!("{:.2}x ({:.2}-{:.2}x)", x.median, x.lo, x.hi)
}

#[cfg(test)]
mod tests {
    use super::short_in_same_inputs;
    use crate::atlas::AtlasRecord;

    #[test]
    fn a_short_technique_is_named_with_what_its_counts_say() {
        let path = crate::util::root().join(
            "reports/data/atlas-intel-emerald-rapids-family-6-model-207-2026-11-30-a84788ac66c4.json",
        );
        let mut r: AtlasRecord =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let set = |r: &mut AtlasRecord, ours: Option<f64>, theirs: f64| {
            let t = r.techniques.iter_mut().find(|t| t.name == "sissy").unwrap();
            t.instructions_per_grouped_lookup = ours;
            let x = r.reference_instructions.as_mut().unwrap();
            x.per_lookup.insert("sissy".into(), theirs);
        };
        set(&mut r, Some(40.0), 30.0);
        assert_eq!(
            short_in_same_inputs(&r, "sissy"),
            "`sissy`, 40.0 instructions per grouped lookup against the reference's 30.0: more work per lookup"
        );
        set(&mut r, Some(30.5), 30.0);
        assert_eq!(
            short_in_same_inputs(&r, "sissy"),
            "`sissy`, 30.5 instructions per grouped lookup against the reference's 30.0: no more work per lookup, so the gap is in waiting (the tables' layout and size)"
        );
        set(&mut r, None, 30.0);
        assert_eq!(
            short_in_same_inputs(&r, "sissy"),
            "`sissy`, no instruction counts in this record"
        );
    }
}
