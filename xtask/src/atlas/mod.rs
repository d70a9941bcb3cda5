//! `cargo run -p xtask -- atlas`: every sliding-attack technique on this
//! CPU, in two views, from one build, written as the record
//! `reports/data/atlas-<cpu>-<date>-<commit>.json` that `reports/atlas.md`
//! renders (one column per CPU model).
//!
//! * **In isolation**: `quince lookups` (queen lookups over a fixed set of
//!   squares and occupancies) for each technique in its three modes
//!   (batch: the compiler may vectorise across lookups; one at a time;
//!   grouped: twelve squares per occupancy), in paired rounds (every
//!   technique once per round, the order rotating), MQueens/s per round;
//!   and instructions per lookup, one at a time, from callgrind (the
//!   difference of two pass counts, so start-up cancels).
//! * **In the generator**: bulk and full-make perft of the six standard
//!   positions with each technique (`examples/lab_perft.rs quince:NAME`),
//!   the lab's protocol ([`crate::measure`]): calibrated depths, paired
//!   rounds of whole processes, every round kept, ratios with intervals.
//! * **The reference on the same CPU**: Gigantua/Chess_Movegen's own
//!   figures for the techniques both have ([`reference`](mod@reference)), when a built
//!   `movegen_compare` is given; and, from a second build of it with
//!   clang's vectorisers off, its figures one lookup at a time, to set
//!   beside Quince's grouped rates (like with like: its harness
//!   lets clang vectorise across twelve lookups, which moves its figures
//!   several-fold in both directions).
//! * **The generator's lead** ([`peers`]): with the C/C++ perft programs
//!   given, Quince's fastest technique of this run against them on the six
//!   standard positions, so one command gives a CPU's whole column.
//!
//! Each phase's wall time goes into the record (`phase_seconds`): the
//! whole run, cold builds included, should fit 40 minutes on 2 cores.
//!
//! Two builds of one commit: `-C target-cpu=native` for the timings (so
//! the AVX-512 and GFNI techniques run where the CPU has them), and
//! `x86-64-v3` for callgrind, which (valgrind 3.19) cannot decode AVX-512;
//! the techniques that need more than x86-64-v3 have no instruction count.
//! The second builds `quince` alone: it only counts `quince lookups`.

mod in_generator;
mod isolated;
mod options;
pub mod peers;
mod record;
pub mod reference;
pub mod reference_instructions;
pub mod same_workload;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::measure::Position;
use crate::measure::build::{build_quince_with, build_with};
use crate::measure::host::version_line;
use crate::measure::host::{Checkout, family_name, host, now_utc};
use crate::record::data_dir;
use crate::util::{Result, standard_positions};
// `GROUPED_INPUTS` and `per_lookup_under_callgrind` serve the reference's
// modules too (`reference_instructions`, `same_workload`).
use isolated::{
    GROUPED_INPUTS, GROUPED_MODE, INPUTS, INSTRUCTION_MODE, MODES, PASSES, fits,
    instructions_per_lookup, list, lookups, per_lookup_under_callgrind,
};
use options::{Options, parse};
pub use record::{AtlasRecord, Isolated, TechniqueFacts, load_from};
use record::{FORMAT_VERSION, KIND};

pub fn run(args: &[String]) -> Result<bool> {
    let Some(o) = parse(args)? else {
        return Ok(true);
    };
    if let Some(runs) = o.reference_repeat {
        let path = reference::repeat(
            o.reference.as_deref(),
            o.reference_scalar.as_deref(),
            runs,
            &data_dir(),
        )?;
        crate::render::announce(&path)?;
        return Ok(true);
    }
    let record = measure(&o)?;
    let path = crate::record::write_json(&data_dir(), &record.file_name(), &record)?;
    crate::render::announce(&path)?;
    Ok(true)
}

fn progress(text: &str) {
    eprintln!("[atlas] {text}");
}

/// Wall time per phase of one run.
struct Phases {
    done: Vec<(String, f64)>,
    since: Instant,
}

impl Phases {
    fn new() -> Phases {
        Phases {
            done: Vec::new(),
            since: Instant::now(),
        }
    }

    /// Ends the phase running since the last call, naming it.
    fn end(&mut self, name: &str) {
        let seconds = self.since.elapsed().as_secs_f64();
        progress(&format!("{name}: {seconds:.0} s"));
        self.done.push((name.into(), seconds));
        self.since = Instant::now();
    }
}

/// `quince` and `lab_perft` built with `all-sliders` and `flags` into
/// `target/lab/atlas-<label>/`.
fn build(checkout: &Path, label: &str, flags: &str) -> Result<(PathBuf, PathBuf)> {
    progress(&format!("building ({label}: RUSTFLAGS='{flags}')"));
    let built = build_with(
        checkout,
        &format!("atlas-{label}"),
        "all-sliders",
        flags,
        &format!("atlas-build-{label}"),
    )?;
    Ok((built.quince, built.lab_perft))
}

fn measure(o: &Options) -> Result<AtlasRecord> {
    let started = Instant::now();
    let mut phases = Phases::new();
    let date_utc = now_utc();
    let here = host();
    let checkout = Checkout::new(o.allow_dirty)?;
    let timing_flags = "-C target-cpu=native";
    let instruction_flags = "-C target-cpu=x86-64-v3";
    // The two builds at once. Why: each ends in one long single-threaded
    // rustc (the release profile's fat LTO and one codegen unit), which
    // leaves the other core idle. What it bought, cold on an Emerald
    // Rapids host (2026-11-30): 281 s + 253 s one after the other, 462 s
    // at once.
    let (native, v3) = std::thread::scope(|scope| {
        let v3 = o.callgrind.then(|| {
            scope.spawn(|| {
                progress(&format!(
                    "building (v3, quince alone: RUSTFLAGS='{instruction_flags}')"
                ));
                build_quince_with(
                    &checkout.dir,
                    "atlas-v3",
                    "all-sliders",
                    instruction_flags,
                    "atlas-build-v3",
                )
            })
        });
        let native = build(&checkout.dir, "native", timing_flags);
        let v3 = v3.map(|handle| {
            handle
                .join()
                .unwrap_or_else(|_| Err("the v3 build panicked".into()))
        });
        (native, v3)
    });
    let (quince, lab_perft) = native?;
    let quince_v3 = v3.transpose()?;
    phases.end(if o.callgrind {
        "builds (native and x86-64-v3 at once)"
    } else {
        "build (native)"
    });
    let (compiled, left_out) = list(&quince)?;
    let names: Vec<String> = match &o.techniques {
        Some(wanted) => {
            for w in wanted {
                if !compiled.iter().any(|(n, _)| n == w) {
                    return Err(format!(
                        "--techniques: '{w}' is not compiled for this CPU (compiled: {})",
                        compiled
                            .iter()
                            .map(|c| c.0.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
            wanted.clone()
        }
        None => compiled.iter().map(|c| c.0.clone()).collect(),
    };
    progress(&format!(
        "{} techniques on {} ({} left out)",
        names.len(),
        family_name(&here),
        left_out.len()
    ));

    // Instructions per lookup first: a valgrind that cannot run should
    // stop the run before the long timing.
    let mut per_lookup: BTreeMap<String, f64> = BTreeMap::new();
    let mut per_grouped_lookup: BTreeMap<String, f64> = BTreeMap::new();
    if let Some(quince_v3) = &quince_v3 {
        let (v3_compiled, _) = list(quince_v3)?;
        for name in &names {
            if !v3_compiled.iter().any(|(n, _)| n == name) {
                continue;
            }
            for (mode, per_pass, into) in [
                (INSTRUCTION_MODE, INPUTS, &mut per_lookup),
                (GROUPED_MODE, GROUPED_INPUTS, &mut per_grouped_lookup),
            ] {
                let value = instructions_per_lookup(quince_v3, name, mode, per_pass)?;
                progress(&format!(
                    "callgrind {name}: {value:.1} instructions per lookup ({mode})"
                ));
                into.insert(name.clone(), value);
            }
        }
    }
    let sources = match &o.reference_source {
        Some(git_dir) => Some(reference_instructions::Sources::unpack(git_dir)?),
        None => None,
    };
    let reference_instructions = match &sources {
        Some(sources) if o.callgrind => Some(reference_instructions::measure(sources, &names)?),
        _ => None,
    };
    if o.callgrind || o.reference_source.is_some() {
        phases.end("instruction counts");
    }

    // The reference's own code in Quince's grouped workload, timed beside
    // Quince's grouped runs.
    let mut same = match &sources {
        Some(sources) => Some(same_workload::Timed::build(sources, PASSES)?),
        None => None,
    };

    // The isolated view, in paired rounds: each technique's three modes
    // back to back (then the reference's code in the grouped workload),
    // the techniques' order rotating.
    let mut rates: [BTreeMap<String, Vec<f64>>; 3] = Default::default();
    for r in 0..o.rounds {
        for k in 0..names.len() {
            let name = &names[(r + k) % names.len()];
            for (m, (mode, _)) in MODES.iter().enumerate() {
                rates[m]
                    .entry(name.clone())
                    .or_default()
                    .push(lookups(&quince, name, mode, PASSES)?);
            }
            if let Some(same) = same.as_mut().filter(|_| reference_instructions::has(name)) {
                same.run(name)?;
            }
        }
        progress(&format!("isolated round {}/{} done", r + 1, o.rounds));
    }
    let [batch, one_at_a_time, grouped] = rates;
    phases.end("isolated");

    // The reference on the same CPU.
    let reference = match &o.reference {
        Some(bin) => Some(reference::run(bin)?),
        None => None,
    };
    let reference_scalar = match &o.reference_scalar {
        Some(bin) => Some(reference::run(bin)?),
        None => None,
    };
    if reference.is_some() || reference_scalar.is_some() {
        phases.end("reference");
    }

    // The generator view.
    let positions = standard_positions()?;
    let positions: Vec<Position> = positions
        .iter()
        .map(|(name, fen, counts)| Position { name, fen, counts })
        .collect();
    let mut generator = None;
    let mut generator_command_lines = BTreeMap::new();
    if o.generator {
        let (timings, command_lines) = in_generator::calibrate_and_time(
            &lab_perft,
            &names,
            &checkout.commit.short,
            &positions,
            o.min_seconds,
            o.rounds,
        )?;
        generator_command_lines = command_lines;
        generator = Some(timings);
        phases.end("generator");
    }

    // The generator's lead on this CPU: its fastest technique in bulk
    // perft against the C/C++ programs.
    let mut lead = None;
    if o.peers.any() {
        let fastest = generator
            .as_ref()
            .and_then(peers::fastest_bulk)
            .ok_or("the in-generator view has no technique with every bulk timing")?;
        progress(&format!(
            "the generator's lead: {fastest} against the C/C++ programs, {} rounds",
            o.peer_rounds
        ));
        lead = Some(peers::measure(
            &quince,
            &fastest,
            &format!("{} with --features all-sliders", checkout.commit.short),
            &o.peers,
            &positions,
            o.peer_rounds,
        )?);
        phases.end("peers");
    }

    let techniques = names
        .iter()
        .map(|name| {
            let bytes = compiled.iter().find(|(n, _)| n == name).map_or(0, |c| c.1);
            TechniqueFacts {
                name: name.clone(),
                table_bytes: bytes,
                fits: fits(bytes, &here).into(),
                instructions_per_lookup: per_lookup.get(name).copied(),
                instructions_per_grouped_lookup: per_grouped_lookup.get(name).copied(),
            }
        })
        .collect();
    let lookups_per_run = PASSES * INPUTS;
    Ok(AtlasRecord {
        kind: KIND.into(),
        format_version: FORMAT_VERSION,
        commit: checkout.commit.clone(),
        date_utc,
        cpu: family_name(&here),
        host: here,
        rustc: version_line("rustc", "-V"),
        timing_rustflags: timing_flags.into(),
        instruction_rustflags: o.callgrind.then(|| instruction_flags.into()),
        instruction_mode: o.callgrind.then(|| INSTRUCTION_MODE.into()),
        valgrind: o.callgrind.then(|| version_line("valgrind", "--version")),
        features: "all-sliders".into(),
        techniques,
        left_out,
        isolated: Isolated {
            passes: PASSES,
            lookups_per_run,
            rounds: o.rounds,
            order: "rotating: round r starts with technique r mod n".into(),
            mqueens_per_s: batch,
            one_at_a_time,
            grouped,
            command: format!(
                "{} lookups --technique {{technique}} --mode {{mode}} --passes {PASSES} --json",
                quince.display()
            ),
        },
        generator,
        generator_command_lines,
        reference,
        reference_scalar,
        reference_instructions,
        reference_same_workload: same.map(same_workload::Timed::into_record),
        peers: lead,
        phase_seconds: phases.done,
        run_seconds: started.elapsed().as_secs_f64(),
    })
}
