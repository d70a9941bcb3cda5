//! `cargo run -p xtask -- lab`: every sliding-attack backend against the
//! others, with the lab's protocol ([`crate::measure`]): each backend's
//! harness built from the measured commit with the same flags, paired
//! rounds of whole processes (at least 0.5 s each), callgrind instructions
//! per node, and each backend's table size. It writes
//! `reports/data/sliders-<date>-<commit>.json` and renders the pages
//! (`reports/sliders.md` shows the backends in tiers).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::measure::build::{build, rustflags};
use crate::measure::host::{Checkout, Host, host, now_utc, sha256, version_line};
use crate::measure::{self, Contender, DEFAULT_ROUNDS, Position, stats};
use crate::record::{BackendFacts, Comparison, LabRecord, Toolchain};
use crate::util::{
    ALL_BACKENDS, Result, backend_needs, cpu_flag, output, positive, standard_positions,
};

const HELP: &str = "\
usage: cargo run -p xtask -- lab [OPTIONS]

Builds every sliding-attack backend from the commit at HEAD (in a scratch
worktree), times bulk perft on the six standard positions with the lab's
protocol (paired rounds, the backends alternating, each run at least 0.5 s;
every round kept, median and interval per ratio), counts instructions per
node with callgrind, writes reports/data/sliders-<date>-<commit>.json and
renders the pages. Each backend is one build (about half a minute on 2
cores with the dependencies built); timing grows with backends and rounds.

A backend that needs instructions (BMI2, AVX2, AVX-512, GFNI) this CPU
lacks, or that the lab's build flags do not enable, is left out, with a
line on stderr saying why.

  --rounds N         paired rounds (default 7)
  --backends a,b,c   only these backends (default: all 33)
  --full             also time full-make perft (doubles the timing)
  --no-callgrind     skip the instruction counts
  --allow-dirty      measure the working tree as it is (the record is marked
                     dirty and report --check refuses it)";

struct Options {
    rounds: usize,
    backends: Vec<&'static str>,
    full: bool,
    callgrind: bool,
    allow_dirty: bool,
}

fn parse(args: &[String]) -> Result<Option<Options>> {
    let mut o = Options {
        rounds: DEFAULT_ROUNDS,
        backends: ALL_BACKENDS.to_vec(),
        full: false,
        callgrind: true,
        allow_dirty: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--rounds" => o.rounds = positive("--rounds", it.next())?,
            "--backends" => {
                let list = it.next().ok_or("--backends needs a list, e.g. hq,magic")?;
                o.backends = list
                    .split(',')
                    .map(|b| {
                        ALL_BACKENDS
                            .iter()
                            .copied()
                            .find(|x| *x == b.trim())
                            .ok_or_else(|| {
                                format!(
                                    "--backends: unknown backend '{b}' (known: {})",
                                    ALL_BACKENDS.join(", ")
                                )
                            })
                    })
                    .collect::<Result<_>>()?;
            }
            "--full" => o.full = true,
            "--no-callgrind" => o.callgrind = false,
            "--allow-dirty" => o.allow_dirty = true,
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(None);
            }
            other => return Err(format!("lab: unknown option '{other}' (see --help)")),
        }
    }
    // Only ask rustc for the build's target features when a backend needs any.
    let build_features = if o.backends.iter().any(|b| !backend_needs(b).is_empty()) {
        lab_target_features()?
    } else {
        Vec::new()
    };
    let (kept, left_out) = runnable(&o.backends, cpu_flag, |f| {
        build_features.iter().any(|t| t == f)
    });
    for (backend, why) in &left_out {
        eprintln!("[lab] leaving out {backend}: {why}");
    }
    o.backends = kept;
    if o.backends.len() < 2 {
        return Err("lab: at least two backends are needed for a comparison".into());
    }
    Ok(Some(o))
}

/// The target features the lab's builds enable (`target_feature` in
/// `rustc --print cfg` with [`rustflags`]): what `build.rs` checks a
/// technique's needs against.
fn lab_target_features() -> Result<Vec<String>> {
    let cfg = output(
        Command::new("rustc")
            .args(["--print", "cfg"])
            .args(rustflags().split_whitespace()),
    )?;
    Ok(cfg
        .lines()
        .filter_map(|l| l.strip_prefix("target_feature=\""))
        .map(|f| f.trim_end_matches('"').to_string())
        .collect())
}

/// Splits `backends` into those the lab can build and run here and those
/// it cannot, with why: a needed target feature (see `BACKENDS` in
/// `build.rs`) that the CPU lacks (`cpu_has`, a `/proc/cpuinfo` flag) or
/// that the lab's build flags do not enable (`build_has`; without it
/// `build.rs` stops the build).
fn runnable(
    backends: &[&'static str],
    cpu_has: impl Fn(&str) -> bool,
    build_has: impl Fn(&str) -> bool,
) -> (Vec<&'static str>, Vec<(&'static str, String)>) {
    let mut kept = Vec::new();
    let mut left_out = Vec::new();
    for &backend in backends {
        let needs = backend_needs(backend);
        let no_cpu: Vec<&str> = needs.iter().copied().filter(|f| !cpu_has(f)).collect();
        let no_build: Vec<&str> = needs.iter().copied().filter(|f| !build_has(f)).collect();
        if !no_cpu.is_empty() {
            left_out.push((backend, format!("this CPU lacks {}", no_cpu.join(", "))));
        } else if !no_build.is_empty() {
            let flags = match rustflags() {
                "" => "the default target".to_string(),
                f => format!("RUSTFLAGS='{f}'"),
            };
            left_out.push((
                backend,
                format!(
                    "the lab builds with {flags}, which does not enable {}",
                    no_build.join(", ")
                ),
            ));
        } else {
            kept.push(backend);
        }
    }
    (kept, left_out)
}

pub fn run(args: &[String]) -> Result<bool> {
    let Some(o) = parse(args)? else {
        return Ok(true);
    };
    let record = measure_backends(&o)?;
    let path = record.write()?;
    crate::render::announce(&path)?;
    Ok(true)
}

/// The smallest cache level `bytes` of tables fit in.
fn fits(bytes: u64, host: &Host) -> &'static str {
    if host.l1d_bytes.is_some_and(|l1| bytes <= l1) {
        "L1d"
    } else if host.l2_bytes.is_some_and(|l2| bytes <= l2) {
        "L2"
    } else {
        "beyond L2"
    }
}

fn measure_backends(o: &Options) -> Result<LabRecord> {
    let started = Instant::now();
    let date_utc = now_utc();
    let here = host();
    let checkout = Checkout::new(o.allow_dirty)?;
    let mut contenders = Vec::new();
    let mut facts = Vec::new();
    for backend in &o.backends {
        eprintln!("[lab] building {backend} at {}", checkout.commit.short);
        let built = build(&checkout.dir, backend, backend)?;
        let json = output(Command::new(&built.quince).args(["perft", "--json", "--depth", "1"]))?;
        let v: serde_json::Value =
            serde_json::from_str(json.trim()).map_err(|e| format!("perft --json: {e}"))?;
        let table_bytes = v["slider_table_bytes"]
            .as_u64()
            .ok_or("perft --json has no slider_table_bytes")?;
        facts.push(BackendFacts {
            name: backend.to_string(),
            table_bytes,
            fits: fits(table_bytes, &here).into(),
        });
        contenders.push(Contender {
            name: backend.to_string(),
            argv: vec![
                built.lab_perft.display().to_string(),
                "quince".into(),
                "{fen}".into(),
                "{depth}".into(),
                "{repeat}".into(),
                "{kind}".into(),
            ],
            cwd: None,
            sha256: sha256(&built.lab_perft)?,
            version: format!("{} with --features {backend}", checkout.commit.short),
        });
    }
    let positions = standard_positions()?;
    let positions: Vec<Position> = positions
        .iter()
        .map(|(name, fen, counts)| Position { name, fen, counts })
        .collect();

    // Instructions first: a valgrind that cannot run the binaries should
    // stop the run before the long timing, not after it.
    let mut instructions = Vec::new();
    if o.callgrind {
        for c in &contenders {
            instructions.extend(measure::instructions::bulk(
                Path::new(&c.argv[0]),
                "quince",
                &c.name,
                &positions,
            )?);
        }
    }

    // Calibrate on the backend expected fastest, so that every run of
    // every backend lasts at least the minimum.
    let fastest = contenders
        .iter()
        .find(|c| c.name == "pext")
        .unwrap_or(&contenders[0]);
    let mut workloads = measure::calibrate(
        fastest,
        &positions,
        "bulk",
        |_| 3,
        measure::Repeat::InProcess,
    )?;
    if o.full {
        workloads.extend(measure::calibrate(
            fastest,
            &positions,
            "full",
            |_| 3,
            measure::Repeat::InProcess,
        )?);
    }
    let timings = measure::paired_rounds(&contenders, &workloads, o.rounds)?;
    // The reference: the backend with the smallest geometric mean of its
    // median bulk seconds.
    let reference = contenders
        .iter()
        .filter_map(|c| {
            let medians = workloads.iter().filter(|w| w.kind == "bulk").map(|w| {
                timings
                    .seconds
                    .get(&w.id)
                    .and_then(|m| m.get(&c.name))
                    .map(|s| stats::median(s))
            });
            stats::geomean(medians.collect::<Option<Vec<f64>>>()?).map(|g| (c.name.clone(), g))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|x| x.0)
        .ok_or("no backend has timings")?;
    let command_lines = measure::command_lines(&contenders, &workloads);

    Ok(LabRecord {
        kind: "sliders".into(),
        format_version: crate::record::FORMAT_VERSION,
        commit: checkout.commit.clone(),
        date_utc,
        host: here,
        toolchain: Toolchain {
            rustc: version_line("rustc", "-V"),
            rustflags: rustflags().into(),
            features: "one backend feature per build".into(),
            gcc: None,
            valgrind: o.callgrind.then(|| version_line("valgrind", "--version")),
        },
        comparisons: vec![Comparison {
            name: "backends".into(),
            about: "bulk perft (and with --full, full-make perft) of Quince built with each sliding-attack backend, in examples/lab_perft.rs, each a whole process".into(),
            reference,
            contenders,
            timings,
            command_lines,
        }],
        instructions,
        backends: facts,
        deep: Vec::new(),
        search: Vec::new(),
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
            "9",
            "--backends",
            "hq,magic",
            "--full",
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(
            (o.rounds, o.backends, o.full),
            (9, vec!["hq", "magic"], true)
        );
        assert!(parse(&args(&["--backends", "hq,nope"])).is_err());
        assert!(parse(&args(&["--backends", "hq"])).is_err());
        assert!(parse(&args(&["-h"])).unwrap().is_none());
    }

    #[test]
    fn left_out_by_their_needs() {
        let everything = |_: &str| true;
        let (kept, left_out) = runnable(&ALL_BACKENDS, everything, everything);
        assert_eq!((kept.len(), left_out.len()), (33, 0));

        // A CPU without BMI2, AVX2, AVX-512 or GFNI runs the portable ones.
        let (kept, left_out) = runnable(&ALL_BACKENDS, |_| false, everything);
        let out: Vec<&str> = left_out.iter().map(|(b, _)| *b).collect();
        assert_eq!(
            out,
            [
                "pext",
                "pext-pdep",
                "split-pext",
                "galois-field",
                "avx512-fill",
                "avx2-shift"
            ]
        );
        assert_eq!(kept.len(), 27);
        assert!(left_out[0].1.contains("CPU lacks bmi2"));

        // An AVX-512 CPU, built for x86-64-v3: no AVX-512 or GFNI code.
        let v3 = |f: &str| ["bmi2", "avx2"].contains(&f);
        let (kept, left_out) = runnable(&ALL_BACKENDS, everything, v3);
        let out: Vec<&str> = left_out.iter().map(|(b, _)| *b).collect();
        assert_eq!(out, ["galois-field", "avx512-fill"]);
        assert!(kept.contains(&"pext") && kept.contains(&"avx2-shift"));
        assert!(left_out[1].1.contains("avx512f, avx512vl"));
    }
}
