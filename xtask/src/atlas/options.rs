//! The `atlas` command line: its help text and its options, read into
//! [`Options`] for the run.

use std::path::PathBuf;

use super::peers;
use crate::util::{Result, existing_file, positive};

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

/// The shortest in-generator run by default. Why not the protocol's 0.5 s:
/// 33 techniques by 12 workloads by 3 rounds took 19-23 minutes at 0.5 s
/// (the Zen 5 and Emerald Rapids records of 2026-11-29/30), more than
/// half of the 40 minutes a whole run may take with the lead beside it;
/// the runs are in-process repeats of one depth (no start-up inside the
/// time), so a shorter run only adds noise, which the rounds show.
const GENERATOR_MIN_SECONDS: f64 = 0.3;

/// What one `atlas` command asks for.
pub(super) struct Options {
    pub(super) rounds: usize,
    pub(super) techniques: Option<Vec<String>>,
    pub(super) reference: Option<PathBuf>,
    pub(super) reference_scalar: Option<PathBuf>,
    pub(super) reference_source: Option<PathBuf>,
    pub(super) reference_repeat: Option<usize>,
    pub(super) peers: peers::Programs,
    pub(super) peer_rounds: usize,
    pub(super) min_seconds: f64,
    pub(super) generator: bool,
    pub(super) callgrind: bool,
    pub(super) allow_dirty: bool,
}

pub(super) fn parse(args: &[String]) -> Result<Option<Options>> {
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
                let p = existing_file(flag, it.next())?;
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
                let p = existing_file(flag, it.next())?;
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
