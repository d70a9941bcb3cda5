//! The lab's timing harness: perft of one position with Quince or a peer
//! crate (cozy-chess, shakmaty, chess), repeated N times in one process.
//!
//! ```text
//! cargo run --release --example lab_perft -- ENGINE FEN DEPTH REPEAT [bulk|full]
//! ```
//!
//! `quince:NAME` runs Quince's generator with the compiled technique NAME
//! (`quince::perft::techniques`): the atlas times every technique from
//! one `--features all-sliders` build this way.
//!
//! Why it exists: `cargo run -p xtask -- report` and `lab` compare engines
//! as whole processes in alternating rounds of at least half a second each.
//! Perft depths grow by a factor of 20-40 per ply, so no depth of Kiwipete
//! lands between 0.5 s and 5 s for Quince; repeating one depth inside the
//! process does. Every engine runs the same walk here (the crates' perft
//! functions of `benches/common`), so the comparison is like for like. It
//! prints the leaf count of one repetition; it fails when the FEN does not
//! parse or the repetitions disagree.

#[path = "../benches/common/mod.rs"]
mod common;

use std::process::ExitCode;

fn usage() -> ExitCode {
    eprintln!(
        "usage: lab_perft ENGINE FEN DEPTH REPEAT [bulk|full]\n  ENGINE: quince, quince:TECHNIQUE (a compiled sliding-attack technique), cozy-chess, shakmaty or chess"
    );
    ExitCode::from(2)
}

/// One perft of `fen` at `depth` with `engine`, or why it cannot run.
fn perft(engine: &str, fen: &str, depth: u32, bulk: bool) -> Result<u64, String> {
    let bad = || format!("{engine} cannot read the FEN '{fen}'");
    Ok(match engine {
        "quince" => {
            let mut pos = quince::Position::from_fen(fen).map_err(|e| format!("{e}"))?;
            common::quince_perft(&mut pos, depth, bulk)
        }
        "cozy-chess" => common::cozy_perft(&common::cozy_board(fen).ok_or_else(bad)?, depth, bulk),
        "shakmaty" => {
            common::shakmaty_perft(&common::shakmaty_board(fen).ok_or_else(bad)?, depth, bulk)
        }
        "chess" => common::chess_perft(&common::chess_board(fen).ok_or_else(bad)?, depth, bulk),
        other => match other.strip_prefix("quince:") {
            // The atlas: Quince's generator with one compiled technique
            // (`quince::perft::techniques`), from one all-sliders build.
            Some(name) => {
                let technique = quince::perft::techniques::find(name)
                    .ok_or_else(|| format!("technique '{name}' is not compiled into this build"))?;
                let pos = quince::Position::from_fen(fen).map_err(|e| format!("{e}"))?;
                if bulk {
                    (technique.bulk)(&pos, depth)
                } else {
                    (technique.full)(&pos, depth)
                }
            }
            None => return Err(format!("unknown engine '{other}'")),
        },
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (engine, fen, depth, repeat, mode) = match args.as_slice() {
        [e, f, d, r] => (e, f, d, r, "bulk"),
        [e, f, d, r, m] => (e, f, d, r, m.as_str()),
        _ => return usage(),
    };
    let (Ok(depth), Ok(repeat)) = (depth.parse::<u32>(), repeat.parse::<u32>()) else {
        return usage();
    };
    let bulk = match mode {
        "bulk" => true,
        "full" => false,
        _ => return usage(),
    };
    if repeat == 0 {
        return usage();
    }
    let mut first = None;
    for _ in 0..repeat {
        match perft(engine, fen, depth, bulk) {
            Ok(n) if first.is_none_or(|f| f == n) => first = Some(n),
            Ok(n) => {
                eprintln!("repetitions disagree: {} then {n}", first.unwrap_or(0));
                return ExitCode::FAILURE;
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    println!("{}", first.unwrap_or(0));
    ExitCode::SUCCESS
}
