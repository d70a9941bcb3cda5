//! The test harness: a running `quince` with line-wise access to its
//! output, and checks on the `bestmove` it gives.

use quince::Position;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

const DEADLINE: Duration = Duration::from_secs(60);

/// A running engine with line-wise access to its output.
pub(crate) struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    pub(crate) fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_quince"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start quince");
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    /// An engine with `OwnBook` off, said explicitly (it is the default)
    /// so that these tests keep searching book positions whatever the
    /// default becomes. The book's own tests turn it on.
    pub(crate) fn start() -> Engine {
        let mut engine = Engine::start_with(&[]);
        engine.send("setoption name OwnBook value false");
        engine
    }

    pub(crate) fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    pub(crate) fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Reads lines until one satisfies `done`; returns all lines read, that one last.
    pub(crate) fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let start = Instant::now();
        let mut seen = Vec::new();
        loop {
            let left = DEADLINE.checked_sub(start.elapsed()).unwrap_or_default();
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let finished = done(&line);
                    seen.push(line);
                    if finished {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no expected line; got {seen:#?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("engine exited; got {seen:#?}"),
            }
        }
    }

    /// Lines up to `readyok` (a synchronisation point).
    pub(crate) fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.until(|l| l == "readyok")
    }

    /// Runs `go ...` and returns every line up to and including `bestmove`.
    pub(crate) fn go(&mut self, go: &str) -> Vec<String> {
        self.send(go);
        self.until(|l| l.starts_with("bestmove"))
    }

    /// Lines arriving within `wait` (for checking that something does *not* come).
    pub(crate) fn quiet_for(&mut self, wait: Duration) -> Vec<String> {
        let start = Instant::now();
        let mut seen = Vec::new();
        while let Some(left) = wait.checked_sub(start.elapsed()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => seen.push(line),
                Err(_) => break,
            }
        }
        seen
    }

    /// The FEN the engine reports with `d`.
    pub(crate) fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.until(|l| l.starts_with("Fen: "));
        lines.last().unwrap()["Fen: ".len()..].to_string()
    }

    /// Closes stdin and waits for a clean exit.
    pub(crate) fn close(mut self) -> Vec<String> {
        drop(self.stdin.take());
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                break;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "engine did not exit after end of input"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        self.lines.try_iter().collect()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) fn bestmoves(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("bestmove")).collect()
}

/// The move of a `bestmove` line, and its ponder move.
pub(crate) fn best_of(line: &str) -> (String, Option<String>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[0], "bestmove", "{line}");
    let ponder = (words.get(2) == Some(&"ponder")).then(|| words[3].to_string());
    (words[1].to_string(), ponder)
}

/// Asserts the `bestmove` (and ponder move) of `lines` are legal after `setup`.
pub(crate) fn assert_legal_answer(pos: &Position, lines: &[String]) -> String {
    let found = bestmoves(lines);
    assert_eq!(found.len(), 1, "exactly one bestmove: {lines:#?}");
    let (best, ponder) = best_of(found[0]);
    let mv = pos
        .parse_uci(&best)
        .unwrap_or_else(|e| panic!("{e}: {lines:#?}"));
    if let Some(reply) = ponder {
        pos.play_unchecked(mv)
            .parse_uci(&reply)
            .unwrap_or_else(|e| panic!("ponder {e}"));
    }
    best
}
