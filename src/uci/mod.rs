//! The UCI protocol: what GUIs, python-chess and lichess-bot speak.
//!
//! * [`command`]: one input line to a [`command::Command`] (pure parsing).
//! * [`engine`]: the engine state (position, options, hash table) and the
//!   reaction to each command; searches run on their own thread.
//! * [`info`]: `info` and `bestmove` lines.
//! * `book`: the `OwnBook` and `BookFile` options (Polyglot books).
//! * `perft`: `go perft N`, stoppable, on the worker thread.
//! * `syzygy`: `SyzygyPath` and the other tablebase options.
//! * this module: the I/O loop. Input is read on a separate thread as raw
//!   bytes (decoded lossily, so garbage bytes cannot stop it), line breaks
//!   `\n` or `\r\n`, lines longer than [`MAX_LINE`] refused; the main thread
//!   handles lines as they arrive, so `stop` and `isready` are answered
//!   while a search runs. The end of input ends the engine like `quit`.

mod book;
pub mod command;
pub mod engine;
pub mod info;
mod perft;
#[cfg(feature = "syzygy")]
mod syzygy;

use std::io::{BufRead, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// The longest input line accepted (1 MiB: a `position` with tens of
/// thousands of moves still fits).
pub const MAX_LINE: usize = 1 << 20;

/// Where the engine's output goes; shared by the protocol and search threads.
/// Write errors (a closed pipe) are ignored: the engine keeps going until
/// its input ends.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// An output writing to `sink` (usually standard output).
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(sink)))
    }

    /// Writes one or more lines and flushes, all under one lock so lines
    /// from two threads never interleave.
    pub fn line(&self, text: &str) {
        let mut sink = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let _ = writeln!(sink, "{text}");
        let _ = sink.flush();
    }
}

/// One item from the input thread.
enum Input {
    Line(String),
    TooLong(usize),
}

/// Reads lines of at most `MAX_LINE` bytes; longer ones are skipped
/// (their length reported) without holding them in memory.
fn read_lines(mut input: impl BufRead, lines: mpsc::Sender<Input>) {
    let mut line = Vec::new();
    let mut overflow = 0usize;
    loop {
        let chunk = match input.fill_buf() {
            Ok([]) => break,
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let (used, complete) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (chunk.len(), false),
        };
        let data = &chunk[..if complete { used - 1 } else { used }];
        if overflow > 0 || line.len() + data.len() > MAX_LINE {
            overflow += line.len() + data.len();
            line.clear();
        } else {
            line.extend_from_slice(data);
        }
        input.consume(used);
        if complete {
            let item = if overflow > 0 {
                Input::TooLong(overflow)
            } else {
                Input::Line(decode(&line))
            };
            line.clear();
            overflow = 0;
            if lines.send(item).is_err() {
                return;
            }
        }
    }
    if !line.is_empty() {
        let _ = lines.send(Input::Line(decode(&line)));
    }
}

/// Lossy UTF-8 decoding without the line's `\r`.
fn decode(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.trim_end_matches('\r').to_string()
}

/// Runs the engine on `input` and `output` until `quit` or the end of input.
pub fn run(input: impl BufRead + Send + 'static, output: Box<dyn Write + Send>) {
    let out = Output::new(output);
    let (sender, receiver) = mpsc::channel();
    // Detached: it ends at end of input; on `quit` the process exits anyway.
    let spawned = std::thread::Builder::new()
        .name("uci-input".to_string())
        .spawn(move || read_lines(input, sender));
    if spawned.is_err() {
        out.line("info string error: cannot start the input thread");
        return;
    }
    let mut engine = engine::Engine::new(out.clone());
    while let Ok(item) = receiver.recv() {
        let keep_going = match item {
            Input::Line(line) => engine.handle(&line),
            Input::TooLong(length) => {
                out.line(&format!(
                    "info string error: ignored an input line of {length} bytes (limit {MAX_LINE})"
                ));
                true
            }
        };
        if !keep_going {
            break;
        }
    }
    engine.shutdown();
}

/// `quince` / `quince uci`: UCI on standard input and output.
pub fn run_stdio() {
    let stdin = std::io::BufReader::new(std::io::stdin());
    run(stdin, Box::new(std::io::stdout()));
}
