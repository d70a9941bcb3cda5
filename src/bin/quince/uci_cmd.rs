//! `quince` (no arguments) and `quince uci`: speak UCI on stdin/stdout.

use std::process::ExitCode;

pub fn run() -> ExitCode {
    quince::uci::run_stdio();
    ExitCode::SUCCESS
}
