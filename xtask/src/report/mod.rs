//! `cargo run -p xtask -- report`: Quince against its peers on this
//! machine, measured with the lab's protocol ([`crate::measure`]), written
//! as the record `reports/data/peers-<date>-<commit>.json`; then every
//! page rendered from the records ([`crate::render`]). `--render` and
//! `--check` only render.

use std::path::PathBuf;
use std::time::Instant;

use crate::measure::build::{build, rustflags};
use crate::measure::host::{Checkout, host, now_utc, peer_version, sha256, version_line};
use crate::measure::{self, Contender, DEFAULT_ROUNDS, Position, Repeat};
use crate::record::{Comparison, LabRecord, Toolchain};
use crate::util::{Result, existing_file, has_bmi2, positive, root, standard_positions};

const HELP: &str = "\
usage: cargo run -p xtask -- report [OPTIONS]

Measures Quince against its peers with the lab's protocol (paired rounds
of whole processes, alternating, each run at least 0.5 s; every round kept,
median and interval per ratio), writes reports/data/peers-<date>-<commit>.json
and renders every page from the records.

  --render            only render the pages and charts from reports/data/
  --check             render in memory; exit 1 naming the page and line of
                      any difference, typed figure outside a block, or dirty
                      record (CI runs this)
  --rounds N          paired rounds (default 7)
  --gigantua BIN      a Gigantua binary (../shared/gigantua/build.sh)
  --mperft BIN        an MPerft binary (../shared/peers/build.sh)
  --templechess BIN   a templechess binary; it runs in the binary's folder,
                      which must hold data/magicNumbers.out
  --no-crates         skip the peer crates (cozy-chess, shakmaty)
  --no-callgrind      skip the instruction counts
  --allow-dirty       measure the working tree as it is: the record is
                      marked dirty, and --check refuses it

Without --allow-dirty the commit at HEAD is checked out in a scratch
worktree (target/lab-checkout) and built there, so the record names exactly
one commit. Builds use RUSTFLAGS='-C target-cpu=native' where the CPU has
BMI2, with Quince's pext backend and cozy-chess's own PEXT lookups.";

struct Options {
    rounds: usize,
    programs: CPrograms,
    crates: bool,
    callgrind: bool,
    allow_dirty: bool,
}

enum Mode {
    Measure(Options),
    Render,
    Check,
    Help,
}

fn parse(args: &[String]) -> Result<Mode> {
    let mut o = Options {
        rounds: DEFAULT_ROUNDS,
        programs: CPrograms::default(),
        crates: true,
        callgrind: true,
        allow_dirty: false,
    };
    let mut mode = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--render" => mode = Some(Mode::Render),
            "--check" => mode = Some(Mode::Check),
            "--rounds" => o.rounds = positive("--rounds", it.next())?,
            "--gigantua" => o.programs.gigantua = Some(existing_file(arg, it.next())?),
            "--mperft" => o.programs.mperft = Some(existing_file(arg, it.next())?),
            "--templechess" => o.programs.templechess = Some(existing_file(arg, it.next())?),
            "--no-crates" => o.crates = false,
            "--no-callgrind" => o.callgrind = false,
            "--allow-dirty" => o.allow_dirty = true,
            "-h" | "--help" => return Ok(Mode::Help),
            other => return Err(format!("report: unknown option '{other}' (see --help)")),
        }
    }
    Ok(mode.unwrap_or(Mode::Measure(o)))
}

pub fn run(args: &[String]) -> Result<bool> {
    match parse(args)? {
        Mode::Help => println!("{HELP}"),
        Mode::Measure(o) => {
            let path = measure_peers(&o)?.write()?;
            println!(
                "record written to {}",
                path.strip_prefix(root()).unwrap_or(&path).display()
            );
            render_all()?;
        }
        Mode::Render => render_all()?,
        Mode::Check => {
            let problems = crate::render::check()?;
            if !problems.is_empty() {
                for p in &problems {
                    eprintln!("{p}");
                }
                eprintln!("report --check: {} problem(s)", problems.len());
                return Ok(false);
            }
            println!("report --check: every page matches its records");
        }
    }
    Ok(true)
}

fn render_all() -> Result<()> {
    let changed = crate::render::render()?;
    for p in &changed {
        println!("rendered {}", p.strip_prefix(root()).unwrap_or(p).display());
    }
    if changed.is_empty() {
        println!("every page already matched its records");
    }
    Ok(())
}

/// The C/C++ perft programs given on the command line (`report`, and the
/// atlas's lead).
#[derive(Default, Debug)]
pub struct CPrograms {
    pub gigantua: Option<PathBuf>,
    pub mperft: Option<PathBuf>,
    pub templechess: Option<PathBuf>,
}

impl CPrograms {
    pub fn any(&self) -> bool {
        self.gigantua.is_some() || self.mperft.is_some() || self.templechess.is_some()
    }

    /// A contender for each program given, with the arguments it takes.
    pub fn contenders(&self) -> Result<Vec<Contender>> {
        let mut out = Vec::new();
        out.extend(c_peer(
            "gigantua",
            &self.gigantua,
            &["{fen}", "{depth}", "{nodes}"],
            false,
        )?);
        out.extend(c_peer(
            "mperft",
            &self.mperft,
            &["-f", "{fen}", "-d", "{depth}", "-b"],
            false,
        )?);
        out.extend(c_peer(
            "templechess",
            &self.templechess,
            &["{fen}", "{depth}"],
            true,
        )?);
        Ok(out)
    }
}

/// The contender for a C peer, if its binary was given.
fn c_peer(
    name: &str,
    bin: &Option<PathBuf>,
    args: &[&str],
    in_own_dir: bool,
) -> Result<Option<Contender>> {
    let Some(bin) = bin else { return Ok(None) };
    let bin = bin
        .canonicalize()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    let mut argv = vec![bin.display().to_string()];
    argv.extend(args.iter().map(|s| s.to_string()));
    Ok(Some(Contender {
        name: name.into(),
        argv,
        cwd: if in_own_dir {
            bin.parent().map(PathBuf::from)
        } else {
            None
        },
        sha256: sha256(&bin)?,
        version: peer_version(name, &bin),
    }))
}

fn comparison(
    name: &str,
    about: &str,
    contenders: Vec<Contender>,
    workloads: &[measure::Workload],
    rounds: usize,
) -> Result<Comparison> {
    Comparison::measure(name, about, "quince", contenders, workloads, rounds)
}

fn measure_peers(o: &Options) -> Result<LabRecord> {
    let started = Instant::now();
    let date_utc = now_utc();
    let checkout = Checkout::new(o.allow_dirty)?;
    let (slider, features) = if has_bmi2() {
        ("pext", "pext,peers-pext")
    } else {
        ("hq", "hq")
    };
    eprintln!(
        "[report] building quince and lab_perft ({features}) at {}",
        checkout.commit.short
    );
    let built = build(&checkout.dir, "peers", features)?;
    let positions = standard_positions()?;
    let positions: Vec<Position> = positions
        .iter()
        .map(|(name, fen, counts)| Position { name, fen, counts })
        .collect();
    let start_depth = |_: &str| 3;
    let mut comparisons = Vec::new();

    // Instructions first: they take a minute, and a valgrind that cannot
    // run the binaries should stop the run before the long timing, not after.
    let mut instructions = Vec::new();
    if o.callgrind {
        for engine in ["quince", "cozy-chess"] {
            instructions.extend(measure::instructions::bulk(
                &built.lab_perft,
                engine,
                engine,
                &positions,
            )?);
        }
    }

    let quince = Contender {
        name: "quince".into(),
        argv: vec![
            built.quince.display().to_string(),
            "perft".into(),
            "--fen".into(),
            "{fen}".into(),
            "--depth".into(),
            "{depth}".into(),
        ],
        cwd: None,
        sha256: sha256(&built.quince)?,
        version: format!("{} with the {slider} backend", checkout.commit.short),
    };
    let mut process = vec![quince.clone()];
    process.extend(o.programs.contenders()?);
    if process.len() > 1 {
        let workloads = measure::calibrate(
            &quince,
            &positions,
            "bulk",
            start_depth,
            Repeat::WholeProcesses,
        )?;
        comparisons.push(comparison(
            "process",
            "bulk perft, Quince's `quince perft` against C/C++ perft programs, each a whole process",
            process,
            &workloads,
            o.rounds,
        )?);
    }

    if o.crates {
        let harness = |engine: &str| -> Result<Contender> {
            Ok(Contender {
                name: engine.into(),
                argv: vec![
                    built.lab_perft.display().to_string(),
                    engine.into(),
                    "{fen}".into(),
                    "{depth}".into(),
                    "{repeat}".into(),
                    "{kind}".into(),
                ],
                cwd: None,
                sha256: sha256(&built.lab_perft)?,
                version: if engine == "quince" {
                    format!(
                        "{} with the {slider} backend, in examples/lab_perft.rs",
                        checkout.commit.short
                    )
                } else {
                    format!("{engine} as locked in Cargo.lock, in examples/lab_perft.rs")
                },
            })
        };
        let mut workloads = Vec::new();
        for kind in ["bulk", "full"] {
            workloads.extend(measure::calibrate(
                &harness("quince")?,
                &positions,
                kind,
                start_depth,
                Repeat::InProcess,
            )?);
        }
        let contenders: Vec<Contender> = ["quince", "cozy-chess", "shakmaty"]
            .iter()
            .map(|e| harness(e))
            .collect::<Result<_>>()?;
        comparisons.push(comparison(
            "crates",
            "bulk and full-make perft, Quince and the peer crates in one harness (examples/lab_perft.rs), each a whole process",
            contenders,
            &workloads,
            o.rounds,
        )?);
    }

    Ok(LabRecord {
        kind: "peers".into(),
        format_version: crate::record::FORMAT_VERSION,
        commit: checkout.commit.clone(),
        date_utc,
        host: host(),
        toolchain: Toolchain {
            rustc: version_line("rustc", "-V"),
            rustflags: rustflags().into(),
            features: features.into(),
            gcc: o.programs.any().then(|| version_line("gcc", "--version")),
            valgrind: o.callgrind.then(|| version_line("valgrind", "--version")),
        },
        comparisons,
        instructions,
        backends: Vec::new(),
        deep: Vec::new(),
        search: Vec::new(),
        run_seconds: started.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_reject() {
        let args = |s: &[&str]| s.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        assert!(matches!(parse(&args(&["--check"])).unwrap(), Mode::Check));
        assert!(matches!(parse(&args(&["--render"])).unwrap(), Mode::Render));
        let Mode::Measure(o) = parse(&args(&["--rounds", "9", "--no-crates"])).unwrap() else {
            panic!()
        };
        assert!(o.rounds == 9 && !o.crates && o.callgrind && !o.allow_dirty);
        assert!(parse(&args(&["--rounds", "0"])).is_err());
        assert!(parse(&args(&["--gigantua", "/nonexistent/giga"])).is_err());
        assert!(parse(&args(&["--bogus"])).is_err());
    }
}
