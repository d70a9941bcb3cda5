//! The field's reference comparison on the same CPU: Gigantua/Chess_Movegen
//! (`movegen_compare`, built by `../shared/chess-movegen/build.sh`), run
//! once, its single-threaded table parsed, and its figure set beside
//! Quince's for every technique both have ([`SAME_TECHNIQUE`]).
//!
//! Its figure is million queen lookups per second over random squares and
//! occupancies with a simulated hash-table cache pressure, its own
//! workload, not Quince's fixed set: the two rates compare the
//! implementations, each on its own harness, on one CPU.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde::{Deserialize, Serialize};

use crate::measure::host::sha256;
use crate::util::Result;

/// Quince's technique and the row of Chess_Movegen's table that is the
/// same technique (from each Quince file's header and Chess_Movegen's
/// names). A Quince technique absent here has no counterpart there.
pub const SAME_TECHNIQUE: &[(&str, &str)] = &[
    ("hq", "Hyperbola Quintessence o^(o-2r)"),
    ("magic", "Fancy Magic BB - Variable shift"),
    ("pext", "Pext constexpr"),
    ("pext-emulated", "Pext Emulated"),
    ("split-pext", "Split Pext"),
    ("sissy", "SISSY Bitboards"),
    (
        "kindergarten-super-sissy",
        "Kindergarten Super SISSY Bitboards",
    ),
    ("classical", "Classical Bob-Mike"),
    ("obstruction", "Obstruction Difference"),
    ("sbamg", "SBAMG o^(o-3cbn)"),
    ("slide-arithmetic", "Slide Arithmetic"),
    ("leorik", "Leorik"),
    ("qbb", "QBBEngine"),
    ("bitrotation", "Bitrotation"),
    ("genetic-obstruction", "Genetic Obstruction Difference"),
    ("kindergarten", "Kindergarten"),
    ("plain-magic", "Plain Magic BB"),
    ("black-magic", "Black Magic BB - Fixed shift"),
    ("kogge-stone", "Kogge-Stone"),
    ("dumb7", "Dumb7 Fill"),
    ("rotated", "Rotated Bitboards"),
    ("galois-field", "GaloisField - AVX512"),
    ("avx2-shift", "AVX Branchless Shift"),
    ("switch", "Reference (Switch Lookup)"),
    ("bob-mike", "Advanced Bob-Mike"),
    ("exploding", "Exploding Bitboards"),
    ("hypercube", "HyperCube"),
    ("folding-hash", "FoldingHash - 4x fancy magic"),
    ("spectral-magic", "Spectral Magic Switched"),
];

/// One run of the reference program.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct ReferenceRun {
    pub program: String,
    pub sha256: String,
    /// Its whole output, kept so the parse can be checked.
    pub output: String,
    pub seconds: f64,
    /// Its single-threaded table: row name -> MQueens/s.
    pub mqueens_per_s: BTreeMap<String, f64>,
    /// Quince's technique -> the reference's row name, for the rows found.
    pub same_technique: BTreeMap<String, String>,
}

/// Runs `bin` (in its own folder) and parses its first table.
pub fn run(bin: &Path) -> Result<ReferenceRun> {
    eprintln!(
        "[atlas] running the reference {} (a few minutes, one thread)",
        bin.display()
    );
    let started = std::time::Instant::now();
    let mut cmd = Command::new(bin);
    if let Some(dir) = bin.parent() {
        cmd.current_dir(dir);
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    let output = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        return Err(format!("{} failed ({})", bin.display(), out.status));
    }
    let rates = parse(&output);
    if rates.is_empty() {
        return Err(format!("no table in the output of {}", bin.display()));
    }
    let same_technique = SAME_TECHNIQUE
        .iter()
        .filter(|(_, theirs)| rates.contains_key(*theirs))
        .map(|(ours, theirs)| (ours.to_string(), theirs.to_string()))
        .collect();
    Ok(ReferenceRun {
        program: "Gigantua/Chess_Movegen movegen_compare".into(),
        sha256: sha256(bin)?,
        output,
        seconds,
        mqueens_per_s: rates,
        same_technique,
    })
}

/// The first table after a `Name  Performance` header: each row's name
/// (up to the first run of two spaces) and rate. Later tables (the
/// multithreaded run) are not read.
pub fn parse(output: &str) -> BTreeMap<String, f64> {
    let mut rates = BTreeMap::new();
    let mut in_table = false;
    for line in output.lines() {
        if line.starts_with("Name ") && line.contains("Performance") {
            if in_table {
                break;
            }
            in_table = true;
            continue;
        }
        if !in_table {
            continue;
        }
        let Some((name, rest)) = line.split_once("  ") else {
            if !rates.is_empty() && line.trim().is_empty() {
                break;
            }
            continue;
        };
        // A name as long as its column is followed by one space only:
        // then the rate is the name's last word.
        let (name, rate) = match name.rsplit_once(' ') {
            Some((head, last)) if last.parse::<f64>().is_ok() => (head, last.parse().ok()),
            _ => (
                name,
                rest.split_whitespace().next().and_then(|r| r.parse().ok()),
            ),
        };
        if let Some(rate) = rate {
            rates.insert(name.trim().to_string(), rate);
        } else if !rates.is_empty() {
            break;
        }
    }
    rates
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_first_table_only() {
        let text = "Verify Engines...OK!\n\nAMD EPYC\n\nMillion Lookups/s ...:\n\
            Name                               Performance [MQueens/s]       Tablesize\n\
            Hyperbola Quintessence o^(o-2r)    596.620467                    256     [2kb]\n\
            Kogge-Stone                        783.932888                    0       [0kb]\n\
            Kindergarten Super SISSY Bitboards 310.022199                    132    [1kb]\n\
            \n\
            Multithreaded:\n\
            Name                               Performance [MQueens/s]\n\
            Kogge-Stone                        9999.0\n";
        let rates = parse(text);
        assert_eq!(rates.len(), 3);
        assert_eq!(rates["Kindergarten Super SISSY Bitboards"], 310.022199);
        assert_eq!(rates["Kogge-Stone"], 783.932888);
        assert_eq!(rates["Hyperbola Quintessence o^(o-2r)"], 596.620467);
    }

    fn run_of(sha: &str, rate: f64) -> ReferenceRun {
        ReferenceRun {
            program: "movegen_compare".into(),
            sha256: sha.into(),
            output: String::new(),
            seconds: 1.0,
            mqueens_per_s: BTreeMap::from([("Kogge-Stone".to_string(), rate)]),
            same_technique: BTreeMap::from([(
                "kogge-stone".to_string(),
                "Kogge-Stone".to_string(),
            )]),
        }
    }

    #[test]
    fn pooled_runs_give_the_median_and_range_of_one_binary() {
        let runs = [
            run_of("a", 100.0),
            run_of("a", 90.0),
            run_of("b", 10.0),
            run_of("a", 120.0),
        ];
        let p = pooled(&runs, "kogge-stone").unwrap();
        assert_eq!(
            (p.row.as_str(), p.median, p.lo, p.hi, p.runs),
            ("Kogge-Stone", 100.0, 90.0, 120.0, 3)
        );
        assert!(pooled(&runs, "hq").is_none());
        assert!(pooled(&[], "kogge-stone").is_none());
        assert_eq!(
            slug("AMD Zen 5 (family 26 model 2)"),
            "amd-zen-5-family-26-model-2"
        );
    }
}

/// Repeated runs of the reference on one CPU (`atlas --reference-repeat
/// N`), `reports/data/reference-<cpu>-<date>.json`: one run per atlas
/// record moves by about a tenth between runs, too much to call a gap of
/// that size; the atlas page pools every run of the same binary on the
/// same CPU model and quotes their median and range.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct ReferenceRecord {
    /// Always `"reference"`.
    pub kind: String,
    pub format_version: u32,
    pub date_utc: String,
    pub host: crate::measure::host::Host,
    /// The CPU model, as the atlas names it.
    pub cpu: String,
    /// The default build's runs and the scalar build's, alternating when
    /// both were given.
    pub runs: Vec<ReferenceRun>,
    pub scalar_runs: Vec<ReferenceRun>,
    pub run_seconds: f64,
}

pub const REFERENCE_KIND: &str = "reference";
pub const REFERENCE_FORMAT_VERSION: u32 = 1;

impl ReferenceRecord {
    pub fn file_name(&self) -> String {
        format!(
            "reference-{}-{}.json",
            slug(&self.cpu),
            &self.date_utc[..10]
        )
    }
}

/// `AMD Zen 5 (family 26 model 2)` as `amd-zen-5-family-26-model-2`.
pub fn slug(cpu: &str) -> String {
    cpu.to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

/// Runs the reference `runs` times (each build in turn), writes the
/// record into `dir` and returns its path.
pub fn repeat(
    default: Option<&Path>,
    scalar: Option<&Path>,
    runs: usize,
    dir: &Path,
) -> Result<std::path::PathBuf> {
    let started = std::time::Instant::now();
    let host = crate::measure::host::host();
    let mut record = ReferenceRecord {
        kind: REFERENCE_KIND.into(),
        format_version: REFERENCE_FORMAT_VERSION,
        date_utc: crate::measure::host::now_utc(),
        cpu: crate::measure::host::family_name(&host),
        host,
        runs: Vec::new(),
        scalar_runs: Vec::new(),
        run_seconds: 0.0,
    };
    for k in 0..runs {
        eprintln!("[atlas] reference run {}/{runs}", k + 1);
        if let Some(bin) = default {
            record.runs.push(run(bin)?);
        }
        if let Some(bin) = scalar {
            record.scalar_runs.push(run(bin)?);
        }
    }
    record.run_seconds = started.elapsed().as_secs_f64();
    crate::record::write_json(dir, &record.file_name(), &record)
}

/// Every reference record in `dir`, oldest first.
pub fn load_from(dir: &Path) -> Result<Vec<(String, ReferenceRecord)>> {
    crate::record::load_kind(
        dir,
        "reference-",
        REFERENCE_KIND,
        REFERENCE_FORMAT_VERSION,
        |r: &ReferenceRecord| crate::record::Header {
            kind: &r.kind,
            format_version: r.format_version,
            date_utc: &r.date_utc,
        },
    )
}

/// The reference's figure for one Quince technique over several runs of
/// one binary: the row's name, the median and the range, and how many
/// runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Pooled {
    pub row: String,
    pub median: f64,
    pub lo: f64,
    pub hi: f64,
    pub runs: usize,
}

/// Pools Quince technique `technique`'s counterpart over `runs`, keeping
/// only the runs of the first run's binary (same SHA-256): a rebuilt
/// reference is another program.
pub fn pooled<'a>(
    runs: impl IntoIterator<Item = &'a ReferenceRun>,
    technique: &str,
) -> Option<Pooled> {
    let mut runs = runs.into_iter().peekable();
    let sha = runs.peek()?.sha256.clone();
    let mut row = None;
    let mut values = Vec::new();
    for run in runs.filter(|r| r.sha256 == sha) {
        let Some(name) = run.same_technique.get(technique) else {
            continue;
        };
        if let Some(&v) = run.mqueens_per_s.get(name) {
            row.get_or_insert_with(|| name.clone());
            values.push(v);
        }
    }
    let row = row?;
    values.sort_by(f64::total_cmp);
    Some(Pooled {
        row,
        median: crate::measure::stats::median(&values),
        lo: values[0],
        hi: values[values.len() - 1],
        runs: values.len(),
    })
}
