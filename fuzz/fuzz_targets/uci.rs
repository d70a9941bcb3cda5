//! Arbitrary lines to the UCI command handler: no panic, and at most one
//! `bestmove` per `go`.
//!
//! Searches are kept short by capping them at 16 nodes (even inside the
//! first iteration) and following every `go` with `stop` (so `go infinite` or
//! `go depth 99` end at once, yet their parsing is fuzzed), and
//! `setoption ... Hash` lines are skipped and the engine starts with a 1 MiB
//! table (allocating and zeroing the default 16 MiB, or a 4 GiB one, per input
//! would make the fuzzer crawl, not find bugs).
#![no_main]

use libfuzzer_sys::fuzz_target;
use quince::uci::Output;
use quince::uci::command::{self, Command};
use quince::uci::engine::Engine;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// An output sink the target can read back after the engine is done.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let captured = Captured::default();
    let mut engine = Engine::with_hash(Output::new(Box::new(captured.clone())), 1);
    engine.cap_search_nodes(16);
    let mut searches = 0usize;
    for line in text.lines().take(64) {
        let lower = line.to_ascii_lowercase();
        if lower.split_whitespace().next() == Some("setoption") && lower.contains("hash") {
            continue;
        }
        // The engine's own parser says whether this line starts a search
        // (`go perft` and malformed lines do not).
        let command = command::parse(line);
        let starts_search = matches!(command, Command::Go(_));
        let runs_something = matches!(command, Command::Go(_) | Command::Perft(_));
        if !engine.handle(line) {
            break;
        }
        searches += usize::from(starts_search);
        if runs_something {
            engine.handle("stop");
        }
    }
    engine.shutdown();
    let output = captured.0.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let output = String::from_utf8_lossy(&output);
    let bestmoves = output.lines().filter(|l| l.starts_with("bestmove")).count();
    assert!(
        bestmoves <= searches,
        "{bestmoves} bestmoves for {searches} go commands:\n{output}"
    );
});
