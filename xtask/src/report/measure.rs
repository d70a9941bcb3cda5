//! Measuring Quince against the peers: criterion (perft, all engines in
//! one process), paired rounds for move generation and make alone
//! (`examples/micro.rs`), gungraun instruction counts, and, given its
//! binary, Gigantua whole process against whole process.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use super::record::{Engine, FORMAT_VERSION, Figure, PeersRecord};
use super::{BENCH_DEPTHS, CriterionResults, Options, read_criterion};
use crate::util::{
    self, BMI2_FLAGS, Backend, Result, backends, cargo, has_bmi2, median, output, root,
    set_rustflags, status, workloads,
};

/// The peers in the benches, in the order they appear on the page.
pub const PEERS: [&str; 3] = ["cozy-chess", "shakmaty", "chess"];

/// Depths of the whole-process runs against Gigantua: 90-710 million
/// leaves, long enough (tenths of a second and up) that start-up is noise.
const PROCESS_DEPTHS: [(&str, u32); 6] = [
    ("start", 6),
    ("kiwipete", 5),
    ("pos3", 7),
    ("pos4", 6),
    ("pos5", 5),
    ("pos6", 5),
];

/// How the benches are built on this machine: Quince's fastest backend and
/// cozy-chess with its own PEXT where the CPU has BMI2 (each engine at its
/// best), else the defaults.
struct BenchBuild {
    features: &'static str,
    flags: &'static str,
    slider: &'static str,
    target_dir: PathBuf,
}

fn bench_build() -> BenchBuild {
    if has_bmi2() {
        BenchBuild {
            features: "pext,peers-pext",
            flags: BMI2_FLAGS,
            slider: "pext",
            target_dir: root().join("target").join("lab").join("bench"),
        }
    } else {
        BenchBuild {
            features: "hq",
            flags: "",
            slider: "hq",
            target_dir: util::default_target_dir(),
        }
    }
}

fn progress(step: &str, text: &str) {
    eprintln!("report [{step}] {text}");
}

/// Runs every measurement the options ask for; returns the record.
pub fn measure(opts: &Options) -> Result<PeersRecord> {
    let started = Instant::now();
    let date_utc = util::output(Command::new("date").args(["-u", "+%Y-%m-%dT%H:%M:%SZ"]))
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    let build = bench_build();
    let mut figures = Vec::new();
    let mut methods = Vec::new();
    let bench_cmd = |benches: &[&str], after: &[&str]| {
        let mut cmd = Command::new(cargo());
        cmd.current_dir(root())
            .env("CARGO_TARGET_DIR", &build.target_dir)
            .args([
                "bench",
                "--no-default-features",
                "--features",
                build.features,
            ]);
        for b in benches {
            cmd.args(["--bench", b]);
        }
        cmd.arg("--").args(after);
        set_rustflags(&mut cmd, build.flags);
        cmd
    };

    progress("1/3 criterion", "perft");
    let criterion_dir = build.target_dir.join("criterion");
    let _ = std::fs::remove_dir_all(&criterion_dir);
    status(&mut bench_cmd(
        &["perft"],
        &["--noplot", "^perft-(bulk|full)/"],
    ))?;
    let criterion = read_criterion(&criterion_dir);
    figures.extend(criterion_figures(&criterion, build.slider));
    methods.push(format!(
        "perft-bulk, perft-full: criterion medians (10 samples, 2 s each), every engine in one process on the same positions, one after the other: `RUSTFLAGS='{}' cargo bench --no-default-features --features {} --bench perft`. Bulk: the last ply counted, not made; full: every leaf move made.",
        build.flags, build.features
    ));

    // Move generation and make alone: paired rounds (`examples/micro.rs`),
    // not criterion's one-engine-after-another groups, whose ratios moved
    // between 0.9x and 2x from one run to the next on a shared machine.
    progress(
        "1/3 paired",
        "move generation and make alone, engines alternating",
    );
    let mut micro = Command::new(cargo());
    micro
        .current_dir(root())
        .env("CARGO_TARGET_DIR", &build.target_dir)
        .args([
            "run",
            "--release",
            "--quiet",
            "--no-default-features",
            "--features",
            build.features,
            "--example",
            "micro",
            "--",
            "--json",
            "--rounds",
            &MICRO_ROUNDS.to_string(),
        ]);
    set_rustflags(&mut micro, build.flags);
    figures.extend(micro_figures(&output(&mut micro)?)?);
    methods.push(format!(
        "movegen, make: `examples/micro.rs` (`RUSTFLAGS='{}' cargo run --release --no-default-features --features {} --example micro -- --rounds {MICRO_ROUNDS}`): every legal move of a fixed varied set of about 40 positions handed out (movegen), or made by copy-make (make; \"copy-make + key\": shakmaty also updating its Zobrist key, which the others keep in every make); each round runs every engine for about 20 ms in a rotating order, median over the rounds",
        build.flags, build.features
    ));

    if opts.gungraun {
        progress("2/3 gungraun", "instruction counts");
        if output(Command::new("gungraun-runner").arg("--version")).is_err() {
            eprintln!(
                "report: gungraun-runner is not installed (cargo install gungraun-runner --version 0.20.0 --locked): instruction counts skipped"
            );
        } else {
            let text = output(&mut bench_cmd(&["instructions"], &["--output-format=json"]))?;
            figures.extend(gungraun_figures(&text)?);
            methods.push(
                "instructions-bulk, instructions-full: gungraun (callgrind), the same perft run once per engine, setup excluded; deterministic for a given build".into(),
            );
        }
    }

    let mut engines = vec![Engine {
        name: "quince".into(),
        build: format!("this commit, `{}` backend", build.slider),
    }];
    engines.extend([
        Engine {
            name: "cozy-chess".into(),
            build: format!(
                "0.3 (crates.io){}",
                if build.features.contains("peers-pext") {
                    ", feature `pext`"
                } else {
                    ", default features"
                }
            ),
        },
        Engine {
            name: "shakmaty".into(),
            build: "0.30.1 (crates.io)".into(),
        },
        Engine {
            name: "chess".into(),
            build: "3.2 (crates.io)".into(),
        },
    ]);
    if let Some(gigantua) = &opts.gigantua {
        progress(
            "3/3 gigantua",
            "whole process against whole process, alternating",
        );
        let quince = quince_binary(&build)?;
        figures.extend(process_figures(&quince, gigantua, opts.rounds)?);
        engines.push(Engine {
            name: "gigantua".into(),
            build: format!(
                "{} (built with ../shared/gigantua/build.sh: g++ -O3 -march=native, PEXT)",
                gigantua.display()
            ),
        });
        methods.push(format!(
            "process-bulk: whole process against whole process (`quince perft --depth D --fen F` with the `{}` build, `giga FEN D EXPECTED`), alternating, median of {} rounds, minus the median of the same command at depth 1 (start-up)",
            build.slider, opts.rounds
        ));
    }
    eprintln!(
        "report: measured in {:.1} minutes",
        started.elapsed().as_secs_f64() / 60.0
    );
    let hash = util::git(&["rev-parse", "HEAD"]);
    let dirty = util::commit().ends_with("-dirty");
    Ok(PeersRecord {
        kind: "peers".into(),
        format_version: FORMAT_VERSION,
        commit: crate::lab::CommitInfo {
            short: hash.chars().take(12).collect(),
            hash,
            dirty,
        },
        date_utc,
        host: crate::lab::host(),
        rustc: output(Command::new("rustc").arg("-V"))
            .map(|s| s.trim().to_string())
            .unwrap_or_default(),
        rustflags: build.flags.into(),
        features: build.features.into(),
        quince_slider: build.slider.into(),
        engines,
        methods,
        figures,
    })
}

/// The criterion ids of the benches turned into figures. Quince's perft
/// benchmark is named `quince-<slider>`; the record calls it `quince`.
fn criterion_figures(results: &CriterionResults, slider: &str) -> Vec<Figure> {
    let mut out = Vec::new();
    let quince = format!("quince-{slider}");
    let positions = util::standard_positions().unwrap_or_default();
    for group in ["perft-bulk", "perft-full"] {
        for (pos, depth) in BENCH_DEPTHS {
            let nodes_ok = positions.iter().any(|(n, _, _)| *n == pos);
            for engine in std::iter::once(quince.as_str()).chain(PEERS) {
                let id = format!("{group}/{pos}/{engine}");
                if let Some(v) = per_second(results, &id).filter(|_| nodes_ok) {
                    out.push(Figure {
                        group: group.into(),
                        workload: format!("{pos} d{depth}"),
                        engine: if engine == quince {
                            "quince".into()
                        } else {
                            engine.into()
                        },
                        value: round(v, 1),
                        unit: "Mnodes/s".into(),
                    });
                }
            }
        }
    }
    // movegen/<engine> and make/<engine>-<style>: the workload is the
    // benchmark's variant (`quince-count`, `copy`), the engine its owner.
    for (id, _) in results.iter() {
        let Some((group, name)) = id.split_once('/') else {
            continue;
        };
        if group != "movegen" && group != "make" {
            continue;
        }
        let engine = std::iter::once("quince")
            .chain(PEERS)
            .filter(|e| name.starts_with(e))
            .max_by_key(|e| e.len())
            .unwrap_or(name);
        let variant = name[engine.len()..].trim_start_matches('-');
        let workload = match (group, variant) {
            ("movegen", "") => "legal moves listed".to_string(),
            ("movegen", "count") => "legal moves counted".to_string(),
            ("make", "unmake") => "make + unmake".to_string(),
            ("make", "copy") => "copy-make".to_string(),
            ("make", "play") => "play (child returned)".to_string(),
            (_, v) => v.to_string(),
        };
        if let Some(v) = per_second(results, id) {
            out.push(Figure {
                group: group.into(),
                workload,
                engine: engine.into(),
                value: round(v, 1),
                unit: "Mmoves/s".into(),
            });
        }
    }
    out
}

/// Rounds of `examples/micro.rs` in a report.
const MICRO_ROUNDS: usize = 31;

/// `micro --json` lines (`{"workload":"make","engine":"quince",
/// "mmoves_per_s":..}`) as figures of the `movegen` and `make` groups.
fn micro_figures(stdout: &str) -> Result<Vec<Figure>> {
    let mut out = Vec::new();
    for line in stdout.lines().filter(|l| l.starts_with('{')) {
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("micro: bad JSON line {line}: {e}"))?;
        let (group, workload) = match v["workload"].as_str() {
            Some("movegen") => ("movegen", "legal moves listed"),
            Some("make") => ("make", "copy-make"),
            Some("make + key") => ("make", "copy-make + key"),
            _ => continue,
        };
        let (Some(engine), Some(value)) = (v["engine"].as_str(), v["mmoves_per_s"].as_f64()) else {
            return Err(format!("micro: line without engine or rate: {line}"));
        };
        out.push(Figure {
            group: group.into(),
            workload: workload.into(),
            engine: engine.into(),
            value: round(value, 1),
            unit: "Mmoves/s".into(),
        });
    }
    if out.is_empty() {
        return Err("micro printed no figures".into());
    }
    Ok(out)
}

/// Million elements per second of a criterion benchmark.
fn per_second(results: &CriterionResults, id: &str) -> Option<f64> {
    let &(elements, ns) = results.get(id)?;
    (ns > 0.0 && elements > 0).then(|| elements as f64 / ns * 1e3)
}

/// gungraun's JSON lines: `<engine>_<bulk|full>` benchmarks with ids
/// `<kind>_<index of BENCH_DEPTHS>` become instructions per node.
fn gungraun_figures(stdout: &str) -> Result<Vec<Figure>> {
    let positions = util::standard_positions()?;
    let mut out = Vec::new();
    for line in stdout.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let function = v["function_name"].as_str().unwrap_or("");
        let id = v["id"].as_str().unwrap_or("");
        let Some((engine, kind)) = function.rsplit_once('_') else {
            continue;
        };
        if kind != "bulk" && kind != "full" {
            continue;
        }
        let Some(index) = id
            .strip_prefix(&format!("{kind}_"))
            .and_then(|i| i.parse::<usize>().ok())
        else {
            continue;
        };
        let Some(&(pos, depth)) = BENCH_DEPTHS.get(index) else {
            continue;
        };
        let nodes = positions
            .iter()
            .find(|(n, _, _)| *n == pos)
            .and_then(|(_, _, c)| c.get(depth as usize - 1).copied());
        if let (Some(ir), Some(nodes)) = (super::find_ir(&v), nodes) {
            out.push(Figure {
                group: format!("instructions-{kind}"),
                workload: format!("{pos} d{depth}"),
                engine: if engine == "cozy" {
                    "cozy-chess".into()
                } else {
                    engine.into()
                },
                value: round(ir as f64 / nodes as f64, 2),
                unit: "instructions/node".into(),
            });
        }
    }
    Ok(out)
}

/// Quince's CLI with the benches' backend and flags (the lab's per-backend
/// build, `target/lab/bin/quince-<slider>`).
fn quince_binary(build: &BenchBuild) -> Result<PathBuf> {
    backends()
        .into_iter()
        .find(|b: &Backend| b.name == build.slider)
        .ok_or_else(|| format!("backend {} not known to the lab", build.slider))?
        .build()
}

/// Whole-process wall seconds of one command.
fn time(program: &Path, args: &[String]) -> Result<f64> {
    let started = Instant::now();
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(format!(
            "{} {} failed ({}): a wrong count, or a bad binary",
            program.display(),
            args.join(" "),
            out.status
        ));
    }
    Ok(seconds)
}

/// Quince and Gigantua alternating (which one goes first swaps each round);
/// Mnodes/s at the median seconds of each, net of the median seconds of the
/// same process at depth 1 (start-up: Gigantua fills its tables then).
fn process_figures(quince: &Path, gigantua: &Path, rounds: usize) -> Result<Vec<Figure>> {
    let mut out = Vec::new();
    let positions = util::standard_positions()?;
    for w in workloads(&PROCESS_DEPTHS, true)? {
        let d1 = positions
            .iter()
            .find(|(n, _, _)| *n == w.position)
            .and_then(|(_, _, c)| c.first().copied())
            .ok_or_else(|| format!("{}: no depth-1 count", w.position))?;
        let q_args = |depth: u32| -> Vec<String> {
            vec![
                "perft".into(),
                "--depth".into(),
                depth.to_string(),
                "--fen".into(),
                w.fen.clone(),
            ]
        };
        let g_args =
            |depth: u32, nodes: u64| vec![w.fen.clone(), depth.to_string(), nodes.to_string()];
        let (mut q, mut g, mut q1, mut g1) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for round in 0..rounds {
            let mut quince_turn = || -> Result<()> {
                q.push(time(quince, &q_args(w.depth))?);
                q1.push(time(quince, &q_args(1))?);
                Ok(())
            };
            if round % 2 == 0 {
                quince_turn()?;
                g.push(time(gigantua, &g_args(w.depth, w.nodes))?);
                g1.push(time(gigantua, &g_args(1, d1))?);
            } else {
                g.push(time(gigantua, &g_args(w.depth, w.nodes))?);
                g1.push(time(gigantua, &g_args(1, d1))?);
                quince_turn()?;
            }
        }
        let workload = format!("{} d{}", w.position, w.depth);
        let net = |runs: &mut Vec<f64>, startup: &mut Vec<f64>| {
            (median(runs) - median(startup)).max(1e-6)
        };
        let (qs, gs) = (net(&mut q, &mut q1), net(&mut g, &mut g1));
        eprintln!(
            "report:   {workload}: quince {qs:.3} s, gigantua {gs:.3} s (medians, start-up subtracted: quince {:.4} s, gigantua {:.4} s)",
            median(&mut q1),
            median(&mut g1)
        );
        for (engine, seconds) in [("quince", qs), ("gigantua", gs)] {
            out.push(Figure {
                group: "process-bulk".into(),
                workload: workload.clone(),
                engine: engine.into(),
                value: round(w.nodes as f64 / seconds / 1e6, 1),
                unit: "Mnodes/s".into(),
            });
        }
    }
    Ok(out)
}

fn round(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criterion_ids_become_figures() {
        let mut r = CriterionResults::new();
        r.insert("perft-bulk/start/quince-hq".into(), (197_281, 197_281.0));
        r.insert("perft-bulk/start/cozy-chess".into(), (197_281, 394_562.0));
        r.insert("movegen/quince-count".into(), (1000, 500.0));
        r.insert("make/cozy-chess-copy".into(), (1000, 2000.0));
        let f = criterion_figures(&r, "hq");
        let find = |g: &str, w: &str, e: &str| {
            f.iter()
                .find(|x| x.group == g && x.workload == w && x.engine == e)
                .map(|x| x.value)
        };
        assert_eq!(find("perft-bulk", "start d4", "quince"), Some(1000.0));
        assert_eq!(find("perft-bulk", "start d4", "cozy-chess"), Some(500.0));
        assert_eq!(
            find("movegen", "legal moves counted", "quince"),
            Some(2000.0)
        );
        assert_eq!(find("make", "copy-make", "cozy-chess"), Some(500.0));
    }

    #[test]
    fn micro_lines_become_figures() {
        let text = "round 3/3\n{\"workload\":\"make + key\",\"engine\":\"shakmaty\",\"ns_per_move\":12.5,\"mmoves_per_s\":80.0,\"rounds\":3}\n{\"workload\":\"movegen\",\"engine\":\"quince\",\"ns_per_move\":1.25,\"mmoves_per_s\":800.0,\"rounds\":3,\"per_round_ratio_to_best_peer\":1.6}";
        let f = micro_figures(text).unwrap();
        assert_eq!(f.len(), 2);
        assert_eq!(
            (
                f[0].group.as_str(),
                f[0].workload.as_str(),
                f[0].engine.as_str(),
                f[0].value
            ),
            ("make", "copy-make + key", "shakmaty", 80.0)
        );
        assert_eq!(
            (f[1].group.as_str(), f[1].workload.as_str(), f[1].value),
            ("movegen", "legal moves listed", 800.0)
        );
        assert!(micro_figures("nothing").is_err());
    }

    #[test]
    fn gungraun_lines_become_instructions_per_node() {
        let line = r#"{"function_name":"cozy_bulk","id":"bulk_0","profiles":[{"summaries":{"total":{"summary":{"Callgrind":{"Ir":{"values":{"new":1972810}}}}}}}]}"#;
        let f = gungraun_figures(line).unwrap();
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].engine, "cozy-chess");
        assert_eq!(f[0].workload, "start d4");
        assert_eq!(f[0].value, 10.0);
    }
}
