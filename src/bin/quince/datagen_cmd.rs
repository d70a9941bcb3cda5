//! `quince datagen`: self-play games for NNUE training, on every core,
//! appended to one `.qdg` file (see `quince::datagen::format`), resumable.
//!
//! Games are numbered 0..GAMES; game `i` of a run with seed `S` is always
//! the same game at the same commit and settings, whichever thread plays it
//! and whenever. Resuming therefore means: read the file, keep its whole
//! records, and play the numbers that are missing. Records are appended in
//! the order games finish, so a file's order depends on timing, its
//! content does not.

use crate::UserError;
use crate::progress::Reporter;
use clap::Args;
use quince::datagen::format::{MAGIC, read_games};
use quince::datagen::selfplay::{SelfPlaySettings, play_game};
use quince::search::tt::TranspositionTable;
use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

#[derive(Args)]
pub struct DatagenArgs {
    /// The `.qdg` file to append games to (created if missing; an existing
    /// one from the same seed and settings is resumed).
    #[arg(long, value_name = "FILE")]
    pub out: String,
    /// Games in the run, numbered 0..GAMES.
    #[arg(long, value_name = "N")]
    pub games: u32,
    /// Seed of the random openings; with the commit it fixes every game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Node limit of each move's search.
    #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Threads playing games (0 = every core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Hash table per thread in MB.
    #[arg(long, value_name = "MB", default_value_t = 16)]
    pub hash: usize,
}

pub fn run(args: &DatagenArgs) -> Result<ExitCode, UserError> {
    let existing = match std::fs::read(&args.out) {
        Ok(bytes) => Some(bytes).filter(|b| !b.is_empty()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(UserError(format!("{}: {e}", args.out))),
    };
    let (done, whole_len) = match &existing {
        Some(bytes) => {
            let (games, whole) = read_games(bytes).map_err(|e| format!("{}: {e}", args.out))?;
            let indices: HashSet<u32> = games.iter().map(|g| g.index).collect();
            (indices, whole)
        }
        None => (HashSet::new(), 0),
    };
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| format!("{}: {e}", args.out))?;
    if existing.is_none() {
        file.write_all(MAGIC)?;
    } else {
        // Drop a record an interrupted run left half written.
        file.set_len(whole_len as u64)?;
    }
    let pending: Vec<u32> = (0..args.games).filter(|i| !done.contains(i)).collect();
    if !done.is_empty() {
        eprintln!(
            "resuming {}: {} of {} games already there",
            args.out,
            args.games as usize - pending.len(),
            args.games
        );
    }
    let threads = match args.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(pending.len().max(1));
    let settings = SelfPlaySettings {
        nodes: args.nodes,
        ..SelfPlaySettings::default()
    };
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    // A bar on a terminal, a line every few seconds in a log.
    let reporter = Reporter::new(false, true, true);
    let start = Instant::now();
    let mut positions = 0u64;
    let mut written = 0u64;
    let outcome: Result<(), UserError> = std::thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let (next, pending, settings) = (&next, &pending, &settings);
            let hash = args.hash;
            let seed = args.seed;
            scope.spawn(move || {
                let Some(mut tt) = TranspositionTable::new(hash) else {
                    let _ = sender.send(Err(format!("cannot allocate a {hash} MB hash table")));
                    return;
                };
                loop {
                    let at = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&index) = pending.get(at) else { break };
                    if sender
                        .send(Ok(play_game(seed, index, settings, &mut tt)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for message in receiver {
            let game = message.map_err(UserError)?;
            game.write(&mut file)?;
            file.flush()?;
            positions += game.scored.len() as u64;
            written += 1;
            let elapsed = start.elapsed().as_secs_f64();
            reporter.update(written as f64, pending.len() as u64, elapsed, || {
                let per_second = positions as f64 / elapsed.max(1e-9);
                format!("games, {positions} positions, {per_second:.0}/s")
            });
        }
        Ok(())
    });
    reporter.finish();
    outcome?;
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "datagen: {written} games, {positions} scored positions in {seconds:.1} s \
         ({:.0} positions/s on {threads} threads, {:.0} per core-hour) -> {}",
        positions as f64 / seconds.max(1e-9),
        positions as f64 / seconds.max(1e-9) * 3600.0 / threads as f64,
        args.out
    );
    Ok(ExitCode::SUCCESS)
}
