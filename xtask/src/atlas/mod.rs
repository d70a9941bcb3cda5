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

pub mod peers;
pub mod reference;
pub mod reference_instructions;
pub mod same_workload;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::measure::build::{build_quince_with, build_with};
use crate::measure::host::version_line;
use crate::measure::host::{Checkout, CommitInfo, Host, family_name, host, now_utc, sha256};
use crate::measure::{self, Contender, Position, Timings};
use crate::record::Comparison;
use crate::record::data_dir;
use crate::util::{Result, callgrind, output, positive, standard_positions};

const HELP: &str = "\
usage: cargo run -p xtask -- atlas [OPTIONS]

Measures every sliding-attack technique on this CPU from one build of the
commit at HEAD (in a scratch worktree): isolated queen lookups (rate per
round, and instructions per lookup from callgrind) and bulk and full-make
perft of the six standard positions inside Quince's generator (paired
rounds of whole processes, each at least 0.3 s); with the C/C++ perft
programs given, the fastest technique against them on the same positions.
Writes reports/data/atlas-<cpu>-<date>-<commit>.json and renders the pages
(reports/atlas.md). Run it on idle cores: nothing else timing or building.
A whole run with every option below takes 25-45 minutes on 2 cores.

  --rounds N           paired rounds (default 3)
  --techniques a,b,c   only these techniques (default: every one this CPU runs)
  --reference BIN      a built Chess_Movegen movegen_compare
                       (../shared/chess-movegen/build.sh); its figures
                       stand beside Quince's batch rates
  --reference-scalar BIN
                       the same built with clang's vectorisers off
                       (CXX=tools/clang-no-vectorize.sh for build.sh);
                       its figures stand beside Quince's grouped rates
  --reference-source GIT_DIR
                       a git dir of Gigantua/Chess_Movegen: its techniques'
                       instructions per grouped lookup under callgrind
                       (tools/cmg-instructions.cpp on its headers, clang-16
                       with its flags at -march=x86-64-v3, vectorisers off),
                       beside Quince's on the page; and the same driver
                       built at -march=native, timed in every isolated
                       round right after Quince's grouped run: the
                       reference's code in Quince's own inputs
  --reference-repeat N run only the reference(s) given, N times each, and
                       write reports/data/reference-<cpu>-<date>.json: the
                       page quotes the median and range of every run of
                       the same binary on the CPU model (one run moves by
                       about a tenth)
  --gigantua BIN       Gigantua (../shared/gigantua/build.sh), and
  --mperft BIN         MPerft and
  --templechess BIN    templechess (../shared/peers/build.sh; it runs in
                       its binary's folder, which holds data/): the
                       generator's lead, the fastest technique of the
                       in-generator view against each program given
                       (bulk perft of the six standard positions, whole
                       processes, paired rounds)
  --peer-rounds N      paired rounds of the lead (default 5)
  --min-seconds S      the shortest in-generator run (default 0.3: the
                       lab's other comparisons use 0.5, which makes this
                       view alone take 19-23 minutes)
  --no-generator       skip the in-generator view (a quick isolated run)
  --no-callgrind       skip the instruction counts
  --allow-dirty        measure the working tree as it is (the record is
                       marked dirty and report --check refuses it)

To add your CPU to the atlas: run this on idle cores, then open a pull
request with the new reports/data/atlas-*.json and the re-rendered pages.";

/// The record kind and format (4: the generator's lead and each
/// phase's wall time).
pub const KIND: &str = "atlas";
pub const FORMAT_VERSION: u32 = 4;

/// Passes over the 4096 inputs per isolated run (about 82 million
/// lookups: a few tenths of a second for most techniques).
const PASSES: u64 = 20_000;
/// The two pass counts whose callgrind difference gives instructions
/// per lookup.
const CALLGRIND_PASSES: (u64, u64) = (20, 60);
/// The mode callgrind counts: one lookup at a time, so the count is what
/// one lookup costs, not a vectorised batch's share.
const INSTRUCTION_MODE: &str = "one-at-a-time";
/// The mode counted beside it since format 3: grouped, the reference's
/// harness, whose instructions per lookup set beside the reference's own
/// ([`reference_instructions`]) say where a gap comes from.
const GROUPED_MODE: &str = "grouped";
/// The shortest in-generator run by default. Why not the protocol's 0.5 s:
/// 33 techniques by 12 workloads by 3 rounds took 19-23 minutes at 0.5 s
/// (the Zen 5 and Emerald Rapids records of 2026-11-29/30), more than
/// half of the 40 minutes a whole run may take with the lead beside it;
/// the runs are in-process repeats of one depth (no start-up inside the
/// time), so a shorter run only adds noise, which the rounds show.
const GENERATOR_MIN_SECONDS: f64 = 0.3;
/// How many of the techniques fastest in the generator's probe calibrate
/// its workloads (see [`fastest_in_generator`]).
const CALIBRATION_CANDIDATES: usize = 3;
/// Inputs per pass (`quince::sliders::lookups::INPUTS`; every isolated
/// run's JSON is checked against it).
const INPUTS: u64 = 4096;
/// Lookups per pass in grouped mode (`GROUPS * PER_OCCUPANCY`: 341
/// occupancies of twelve squares).
pub(crate) const GROUPED_INPUTS: u64 = 341 * 12;

struct Options {
    rounds: usize,
    techniques: Option<Vec<String>>,
    reference: Option<PathBuf>,
    reference_scalar: Option<PathBuf>,
    reference_source: Option<PathBuf>,
    reference_repeat: Option<usize>,
    peers: peers::Programs,
    peer_rounds: usize,
    min_seconds: f64,
    generator: bool,
    callgrind: bool,
    allow_dirty: bool,
}

fn parse(args: &[String]) -> Result<Option<Options>> {
    let mut o = Options {
        rounds: 3,
        techniques: None,
        reference: None,
        reference_scalar: None,
        reference_source: None,
        reference_repeat: None,
        peers: peers::Programs::default(),
        peer_rounds: peers::DEFAULT_ROUNDS,
        min_seconds: GENERATOR_MIN_SECONDS,
        generator: true,
        callgrind: true,
        allow_dirty: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--rounds" => o.rounds = positive("--rounds", it.next())?,
            "--techniques" => {
                let list = it
                    .next()
                    .ok_or("--techniques needs a list, e.g. hq,magic")?;
                o.techniques = Some(list.split(',').map(|t| t.trim().to_string()).collect());
            }
            flag @ ("--reference" | "--reference-scalar") => {
                let p = PathBuf::from(it.next().ok_or(format!("{flag} needs a path"))?);
                if !p.is_file() {
                    return Err(format!("{flag}: {} is not a file", p.display()));
                }
                if flag == "--reference" {
                    o.reference = Some(p);
                } else {
                    o.reference_scalar = Some(p);
                }
            }
            "--reference-source" => {
                let p = PathBuf::from(it.next().ok_or("--reference-source needs a git dir")?);
                if !p.join("HEAD").is_file() {
                    return Err(format!(
                        "--reference-source: {} is not a git dir (no HEAD file in it)",
                        p.display()
                    ));
                }
                o.reference_source = Some(p);
            }
            "--reference-repeat" => {
                o.reference_repeat = Some(positive("--reference-repeat", it.next())?)
            }
            flag @ ("--gigantua" | "--mperft" | "--templechess") => {
                let p = PathBuf::from(it.next().ok_or(format!("{flag} needs a path"))?);
                if !p.is_file() {
                    return Err(format!("{flag}: {} is not a file", p.display()));
                }
                let slot = match flag {
                    "--gigantua" => &mut o.peers.gigantua,
                    "--mperft" => &mut o.peers.mperft,
                    _ => &mut o.peers.templechess,
                };
                *slot = Some(p);
            }
            "--peer-rounds" => o.peer_rounds = positive("--peer-rounds", it.next())?,
            "--min-seconds" => {
                let text = it.next().ok_or("--min-seconds needs a number of seconds")?;
                o.min_seconds = text
                    .parse::<f64>()
                    .ok()
                    .filter(|s| (0.05..=10.0).contains(s))
                    .ok_or(format!(
                        "--min-seconds: '{text}' is not a number of seconds from 0.05 to 10"
                    ))?;
            }
            "--no-generator" => o.generator = false,
            "--no-callgrind" => o.callgrind = false,
            "--allow-dirty" => o.allow_dirty = true,
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(None);
            }
            other => return Err(format!("atlas: unknown option '{other}' (see --help)")),
        }
    }
    if o.reference_repeat.is_some() && o.reference.is_none() && o.reference_scalar.is_none() {
        return Err("--reference-repeat needs --reference and/or --reference-scalar".into());
    }
    if o.peers.any() && !o.generator {
        return Err(
            "--gigantua, --mperft and --templechess time the in-generator view's fastest technique: they cannot go with --no-generator"
                .into(),
        );
    }
    Ok(Some(o))
}

/// One technique's facts on this CPU.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct TechniqueFacts {
    pub name: String,
    pub table_bytes: u64,
    /// The smallest cache level the tables fit in on this CPU.
    pub fits: String,
    /// Instructions per queen lookup (callgrind, the x86-64-v3 build, in
    /// [`AtlasRecord::instruction_mode`]); none where that build cannot
    /// run the technique.
    pub instructions_per_lookup: Option<f64>,
    /// The same in grouped mode (format 3).
    #[serde(default)]
    pub instructions_per_grouped_lookup: Option<f64>,
}

/// The isolated view: MQueens/s of every technique in every round.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Isolated {
    pub passes: u64,
    pub lookups_per_run: u64,
    pub rounds: usize,
    pub order: String,
    /// technique -> MQueens/s per round, batch mode (the compiler may
    /// vectorise across lookups; the only mode of format 1 records).
    pub mqueens_per_s: BTreeMap<String, Vec<f64>>,
    /// technique -> MQueens/s per round, one lookup at a time (format 2).
    #[serde(default)]
    pub one_at_a_time: BTreeMap<String, Vec<f64>>,
    /// technique -> MQueens/s per round, twelve squares per occupancy
    /// (format 2).
    #[serde(default)]
    pub grouped: BTreeMap<String, Vec<f64>>,
    /// The command of one run, `{technique}` standing for the name (and
    /// `{mode}` for the mode, format 2).
    pub command: String,
}

/// An atlas record: one CPU, one commit, every technique.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct AtlasRecord {
    pub kind: String,
    pub format_version: u32,
    pub commit: CommitInfo,
    pub date_utc: String,
    pub host: Host,
    /// The CPU model as the atlas names its column.
    pub cpu: String,
    pub rustc: String,
    /// `RUSTFLAGS` of the timed build, and of the callgrind build.
    pub timing_rustflags: String,
    pub instruction_rustflags: Option<String>,
    /// The `quince lookups --mode` callgrind counted (format 2; format 1
    /// counted batch).
    #[serde(default)]
    pub instruction_mode: Option<String>,
    pub valgrind: Option<String>,
    pub features: String,
    pub techniques: Vec<TechniqueFacts>,
    /// Techniques this CPU cannot run, with the features they need.
    pub left_out: Vec<(String, String)>,
    pub isolated: Isolated,
    /// Bulk and full-make perft, every technique a contender (none when
    /// run with `--no-generator`).
    pub generator: Option<Timings>,
    pub generator_command_lines: BTreeMap<String, BTreeMap<String, String>>,
    pub reference: Option<reference::ReferenceRun>,
    /// The reference built with clang's vectorisers off (format 2).
    #[serde(default)]
    pub reference_scalar: Option<reference::ReferenceRun>,
    /// The reference's instructions per grouped lookup (format 3, with
    /// `--reference-source`).
    #[serde(default)]
    pub reference_instructions: Option<reference_instructions::ReferenceInstructions>,
    /// The reference's own code timed in Quince's grouped workload, round
    /// by round beside Quince's grouped runs (format 4, with
    /// `--reference-source`).
    #[serde(default)]
    pub reference_same_workload: Option<same_workload::SameWorkload>,
    /// The generator's lead: the fastest technique against the C/C++
    /// perft programs (format 4, with `--gigantua` and the others).
    #[serde(default)]
    pub peers: Option<Comparison>,
    /// Wall seconds of each phase, in the order run (format 4): where a
    /// run's time goes, against the 40-minute target.
    #[serde(default)]
    pub phase_seconds: Vec<(String, f64)>,
    pub run_seconds: f64,
}

impl AtlasRecord {
    pub fn file_name(&self) -> String {
        let cpu = reference::slug(&self.cpu);
        format!(
            "atlas-{cpu}-{}-{}.json",
            &self.date_utc[..10],
            self.commit.short
        )
    }
}

/// Every atlas record in `dir`, with its file name, oldest first.
pub fn load_from(dir: &Path) -> Result<Vec<(String, AtlasRecord)>> {
    let mut out: Vec<(String, AtlasRecord)> = crate::record::load_json(dir, "atlas-")?;
    for (name, r) in &out {
        // Format 2 added fields with defaults: format 1 records still read.
        if !(1..=FORMAT_VERSION).contains(&r.format_version) {
            return Err(format!(
                "{name}: atlas format_version {} (this xtask reads 1 to {FORMAT_VERSION})",
                r.format_version
            ));
        }
    }
    out.sort_by(|a, b| a.1.date_utc.cmp(&b.1.date_utc));
    Ok(out)
}

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

/// `quince lookups --list`: (name, table bytes) compiled, and the left-out
/// ones with what they need.
type Listing = (Vec<(String, u64)>, Vec<(String, String)>);

fn list(quince: &Path) -> Result<Listing> {
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

fn fits(bytes: u64, host: &Host) -> &'static str {
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
const MODES: [(&str, u64); 3] = [
    ("batch", INPUTS),
    ("one-at-a-time", INPUTS),
    ("grouped", GROUPED_INPUTS),
];

/// One isolated run: MQueens/s.
fn lookups(quince: &Path, technique: &str, mode: &str, passes: u64) -> Result<f64> {
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
fn instructions_per_lookup(
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

/// The [`CALIBRATION_CANDIDATES`] techniques fastest in a short probe of
/// the generator: Kiwipete (`kind` perft: bulk at depth 5, full make at
/// depth 4 three times over, a few tenths of a second), each run twice,
/// the shorter kept.
fn fastest_in_generator<'a>(
    contenders: &'a [Contender],
    positions: &[Position],
    kind: &str,
) -> Result<Vec<&'a Contender>> {
    let kiwipete = positions
        .iter()
        .find(|p| p.name == "kiwipete")
        .ok_or("no kiwipete among the standard positions")?;
    let (depth, repeat) = if kind == "bulk" { (5, 1) } else { (4, 3) };
    let probe = measure::Workload {
        id: format!("probe-kiwipete-{kind}-d{depth}x{repeat}"),
        position: "kiwipete".into(),
        fen: kiwipete.fen.to_string(),
        kind: kind.into(),
        depth,
        repeat,
        nodes: kiwipete.counts[depth as usize - 1],
    };
    let mut timed = Vec::new();
    for c in contenders {
        let t = c.run(&probe)?.min(c.run(&probe)?);
        timed.push((t, c));
    }
    timed.sort_by(|a, b| a.0.total_cmp(&b.0));
    let chosen: Vec<&Contender> = timed
        .iter()
        .take(CALIBRATION_CANDIDATES)
        .map(|(_, c)| *c)
        .collect();
    progress(&format!(
        "{kind} calibrated on {}",
        chosen
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    Ok(chosen)
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
        let sha = sha256(&lab_perft)?;
        let contenders: Vec<Contender> = names
            .iter()
            .map(|name| Contender {
                name: name.clone(),
                argv: vec![
                    lab_perft.display().to_string(),
                    format!("quince:{name}"),
                    "{fen}".into(),
                    "{depth}".into(),
                    "{repeat}".into(),
                    "{kind}".into(),
                ],
                cwd: None,
                sha256: sha.clone(),
                version: format!("{} with --features all-sliders", checkout.commit.short),
            })
            .collect();
        // Calibrate on the techniques fastest *in the generator*, found
        // by a short probe of each (Kiwipete, one process, the best of
        // two), keeping for each position the longest workload any of
        // them needs. The fastest alone is not the fastest inside: the
        // first Zen 5 run calibrated on the isolated winner and saw a
        // quarter of the runs under the minimum.
        let mut workloads: Vec<measure::Workload> = Vec::new();
        for kind in ["bulk", "full"] {
            let candidates = fastest_in_generator(&contenders, &positions, kind)?;
            let mut longest: Vec<measure::Workload> = Vec::new();
            for c in candidates {
                let found = measure::calibrate_to(
                    o.min_seconds,
                    c,
                    &positions,
                    kind,
                    |_| 3,
                    measure::Repeat::InProcess,
                )?;
                if longest.is_empty() {
                    longest = found;
                    continue;
                }
                for (keep, new) in longest.iter_mut().zip(found) {
                    let leaves = |w: &measure::Workload| w.nodes * u64::from(w.repeat);
                    if leaves(&new) > leaves(keep) {
                        *keep = new;
                    }
                }
            }
            workloads.extend(longest);
        }
        let timings = measure::paired_rounds_to(o.min_seconds, &contenders, &workloads, o.rounds)?;
        generator_command_lines = measure::command_lines(&contenders, &workloads);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options() {
        let args = |s: &[&str]| s.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        let o = parse(&args(&[
            "--rounds",
            "5",
            "--techniques",
            "hq,magic",
            "--no-callgrind",
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(o.rounds, 5);
        assert_eq!(
            o.techniques,
            Some(vec!["hq".to_string(), "magic".to_string()])
        );
        assert!(!o.callgrind && o.generator);
        assert!(parse(&args(&["--rounds", "0"])).is_err());
        assert!(parse(&args(&["--reference", "/no/such/file"])).is_err());
        assert!(parse(&args(&["--reference-scalar", "/no/such/file"])).is_err());
        assert!(parse(&args(&["--reference-scalar"])).is_err());
        assert!(parse(&args(&["--bogus"])).is_err());
        assert!(parse(&args(&["-h"])).unwrap().is_none());
        // The C programs must exist, and need the in-generator view.
        assert!(parse(&args(&["--gigantua", "/no/such/file"])).is_err());
        let cargo_toml = crate::util::root().join("Cargo.toml");
        let file = cargo_toml.to_str().unwrap();
        let o = parse(&args(&["--mperft", file, "--peer-rounds", "3"]))
            .unwrap()
            .unwrap();
        assert!(o.peers.any() && o.peers.mperft.is_some() && o.peer_rounds == 3);
        let err = parse(&args(&["--templechess", file, "--no-generator"]))
            .err()
            .unwrap();
        assert!(err.contains("--no-generator"), "{err}");
        let o = parse(&args(&["--min-seconds", "0.5"])).unwrap().unwrap();
        assert_eq!(o.min_seconds, 0.5);
        assert_eq!(
            parse(&args(&[])).unwrap().unwrap().min_seconds,
            GENERATOR_MIN_SECONDS
        );
        for bad in ["0", "abc", "-1", "11"] {
            assert!(parse(&args(&["--min-seconds", bad])).is_err(), "{bad}");
        }
        // A directory that is not a git dir is refused up front.
        let err = parse(&args(&["--reference-source", "src"])).err().unwrap();
        assert!(err.contains("not a git dir"), "{err}");
        let git_dir = crate::util::root().join(".git");
        if git_dir.join("HEAD").is_file() {
            let o = parse(&args(&["--reference-source", git_dir.to_str().unwrap()]))
                .unwrap()
                .unwrap();
            assert_eq!(o.reference_source, Some(git_dir));
        }
    }
}
