//! The isolated view's measurement: `quince lookups` run for the
//! techniques it compiles (their tables and where they fit), for its rate
//! in each mode, and under callgrind for instructions per lookup.

use std::path::Path;
use std::process::Command;

use crate::measure::host::Host;
use crate::util::{Result, callgrind, output};

/// Passes over the 4096 inputs per isolated run (about 82 million
/// lookups: a few tenths of a second for most techniques).
pub(super) const PASSES: u64 = 20_000;
/// The two pass counts whose callgrind difference gives instructions
/// per lookup.
const CALLGRIND_PASSES: (u64, u64) = (20, 60);
/// The mode callgrind counts: one lookup at a time, so the count is what
/// one lookup costs, not a vectorised batch's share.
pub(super) const INSTRUCTION_MODE: &str = "one-at-a-time";
/// The mode counted beside it since format 3: grouped, the reference's
/// harness, whose instructions per lookup set beside the reference's own
/// ([`reference_instructions`](super::reference_instructions)) say where
/// a gap comes from.
pub(super) const GROUPED_MODE: &str = "grouped";
/// Inputs per pass (`quince::sliders::lookups::INPUTS`; every isolated
/// run's JSON is checked against it).
pub(super) const INPUTS: u64 = 4096;
/// Lookups per pass in grouped mode (`GROUPS * PER_OCCUPANCY`: 341
/// occupancies of twelve squares).
pub(crate) const GROUPED_INPUTS: u64 = 341 * 12;

/// `quince lookups --list`: (name, table bytes) compiled, and the left-out
/// ones with what they need.
type Listing = (Vec<(String, u64)>, Vec<(String, String)>);

pub(super) fn list(quince: &Path) -> Result<Listing> {
    let text = output(Command::new(quince).args(["lookups", "--list"]))?;
    let mut compiled = Vec::new();
    let mut left_out = Vec::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let Some(name) = words.next() else { continue };
        let rest: Vec<&str> = words.collect();
        if let Some(needs) = line.split_once("not compiled: needs ") {
            left_out.push((name.to_string(), needs.1.trim().to_string()));
        } else if let Some(bytes) = rest.first().and_then(|b| b.parse().ok()) {
            compiled.push((name.to_string(), bytes));
        }
    }
    Ok((compiled, left_out))
}

pub(super) fn fits(bytes: u64, host: &Host) -> &'static str {
    if bytes == 0 {
        "none"
    } else if host.l1d_bytes.is_some_and(|l1| bytes <= l1) {
        "L1d"
    } else if host.l2_bytes.is_some_and(|l2| bytes <= l2) {
        "L2"
    } else {
        "beyond L2"
    }
}

/// The isolated modes (`quince lookups --mode`), in the order a round
/// runs them, with the lookups one pass makes.
pub(super) const MODES: [(&str, u64); 3] = [
    ("batch", INPUTS),
    ("one-at-a-time", INPUTS),
    ("grouped", GROUPED_INPUTS),
];

/// One isolated run: MQueens/s.
pub(super) fn lookups(quince: &Path, technique: &str, mode: &str, passes: u64) -> Result<f64> {
    let text = output(Command::new(quince).args([
        "lookups",
        "--technique",
        technique,
        "--mode",
        mode,
        "--passes",
        &passes.to_string(),
        "--json",
    ]))?;
    let v: serde_json::Value =
        serde_json::from_str(text.trim()).map_err(|e| format!("lookups --json: {e}"))?;
    let per_pass = MODES
        .iter()
        .find(|(m, _)| *m == mode)
        .map_or(INPUTS, |m| m.1);
    if v["lookups"].as_u64() != Some(passes * per_pass) || v["mode"] != mode {
        return Err(format!(
            "lookups --json: expected {} lookups ({passes} passes of {per_pass}) in mode {mode}: {text}",
            passes * per_pass
        ));
    }
    v["mqueens_per_s"]
        .as_f64()
        .ok_or_else(|| format!("lookups --json has no mqueens_per_s: {text}"))
}

/// Instructions per lookup of `technique` in `mode` under callgrind.
pub(super) fn instructions_per_lookup(
    quince: &Path,
    technique: &str,
    mode: &str,
    per_pass: u64,
) -> Result<f64> {
    let args = |passes: u64| {
        vec![
            "lookups".into(),
            "--technique".into(),
            technique.into(),
            "--mode".into(),
            mode.into(),
            "--passes".into(),
            passes.to_string(),
        ]
    };
    per_lookup_under_callgrind(quince, args, per_pass)
}

/// Instructions per lookup of `program` run with `args(passes)`, passes of
/// `per_pass` lookups each: the difference of [`CALLGRIND_PASSES`]' two
/// runs, so start-up and table initialisation cancel.
pub(crate) fn per_lookup_under_callgrind(
    program: &Path,
    args: impl Fn(u64) -> Vec<String>,
    per_pass: u64,
) -> Result<f64> {
    let (few, many) = CALLGRIND_PASSES;
    let extra = callgrind(program, &args(many))?.saturating_sub(callgrind(program, &args(few))?);
    Ok(extra as f64 / ((many - few) * per_pass) as f64)
}
