//! The engine behind the protocol: game state, options, the hash table,
//! and the search thread.
//!
//! Invariants that keep GUIs happy:
//! * every `go` gets exactly one `bestmove`, printed by its search thread;
//! * a new `go`, `position`, `ucinewgame`, `setoption` or `quit` during a
//!   search first stops it (and so lets it print its `bestmove`);
//! * `stop` waits for the `bestmove` to be printed, so the GUI never sees a
//!   stale one after its next command; `isready` answers at once (the
//!   first one reads the default opening book first, a few milliseconds);
//! * bad input is answered with `info string error: ...` and changes nothing
//!   (or, for moves, keeps the position up to the last good move).
//!
//! A little over 500 lines on purpose: those invariants hold across the
//! handlers and the search thread together, so they stay in one file
//! where one reading checks them (parsing, `info` text, perft and the book
//! already live in the sibling modules).

use super::Output;
use super::book::OwnBook;
use super::command::{self, Command, Go};
use super::info::{bestmove_text, report_text, score_text};
use super::perft::run_perft;
use crate::movegen::legal_moves;
use crate::position::Position;
use crate::search::limits::{Limits, Signals};
use crate::search::tt::TranspositionTable;
use crate::search::{self, score::MAX_PLY};
use crate::types::Move;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The name sent in `id name`, with the crate's version.
pub const NAME: &str = concat!("Quince ", env!("CARGO_PKG_VERSION"));
/// The author sent in `id author`.
pub const AUTHOR: &str = "the Quince developers";

const DEFAULT_HASH_MB: usize = 16;
/// 1 TiB: more than any machine here has, so the limit a user meets is the
/// operating system's (a refused size is halved until it is granted).
const MAX_HASH_MB: usize = 1 << 20;
const MAX_MULTI_PV: usize = 256;
const DEFAULT_OVERHEAD_MS: u64 = 30;
const MAX_OVERHEAD_MS: u64 = 5000;
/// Deeper `go perft` requests are capped (depth 12 already means hours;
/// `stop` ends it at any time).
const MAX_PERFT_DEPTH: u64 = 12;

/// The options GUIs can set.
#[derive(Clone, Debug)]
struct Options {
    hash_mb: usize,
    multi_pv: usize,
    chess960: bool,
    move_overhead: u64,
    ponder: bool,
    /// Search threads (Lazy SMP).
    threads: usize,
    /// `UCI_ShowWDL`: `wdl W D L` in every `info` line with a score
    /// (`search::wdl`).
    show_wdl: bool,
}

/// A search in progress.
struct Running {
    handle: JoinHandle<()>,
    signals: Arc<Signals>,
}

/// A UCI engine: feed it input lines with [`Engine::handle`]; it writes
/// its answers to its [`Output`], from a search thread while searching.
pub struct Engine {
    out: Output,
    options: Options,
    position: Position,
    /// Keys of the positions before `position` in the game (for repetitions).
    history: Vec<u64>,
    tt: Arc<Mutex<TranspositionTable>>,
    search: Option<Running>,
    /// An upper bound on every search's nodes (see [`Engine::cap_search_nodes`]).
    node_cap: Option<u64>,
    /// `OwnBook` and `BookFile`, and the book.
    book: OwnBook,
    /// `SyzygyPath` and the other Syzygy options, and the tables.
    #[cfg(feature = "syzygy")]
    syzygy: super::syzygy::SyzygyOptions,
}

impl Engine {
    /// An engine with the default hash size, writing to `out`.
    pub fn new(out: Output) -> Engine {
        Engine::with_hash(out, DEFAULT_HASH_MB)
    }

    /// An engine whose hash table starts at `megabytes` (falling back to
    /// 1 MiB if that much memory is not available). Used where many engines
    /// are created, as by the `uci` fuzz target: zeroing the default 16 MiB
    /// table per input would dominate its run time.
    pub fn with_hash(out: Output, megabytes: usize) -> Engine {
        let (tt, hash_mb) = match TranspositionTable::new(megabytes) {
            Some(tt) => (tt, megabytes.max(1)),
            None => (
                TranspositionTable::new(1).expect("a 1 MiB hash table is always available"),
                1,
            ),
        };
        Engine {
            out,
            options: Options {
                hash_mb,
                multi_pv: 1,
                chess960: false,
                move_overhead: DEFAULT_OVERHEAD_MS,
                ponder: false,
                threads: 1,
                show_wdl: false,
            },
            position: Position::startpos(),
            history: Vec::new(),
            tt: Arc::new(Mutex::new(tt)),
            search: None,
            node_cap: None,
            book: OwnBook::default(),
            #[cfg(feature = "syzygy")]
            syzygy: Default::default(),
        }
    }

    /// Caps every later search at `nodes`, whatever `go` asks for, even
    /// inside the first iteration (the best root move so far is played, as
    /// when `stop` arrives that early). For the `uci` fuzz target: it must
    /// exercise the parsing of `go infinite` or `go depth 99` without
    /// paying for the search.
    pub fn cap_search_nodes(&mut self, nodes: u64) {
        self.node_cap = Some(nodes);
    }

    fn say(&self, text: &str) {
        self.out.line(text);
    }

    fn error(&self, text: &str) {
        self.out.line(&format!("info string error: {text}"));
    }

    /// Handles one input line; returns `false` on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        self.reap_finished_search();
        match command::parse(line) {
            Command::Uci => self.identify(),
            Command::IsReady => {
                self.book.load_pending(&self.out);
                self.say("readyok");
            }
            Command::NewGame => {
                self.stop_search();
                self.lock_tt().clear();
                self.set_start_position();
            }
            Command::SetOption { name, value } => {
                self.stop_search();
                self.set_option(&name, value.as_deref());
            }
            Command::Position { fen, moves } => {
                self.stop_search();
                self.set_position(fen.as_deref(), &moves);
            }
            Command::BadPosition(why) => self.error(&format!("{why}; position unchanged")),
            Command::Go(go) => {
                self.stop_search();
                self.go(&go);
            }
            Command::Perft(depth) => {
                self.stop_search();
                self.perft(depth);
            }
            Command::Stop => self.stop_search(),
            Command::PonderHit => {
                if let Some(running) = &self.search {
                    running.signals.ponder.store(false, Ordering::Relaxed);
                }
            }
            Command::Quit => return false,
            Command::Display => self.say(&self.position.to_string()),
            Command::Empty => {}
            Command::Unknown(word) => {
                let shown: String = word.chars().take(40).collect();
                self.error(&format!("unknown command '{shown}'"));
            }
        }
        true
    }

    /// Stops any search (printing its `bestmove`) before the process ends.
    pub fn shutdown(&mut self) {
        self.stop_search();
    }

    fn identify(&self) {
        self.say(&format!("id name {NAME}"));
        self.say(&format!("id author {AUTHOR}"));
        self.say(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        self.say("option name Clear Hash type button");
        self.say(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTI_PV}"
        ));
        self.say("option name UCI_Chess960 type check default false");
        self.say(&format!(
            "option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max {MAX_OVERHEAD_MS}"
        ));
        // Lazy SMP (`search::search_threads`).
        self.say(&format!(
            "option name Threads type spin default 1 min 1 max {}",
            search::MAX_THREADS
        ));
        self.say("option name Ponder type check default false");
        self.say("option name UCI_ShowWDL type check default false");
        self.book.announce(&self.out);
        #[cfg(feature = "syzygy")]
        self.syzygy.announce(&self.out);
        // A tuning build offers the search's constants too (tools/spsa.py).
        if cfg!(feature = "tune") {
            for p in search::params::PARAMS {
                self.say(&format!(
                    "option name {} type spin default {} min {} max {}",
                    p.name, p.default, p.min, p.max
                ));
            }
        }
        self.say("uciok");
    }

    fn lock_tt(&self) -> std::sync::MutexGuard<'_, TranspositionTable> {
        self.tt
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn set_start_position(&mut self) {
        self.position = Position::startpos();
        self.position.set_chess960(self.options.chess960);
        self.history.clear();
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let value = value.map(str::trim).unwrap_or("");
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let Some(mb) = spin(value, 1, MAX_HASH_MB as u64) else {
                    return self.error(&format!(
                        "Hash must be a number of MiB from 1 to {MAX_HASH_MB}, got '{value}'"
                    ));
                };
                // More than the machine can give is refused before anything
                // is freed or allocated (the old table's memory counts as
                // available too).
                if let Some(available) = crate::perft::hash::memory::available_bytes() {
                    let available_mb = (available >> 20) as usize + self.options.hash_mb;
                    if mb as usize > available_mb {
                        return self.error(&format!(
                            "Hash {mb} MiB is more than the {available_mb} MiB of memory available here; Hash stays {} MiB",
                            self.options.hash_mb
                        ));
                    }
                }
                // Drop the old table first, so its memory counts as free.
                *self.lock_tt() = TranspositionTable::new(1).expect("1 MiB is always available");
                let mut granted = mb as usize;
                let tt = loop {
                    if let Some(tt) = TranspositionTable::new(granted) {
                        break tt;
                    }
                    granted /= 2;
                    if granted == 0 {
                        break TranspositionTable::new(1).expect("1 MiB is always available");
                    }
                };
                if granted < mb as usize {
                    self.say(&format!(
                        "info string Hash: the system refused {mb} MiB; using {} MiB",
                        granted.max(1)
                    ));
                }
                *self.lock_tt() = tt;
                self.options.hash_mb = granted.max(1);
            }
            "clear hash" => self.lock_tt().clear(),
            "multipv" => match spin(value, 1, MAX_MULTI_PV as u64) {
                Some(n) => self.options.multi_pv = n as usize,
                None => self.error(&format!(
                    "MultiPV must be 1 to {MAX_MULTI_PV}, got '{value}'"
                )),
            },
            "move overhead" => match spin(value, 0, MAX_OVERHEAD_MS) {
                Some(ms) => self.options.move_overhead = ms,
                None => self.error(&format!(
                    "Move Overhead must be 0 to {MAX_OVERHEAD_MS} ms, got '{value}'"
                )),
            },
            "threads" => match spin(value, 1, search::MAX_THREADS as u64) {
                Some(n) => {
                    self.options.threads = n as usize;
                    let cores = std::thread::available_parallelism().map_or(1, usize::from);
                    if n as usize > cores {
                        self.say(&format!(
                            "info string Threads {n} is more than the {cores} cores here: allowed, but the threads share them"
                        ));
                    }
                }
                None => self.error(&format!(
                    "Threads must be a number from 1 to {}, got '{value}'",
                    search::MAX_THREADS
                )),
            },
            "uci_chess960" => match check(value) {
                Some(on) => self.set_chess960(on),
                None => self.error(&format!(
                    "UCI_Chess960 must be true or false, got '{value}'"
                )),
            },
            "ponder" => match check(value) {
                Some(on) => self.options.ponder = on,
                None => self.error(&format!("Ponder must be true or false, got '{value}'")),
            },
            "uci_showwdl" => match check(value) {
                Some(on) => self.options.show_wdl = on,
                None => self.error(&format!("UCI_ShowWDL must be true or false, got '{value}'")),
            },
            "ownbook" | "bookfile" => self.book.set_option(name, value, &self.out),
            #[cfg(feature = "syzygy")]
            lower if self.syzygy.set_option(lower, value, &self.out) => {}
            "" => self.error("setoption needs 'name <option> [value <value>]'"),
            _ if cfg!(feature = "tune")
                && search::params::PARAMS
                    .iter()
                    .any(|p| p.name.eq_ignore_ascii_case(name)) =>
            {
                let set = value
                    .parse::<i32>()
                    .map_err(|_| format!("{name} must be a number, got '{value}'"))
                    .and_then(|v| search::params::set(name, v));
                if let Err(why) = set {
                    self.error(&why);
                }
            }
            _ => self.error(&format!("unknown option '{name}'")),
        }
    }

    fn set_chess960(&mut self, on: bool) {
        self.options.chess960 = on;
        if !self.position.set_chess960(on) {
            self.say("info string the current position needs Chess960 castling notation; keeping it for this position");
        }
    }

    /// Sets up `position`: on a bad FEN the old position stays; on a bad
    /// move the position stays as it was before that move.
    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
        let mut position = match fen {
            None => {
                let mut start = Position::startpos();
                start.set_chess960(self.options.chess960);
                start
            }
            Some(text) => match Position::from_fen_with(text, self.options.chess960) {
                Ok(position) => position,
                Err(e) => {
                    let shown: String = text.chars().take(100).collect();
                    return self.error(&format!("invalid FEN '{shown}': {e}; position unchanged"));
                }
            },
        };
        let mut history = Vec::with_capacity(moves.len());
        for (index, text) in moves.iter().enumerate() {
            match position.parse_uci(text) {
                Ok(mv) => {
                    history.push(position.key());
                    position.make(mv);
                }
                Err(e) => {
                    self.error(&format!(
                        "move {} ({}): {e}; position set up to the move before it",
                        index + 1,
                        text.chars().take(20).collect::<String>()
                    ));
                    break;
                }
            }
        }
        self.position = position;
        self.history = history;
    }

    /// `go perft N` in Stockfish's divide format, on the worker thread so
    /// that `isready` is answered and `stop` ends it.
    fn perft(&mut self, depth: u64) {
        if depth > MAX_PERFT_DEPTH {
            self.say(&format!(
                "info string perft depth capped at {MAX_PERFT_DEPTH}"
            ));
        }
        let depth = depth.min(MAX_PERFT_DEPTH) as u32;
        let position = self.position.clone();
        let out = self.out.clone();
        let signals = Arc::new(Signals::default());
        let thread_signals = Arc::clone(&signals);
        let spawned = std::thread::Builder::new()
            .name("perft".to_string())
            .spawn(move || run_perft(position, depth, &thread_signals, &out));
        match spawned {
            Ok(handle) => self.search = Some(Running { handle, signals }),
            Err(e) => self.error(&format!("cannot start the perft thread: {e}")),
        }
    }

    /// Answers from the book if it can, else starts a search on its own thread.
    fn go(&mut self, go: &Go) {
        if self
            .book
            .answer(&self.position, go, self.options.multi_pv, &self.out)
        {
            return;
        }
        let limits = self.limits(go);
        let signals = Arc::new(Signals::default());
        signals.ponder.store(limits.ponder, Ordering::Relaxed);
        let position = self.position.clone();
        let history = self.history.clone();
        let tt = Arc::clone(&self.tt);
        let out = self.out.clone();
        let thread_signals = Arc::clone(&signals);
        let how = HowToSearch {
            threads: self.options.threads,
            show_wdl: self.options.show_wdl,
        };
        let spawned = std::thread::Builder::new()
            .name("search".to_string())
            .stack_size(64 << 20)
            .spawn(move || run_search(position, history, tt, limits, how, thread_signals, out));
        match spawned {
            Ok(handle) => self.search = Some(Running { handle, signals }),
            Err(e) => {
                self.error(&format!("cannot start the search thread: {e}"));
                let moves = legal_moves(&self.position);
                let best = moves.first().copied().unwrap_or(Move::NULL);
                self.say(&bestmove_text(&self.position, best, None));
            }
        }
    }

    /// Translates `go` into search limits; unusable `searchmoves` are reported and dropped.
    fn limits(&self, go: &Go) -> Limits {
        let mut search_moves = Vec::new();
        for text in &go.searchmoves {
            match self.position.parse_uci(text) {
                Ok(mv) => search_moves.push(mv),
                Err(e) => self.error(&format!("searchmoves: {e}; ignored")),
            }
        }
        let cap = MAX_PLY as u64;
        // Any clock field means a timed game: a missing clock then counts as
        // empty (a quick move) rather than as no limit at all.
        let clock = [go.wtime, go.btime, go.winc, go.binc, go.movestogo]
            .iter()
            .any(Option::is_some);
        let time = if clock {
            [Some(go.wtime.unwrap_or(0)), Some(go.btime.unwrap_or(0))]
        } else {
            [None, None]
        };
        Limits {
            depth: go.depth.map(|d| d.clamp(1, cap) as i32),
            nodes: go.nodes,
            node_cap: self.node_cap,
            movetime: go.movetime,
            time,
            increment: [go.winc.unwrap_or(0), go.binc.unwrap_or(0)],
            moves_to_go: go.movestogo,
            infinite: go.infinite,
            ponder: go.ponder,
            mate: go.mate.map(|m| m.clamp(1, cap) as u32),
            search_moves,
            multi_pv: self.options.multi_pv,
            move_overhead: self.options.move_overhead,
            #[cfg(feature = "syzygy")]
            tablebase: self.syzygy.for_search(),
        }
    }

    /// Stops the running search, if any, and waits for its `bestmove`.
    fn stop_search(&mut self) {
        if let Some(running) = self.search.take() {
            running.signals.stop.store(true, Ordering::Relaxed);
            running.signals.ponder.store(false, Ordering::Relaxed);
            if running.handle.join().is_err() {
                self.error("the search thread failed");
            }
        }
    }

    /// Forgets a search that already printed its `bestmove`.
    fn reap_finished_search(&mut self) {
        if self.search.as_ref().is_some_and(|r| r.handle.is_finished()) {
            self.stop_search();
        }
    }
}

/// The options a search thread reads: how many threads search, and
/// whether its `info` lines carry `wdl`.
#[derive(Clone, Copy)]
struct HowToSearch {
    threads: usize,
    show_wdl: bool,
}

/// The body of the search thread: search, then print exactly one `bestmove`.
fn run_search(
    position: Position,
    history: Vec<u64>,
    tt: Arc<Mutex<TranspositionTable>>,
    limits: Limits,
    how: HowToSearch,
    signals: Arc<Signals>,
    out: Output,
) {
    let threads = how.threads;
    let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut table = tt.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut report =
            |line: &search::Report| out.line(&report_text(&position, line, how.show_wdl));
        search::search_threads(
            &position,
            &history,
            &mut table,
            &limits,
            &signals,
            threads,
            &mut report,
        )
    }));
    let outcome = match searched {
        Ok(outcome) => outcome,
        Err(_) => {
            // A bug must not cost the game or break the protocol: answer
            // with a legal move and start the next search with a fresh table.
            out.line("info string error: the search failed; playing a legal move");
            if let Some(fresh) = TranspositionTable::new(1) {
                *tt.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = fresh;
            }
            let best = legal_moves(&position)
                .first()
                .copied()
                .unwrap_or(Move::NULL);
            search::Outcome {
                best,
                ponder: None,
                score: 0,
                depth: 0,
                nodes: 0,
            }
        }
    };
    if outcome.best == Move::NULL {
        out.line(&format!("info depth 0 {}", score_text(outcome.score, None)));
    }
    out.line(&bestmove_text(&position, outcome.best, outcome.ponder));
}

/// A spin value within `min..=max`.
fn spin(value: &str, min: u64, max: u64) -> Option<u64> {
    let number: i128 = value.parse().ok()?;
    Some(number.clamp(min as i128, max as i128) as u64)
}

/// A check value (`true`/`false`, any case).
pub(super) fn check(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}
