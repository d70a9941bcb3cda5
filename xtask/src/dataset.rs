//! `xtask dataset`: the record of one self-play data set
//! (`reports/data/dataset-<set>.json`, [`crate::record::datasets`]).
//!
//! Counts come from the trainer's own reading of the file
//! (`quince-train stats`), so the positions a page states are the ones a
//! network is trained on; sizes and the checksum from the files
//! themselves. The command refuses a set whose compressed file is not
//! committed or whose checksum is not the one `data/SHA256SUMS` lists:
//! a record must describe what a clone of the repository gets.

use std::path::Path;
use std::process::Command;

use crate::measure::host::{host, now_utc, sha256};
use crate::record::data_dir;
use crate::record::datasets::{DatasetRecord, Generation, Results, listed_sha256};
use crate::util::{Result, cargo, default_target_dir, git, output, root, status};

const USAGE: &str = "usage: cargo run -p xtask -- dataset data/SET.qdg --commit REV --evaluation TEXT --command TEXT

Writes reports/data/dataset-SET.json: games, scored plies, the positions the
trainer keeps, results, sizes and checksum of data/SET.qdg (unpacked) and
the committed data/SET.qdp.xz (`quince pack`; checked to give back
data/SET.qdg) or, for the sets before it, data/SET.qdg.xz, with how the set
was made:
  --commit REV        the commit whose engine played the games
  --evaluation TEXT   the evaluation it played with (\"NNUE v6\")
  --command TEXT      the datagen command (\"quince datagen --out data/s8.qdg --seed 8 --games 20000\")
and, where one datagen run played the whole set, its closing line's time
(the page renders scored plies per core-hour from them; give both or neither):
  --seconds S         the run's wall-clock seconds
  --threads N         the games it played at once";

pub fn run(args: &[String]) -> Result<bool> {
    let mut file: Option<String> = None;
    let (mut commit, mut evaluation, mut command) = (None, None, None);
    let (mut seconds, mut threads) = (None, None);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} wants a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--commit" => commit = Some(value("--commit")?),
            "--evaluation" => evaluation = Some(value("--evaluation")?),
            "--command" => command = Some(value("--command")?),
            "--seconds" => seconds = Some(number::<f64>("--seconds", &value("--seconds")?)?),
            "--threads" => threads = Some(number::<u64>("--threads", &value("--threads")?)?),
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(true);
            }
            other if other.starts_with('-') => {
                return Err(format!("unknown option {other}\n{USAGE}"));
            }
            other if file.is_none() => file = Some(other.to_string()),
            other => return Err(format!("one data file only, got also {other}\n{USAGE}")),
        }
    }
    let missing = |what: &str| format!("{what} is required\n{USAGE}");
    let file = file.ok_or_else(|| missing("the data file"))?;
    let generation = match (seconds, threads) {
        (Some(seconds), Some(threads)) if seconds > 0.0 && threads > 0 => {
            Some(Generation { seconds, threads })
        }
        (None, None) => None,
        _ => {
            return Err(format!(
                "--seconds and --threads go together, both above zero\n{USAGE}"
            ));
        }
    };
    let mut record = measure(
        &file,
        &commit.ok_or_else(|| missing("--commit"))?,
        &evaluation.ok_or_else(|| missing("--evaluation"))?,
        &command.ok_or_else(|| missing("--command"))?,
    )?;
    record.generation = generation;
    let path = data_dir().join(format!("dataset-{}.json", record.name));
    let text = serde_json::to_string_pretty(&record).map_err(|e| e.to_string())? + "\n";
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    println!(
        "{}: {} games, {} positions kept of {} scored plies",
        path.display(),
        record.games,
        record.positions,
        record.scored_plies
    );
    Ok(true)
}

/// `text`, the value of option `name`, as a number.
fn number<T: std::str::FromStr>(name: &str, text: &str) -> Result<T> {
    text.parse()
        .map_err(|_| format!("{name} wants a number, got '{text}'\n{USAGE}"))
}

fn measure(file: &str, commit: &str, evaluation: &str, command: &str) -> Result<DatasetRecord> {
    let relative = file.trim_start_matches("./");
    let name = Path::new(relative)
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".qdg"))
        .ok_or_else(|| format!("{file}: not a .qdg file"))?
        .to_string();
    let unpacked = root().join(relative);
    if !unpacked.is_file() {
        return Err(format!("{}: no such file", unpacked.display()));
    }
    // The packed form (`quince pack`) where the set has one, else the
    // games file itself, xz-compressed.
    let packed_name = [".qdp.xz", ".qdg.xz"]
        .iter()
        .map(|ext| format!("{}{ext}", relative.trim_end_matches(".qdg")))
        .find(|name| root().join(name).is_file())
        .ok_or_else(|| format!("{relative}: neither {name}.qdp.xz nor {name}.qdg.xz is there"))?;
    let packed = root().join(&packed_name);
    if git(&["ls-files", "--error-unmatch", &packed_name]) == "unknown" {
        return Err(format!("{packed_name} is not committed: commit it first"));
    }
    let checksum = sha256(&unpacked)?;
    let sums = std::fs::read_to_string(root().join("data/SHA256SUMS"))
        .map_err(|e| format!("data/SHA256SUMS: {e}"))?;
    match listed_sha256(&sums, relative) {
        Some(sum) if sum == checksum => {}
        Some(sum) => {
            return Err(format!(
                "{relative}: SHA-256 {checksum}, data/SHA256SUMS lists {sum}"
            ));
        }
        None => return Err(format!("{relative} is not listed in data/SHA256SUMS")),
    }
    if packed_name.ends_with(".qdp.xz") {
        gives_back(&packed, &checksum)?;
    }
    let engine_commit = git(&["rev-parse", "--verify", &format!("{commit}^{{commit}}")]);
    if engine_commit == "unknown" {
        return Err(format!("{commit}: not a commit of this repository"));
    }
    let stats = trainer_stats(&unpacked)?;
    let size = |p: &Path| {
        std::fs::metadata(p)
            .map(|m| m.len())
            .map_err(|e| format!("{}: {e}", p.display()))
    };
    Ok(DatasetRecord {
        kind: "dataset".into(),
        name,
        file: packed_name,
        command: command.into(),
        engine_commit,
        evaluation: evaluation.into(),
        games: stats.games,
        scored_plies: stats.scored_plies,
        positions: stats.training + stats.validation,
        validation_positions: stats.validation,
        results: stats.results,
        bytes: size(&unpacked)?,
        xz_bytes: size(&packed)?,
        sha256: checksum,
        recorded_utc: now_utc(),
        recorded_at: git(&["rev-parse", "HEAD"]),
        repository_bytes: repository_bytes()?,
        host: host(),
        generation: None,
    })
}

/// Checks that the committed `packed` file (`.qdp.xz`) gives back the games
/// file whose SHA-256 is `checksum`: decompressed with `xz` and unpacked
/// with this tree's `quince unpack` into a scratch directory.
fn gives_back(packed: &Path, checksum: &str) -> Result<()> {
    let scratch = default_target_dir().join("dataset-check");
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let qdp = scratch.join("set.qdp");
    let qdg = scratch.join("set.qdg");
    for stale in [&qdp, &qdg] {
        let _ = std::fs::remove_file(stale);
    }
    let file = std::fs::File::create(&qdp).map_err(|e| format!("{}: {e}", qdp.display()))?;
    status(Command::new("xz").arg("-dc").arg(packed).stdout(file))?;
    eprintln!("xtask: cargo build --release --bin quince");
    status(Command::new(cargo()).current_dir(root()).args([
        "build",
        "--release",
        "--bin",
        "quince",
    ]))?;
    let quince = default_target_dir().join("release").join("quince");
    status(
        Command::new(quince)
            .arg("unpack")
            .arg(&qdp)
            .arg("--out")
            .arg(&qdg),
    )?;
    let back = sha256(&qdg)?;
    if back != checksum {
        return Err(format!(
            "{}: unpacks to SHA-256 {back}, not the games file's {checksum}",
            packed.display()
        ));
    }
    Ok(())
}

/// What `quince-train stats` says about one file.
#[derive(Debug, PartialEq)]
struct Stats {
    games: u64,
    scored_plies: u64,
    training: u64,
    validation: u64,
    results: Results,
}

fn trainer_stats(file: &Path) -> Result<Stats> {
    eprintln!("xtask: cargo build --release -p quince-trainer");
    status(Command::new(cargo()).current_dir(root()).args([
        "build",
        "--release",
        "-p",
        "quince-trainer",
    ]))?;
    let trainer = default_target_dir().join("release").join("quince-train");
    let text = output(Command::new(trainer).arg("stats").arg("--data").arg(file))?;
    parse_stats(&text)
}

/// Reads the four lines of `quince-train stats`.
fn parse_stats(text: &str) -> Result<Stats> {
    let field = |label: &str| -> Result<&str> {
        text.lines()
            .find_map(|l| {
                let (key, value) = l.split_once(':')?;
                (key.trim() == label).then_some(value.trim())
            })
            .ok_or_else(|| format!("quince-train stats printed no '{label}' line:\n{text}"))
    };
    let numbers = |s: &str| -> Vec<u64> {
        s.split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .collect()
    };
    let one = |label: &str| -> Result<u64> {
        numbers(field(label)?)
            .first()
            .copied()
            .ok_or_else(|| format!("no number on quince-train stats' '{label}' line"))
    };
    let positions = numbers(field("training pos.")?);
    let results = numbers(field("results")?);
    match (positions.as_slice(), results.as_slice()) {
        (&[training, validation], &[white_wins, draws, black_wins]) => Ok(Stats {
            games: one("games")?,
            scored_plies: one("scored plies")?,
            training,
            validation,
            results: Results {
                white_wins,
                draws,
                black_wins,
            },
        }),
        _ => Err(format!("cannot read quince-train stats' output:\n{text}")),
    }
}

/// The repository's objects, packed and loose (`git count-objects -v`
/// gives KiB), in bytes.
fn repository_bytes() -> Result<u64> {
    let text = output(
        Command::new("git")
            .current_dir(root())
            .args(["count-objects", "-v"]),
    )?;
    let kib = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key)?.trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    Ok((kib("size:") + kib("size-pack:")) * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_time_wants_both_options() {
        let args = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let common = [
            "data/s1.qdg",
            "--commit",
            "HEAD",
            "--evaluation",
            "e",
            "--command",
            "c",
        ];
        for extra in [
            &["--seconds", "10"][..],
            &["--threads", "2"],
            &["--seconds", "x", "--threads", "2"],
            &["--seconds", "0", "--threads", "2"],
        ] {
            let all = args(&[&common[..], extra].concat());
            let error = run(&all).expect_err("an incomplete or bad generation time");
            assert!(
                error.contains("--seconds") || error.contains("number"),
                "{error}"
            );
        }
    }

    #[test]
    fn reads_the_trainers_stats() {
        let text = "games          : 20000\nscored plies   : 2449277\n\
                    training pos.  : 1714016 (+88674 validation)\n\
                    results        : 7401 white wins, 5346 draws, 7253 black wins\n";
        assert_eq!(
            parse_stats(text),
            Ok(Stats {
                games: 20000,
                scored_plies: 2449277,
                training: 1714016,
                validation: 88674,
                results: Results {
                    white_wins: 7401,
                    draws: 5346,
                    black_wins: 7253
                },
            })
        );
        assert!(parse_stats("games : 3\n").is_err());
    }
}
