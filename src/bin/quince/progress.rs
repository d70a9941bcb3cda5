//! Progress of long runs on stderr: an indicatif bar on a terminal, plain
//! lines every few seconds in a log (`--progress`), nothing otherwise, so
//! that stdout and `--json` output stay clean whatever happens here.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Seconds between two log lines when stderr is not a terminal.
const LOG_INTERVAL: f64 = 5.0;

enum Mode {
    Off,
    /// A bar on the terminal; indicatif limits its own redraw rate.
    Bar(ProgressBar),
    /// One line per `LOG_INTERVAL`, for logs of batch runs: the time of
    /// the last line (or of the start), and whether one was printed. Runs
    /// shorter than the interval print nothing.
    Log(Mutex<(Instant, bool)>),
}

/// Where a long run's progress goes; shared by reference between the
/// worker threads' callbacks.
pub struct Reporter {
    mode: Mode,
}

impl Reporter {
    /// `json` turns progress off on a terminal (a script is reading);
    /// `log` (the `--progress` flag) asks for lines where stderr is not a
    /// terminal; `long_run` says the run is worth a bar on a terminal.
    pub fn new(json: bool, log: bool, long_run: bool) -> Reporter {
        let terminal = std::io::stderr().is_terminal();
        let mode = if terminal && !json && (long_run || log) {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:30}] {pos}/{len} {msg} (eta {eta})",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            Mode::Bar(bar)
        } else if log && !terminal && !json {
            Mode::Log(Mutex::new((Instant::now(), false)))
        } else {
            Mode::Off
        };
        Reporter { mode }
    }

    /// `done` of `total` pieces of work finished after `elapsed` seconds
    /// (`done` may be fractional when a piece is partly done); `message`
    /// says what the pieces are and how fast they go. It is only called
    /// when something will be drawn.
    pub fn update(&self, done: f64, total: u64, elapsed: f64, message: impl FnOnce() -> String) {
        match &self.mode {
            Mode::Off => {}
            Mode::Bar(bar) => {
                bar.set_length(total);
                bar.set_position(done as u64);
                bar.set_message(message());
            }
            Mode::Log(last) => {
                let finished = done >= total as f64;
                let Ok(mut last) = last.lock() else { return };
                let (at, printed) = *last;
                let now = Instant::now();
                let due = now.duration_since(at).as_secs_f64() >= LOG_INTERVAL;
                // The closing line only completes lines printed before.
                if !(due || finished && printed) {
                    return;
                }
                *last = (now, true);
                let left = elapsed / done.max(1e-9) * (total as f64 - done).max(0.0);
                eprintln!("{done:.0}/{total} {}, ~{left:.0} s left", message());
            }
        }
    }

    /// Removes the bar (the results follow on stdout).
    pub fn finish(&self) {
        if let Mode::Bar(bar) = &self.mode {
            bar.finish_and_clear();
        }
    }
}
