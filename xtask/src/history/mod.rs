//! Node rate over history: the CI perft-tracking workload measured at each
//! of the last commits that changed `src/`, like asv's or codspeed's
//! history views.
//!
//! ```text
//! cargo run -p xtask -- history [--commits N] [--render]
//! ```
//!
//! Each commit is checked out in a scratch worktree (outside the repository,
//! so only that commit's `.cargo/config.toml` applies), built with the
//! release profile and no `RUSTFLAGS` (as `perft-track` builds it), and its
//! [`crate::track::tracked`] workload counted under callgrind. Results are
//! cached per commit in `reports/data/perft-history.json`, written after
//! every commit, so an interrupted run resumes where it stopped and a
//! re-run only measures new commits. The chart `reports/history.svg` and
//! the table `reports/history.md` are drawn from the cache, with the CI
//! baseline (`reports/perft-baseline.json`) and its 3 % gate marked.
//!
//! Instruction counts depend on the compiler and valgrind versions, which
//! each entry records; the workload's definition is stored with the cache
//! and a changed definition invalidates it.

mod chart;
pub mod page;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::util::{Result, Workload, callgrind, cargo, output, positive, root, status};

const HELP: &str = "cargo run -p xtask -- history [--commits N] [--render]

Counts instructions per node of the CI perft-tracking workload (the one
`perft-track` gates on) at each of the last N commits that changed src/
(default 30), caching each result in reports/data/perft-history.json, then
draws reports/history.svg and reports/history.md with the CI baseline and
its 3 % gate. Commits already in the cache are not measured again; an
interrupted run resumes. About a minute per new commit on 2 cores.

  --commits N   how many src/-changing commits, newest first (default 30)
  --render      only redraw the chart and table from the cache";

/// One workload of the tracked set, as stored with the cache.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct WorkloadDef {
    pub id: String,
    pub fen: String,
    pub depth: u32,
    pub bulk: bool,
    pub nodes: u64,
}

/// One commit's measurement (or why it could not be measured).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Entry {
    pub commit: String,
    /// Committer date, ISO 8601.
    pub date: String,
    pub subject: String,
    /// Summed instructions over summed nodes of the whole workload.
    pub per_node: Option<f64>,
    pub instructions: Option<u64>,
    /// Instructions per node of each workload, in the order of the cache's
    /// `workloads`.
    #[serde(default)]
    pub workloads: Vec<f64>,
    /// Set when the commit did not build or its perft failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub rustc: String,
    pub valgrind: String,
    pub cpu: String,
    pub build_seconds: f64,
    pub measure_seconds: f64,
}

/// The cache file.
#[derive(Debug, Serialize, Deserialize)]
pub struct Cache {
    pub about: String,
    pub workloads: Vec<WorkloadDef>,
    /// Keyed by full commit hash.
    pub entries: BTreeMap<String, Entry>,
}

pub fn cache_path() -> PathBuf {
    root()
        .join("reports")
        .join("data")
        .join("perft-history.json")
}

fn definitions(list: &[Workload]) -> Vec<WorkloadDef> {
    list.iter()
        .map(|w| WorkloadDef {
            id: w.id(),
            fen: w.fen.clone(),
            depth: w.depth,
            bulk: w.bulk,
            nodes: w.nodes,
        })
        .collect()
}

/// The cache as it is on disk, for rendering the page (no workload
/// check: the page shows what was measured).
pub fn read_cache() -> Result<Cache> {
    let path = cache_path();
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn load_cache(defs: &[WorkloadDef]) -> Result<Cache> {
    let path = cache_path();
    let fresh = || Cache {
        about: "Instructions per perft node of the CI perft-tracking workload (xtask perft-track) \
                at each commit that changed src/, default build, callgrind; regenerate with \
                cargo run -p xtask -- history"
            .into(),
        workloads: defs.to_vec(),
        entries: BTreeMap::new(),
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(fresh()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let cache: Cache =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if cache.workloads != defs {
        eprintln!(
            "xtask: the tracked workload changed since {} was written: measuring every commit again",
            path.display()
        );
        return Ok(fresh());
    }
    Ok(cache)
}

fn save_cache(cache: &Cache) -> Result<()> {
    let path = cache_path();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(cache).map_err(|e| e.to_string())? + "\n";
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// A commit of the history: full hash, date, subject.
#[derive(Clone, Debug)]
pub struct CommitRef {
    pub hash: String,
    pub date: String,
    pub subject: String,
}

/// The last `n` commits from HEAD that changed `src/`, oldest first.
fn src_commits(n: usize) -> Result<Vec<CommitRef>> {
    let text = output(Command::new("git").current_dir(root()).args([
        "log",
        &format!("-n{n}"),
        "--format=%H%x09%cI%x09%s",
        "--",
        "src/",
    ]))?;
    let mut list: Vec<CommitRef> = text
        .lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, '\t');
            Some(CommitRef {
                hash: parts.next()?.to_string(),
                date: parts.next()?.to_string(),
                subject: parts.next().unwrap_or("").to_string(),
            })
        })
        .collect();
    list.reverse();
    Ok(list)
}

struct Options {
    commits: usize,
    render_only: bool,
}

fn parse(args: &[String]) -> Result<Option<Options>> {
    let mut opts = Options {
        commits: 30,
        render_only: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--commits" => opts.commits = positive("--commits", it.next())?,
            "--render" => opts.render_only = true,
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(None);
            }
            other => return Err(format!("history: unknown option '{other}' (see --help)")),
        }
    }
    Ok(Some(opts))
}

pub fn run(args: &[String]) -> Result<bool> {
    let Some(opts) = parse(args)? else {
        return Ok(true);
    };
    let defs = definitions(&crate::track::tracked()?);
    let mut cache = load_cache(&defs)?;
    let commits = src_commits(opts.commits)?;
    if !opts.render_only {
        let todo: Vec<&CommitRef> = commits
            .iter()
            .filter(|c| !cache.entries.contains_key(&c.hash))
            .collect();
        eprintln!(
            "xtask: {} of the last {} src/ commits cached, {} to measure",
            commits.len() - todo.len(),
            commits.len(),
            todo.len()
        );
        if !todo.is_empty() {
            let worktree = Worktree::create()?;
            let started = Instant::now();
            for (k, c) in todo.iter().enumerate() {
                eprintln!(
                    "xtask: [{}/{}] {} {} (elapsed {:.0} s)",
                    k + 1,
                    todo.len(),
                    &c.hash[..12],
                    c.subject.chars().take(60).collect::<String>(),
                    started.elapsed().as_secs_f64()
                );
                let entry = measure_commit(&worktree, c, &defs)?;
                if let Some(e) = &entry.error {
                    eprintln!("xtask:   not measured: {e}");
                } else if let Some(p) = entry.per_node {
                    eprintln!("xtask:   {p:.3} instructions/node");
                }
                cache.entries.insert(c.hash.clone(), entry);
                save_cache(&cache)?;
            }
        }
    }
    let written = page::write(&cache)?;
    for path in written {
        println!("wrote {}", path.display());
    }
    Ok(true)
}

/// A detached worktree in the system's temporary directory, removed on drop.
struct Worktree {
    dir: PathBuf,
}

impl Worktree {
    fn create() -> Result<Worktree> {
        let dir = std::env::temp_dir().join(format!("quince-history-{}", std::process::id()));
        status(Command::new("git").current_dir(root()).args([
            "worktree",
            "add",
            "--detach",
            "--force",
            &dir.to_string_lossy(),
            "HEAD",
        ]))?;
        Ok(Worktree { dir })
    }

    fn checkout(&self, commit: &str) -> Result<()> {
        output(
            Command::new("git")
                .current_dir(&self.dir)
                .args(["checkout", "-q", "--detach", "--force", commit]),
        )?;
        output(
            Command::new("git")
                .current_dir(&self.dir)
                .args(["clean", "-fdq"]),
        )?;
        Ok(())
    }
}

impl Drop for Worktree {
    fn drop(&mut self) {
        let _ = Command::new("git")
            .current_dir(root())
            .args(["worktree", "remove", "--force"])
            .arg(&self.dir)
            .output();
    }
}

fn tool_version(program: &str, arg: &str) -> String {
    output(Command::new(program).arg(arg))
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "unknown".into())
}

fn measure_commit(worktree: &Worktree, c: &CommitRef, defs: &[WorkloadDef]) -> Result<Entry> {
    let mut entry = Entry {
        commit: c.hash.clone(),
        date: c.date.clone(),
        subject: c.subject.clone(),
        per_node: None,
        instructions: None,
        workloads: Vec::new(),
        error: None,
        rustc: tool_version("rustc", "--version"),
        valgrind: tool_version("valgrind", "--version"),
        cpu: crate::util::cpu_model(),
        build_seconds: 0.0,
        measure_seconds: 0.0,
    };
    worktree.checkout(&c.hash)?;
    let target = root().join("target").join("history");
    let started = Instant::now();
    let built = output(
        Command::new(cargo())
            .current_dir(&worktree.dir)
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .args(["build", "--release", "--quiet", "--bin", "quince"]),
    );
    entry.build_seconds = round(started.elapsed().as_secs_f64());
    if let Err(e) = built {
        entry.error = Some(format!("build failed: {}", last_lines(&e, 6)));
        return Ok(entry);
    }
    let binary = target.join("release").join("quince");
    let started = Instant::now();
    match count(&binary, defs) {
        Ok(counts) => {
            let instructions: u64 = counts.iter().sum();
            let nodes: u64 = defs.iter().map(|d| d.nodes).sum();
            entry.instructions = Some(instructions);
            entry.per_node = Some(round3(instructions as f64 / nodes as f64));
            entry.workloads = counts
                .iter()
                .zip(defs)
                .map(|(&i, d)| round3(i as f64 / d.nodes as f64))
                .collect();
        }
        Err(e) => entry.error = Some(format!("measurement failed: {}", last_lines(&e, 6))),
    }
    entry.measure_seconds = round(started.elapsed().as_secs_f64());
    Ok(entry)
}

/// Net instructions of each workload (callgrind of the run minus the same
/// command at depth 0), the workloads shared out over the available cores.
fn count(binary: &Path, defs: &[WorkloadDef]) -> Result<Vec<u64>> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(defs.len());
    let mut results: Vec<Option<Result<u64>>> = vec![None; defs.len()];
    std::thread::scope(|scope| {
        let chunks: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (t..defs.len())
                        .step_by(threads)
                        .map(|k| (k, net_instructions(binary, &defs[k])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for handle in chunks {
            for (k, r) in handle.join().expect("a callgrind thread panicked") {
                results[k] = Some(r);
            }
        }
    });
    results
        .into_iter()
        .map(|r| r.expect("every workload is measured"))
        .collect()
}

fn net_instructions(binary: &Path, d: &WorkloadDef) -> Result<u64> {
    let args = |depth: u32| {
        let mut a = vec![
            "perft".to_string(),
            "--json".into(),
            "--depth".into(),
            depth.to_string(),
            "--fen".into(),
            d.fen.clone(),
        ];
        if !d.bulk {
            a.push("--no-bulk".into());
        }
        a
    };
    let full = callgrind(binary, &args(d.depth))?;
    let overhead = callgrind(binary, &args(0))?;
    Ok(full.saturating_sub(overhead))
}

fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join(" | ")
}

fn round(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The CI baseline's total instructions per node and gate, if the file is
/// readable.
pub fn baseline() -> Option<(f64, f64, String)> {
    let text = std::fs::read_to_string(crate::track::baseline_path()).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    Some((
        v["total"]["per_node"].as_f64()?,
        v["threshold_percent"].as_f64()?,
        v["commit"].as_str().unwrap_or("?").to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_and_reject() {
        let args = |s: &[&str]| s.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        let o = parse(&args(&["--commits", "12", "--render"]))
            .unwrap()
            .unwrap();
        assert_eq!(o.commits, 12);
        assert!(o.render_only);
        assert!(parse(&args(&["--commits", "0"])).is_err());
        assert!(parse(&args(&["--commits"])).is_err());
        assert!(parse(&args(&["--frobnicate"])).is_err());
        assert!(parse(&args(&["--help"])).unwrap().is_none());
    }

    #[test]
    fn last_lines_keeps_the_tail() {
        assert_eq!(last_lines("a\nb\nc", 2), "b | c");
        assert_eq!(last_lines("a", 5), "a");
    }
}
