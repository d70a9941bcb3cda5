//! Shared pieces of the lab's benches: the position sets, the pprof
//! profiler for criterion, and small perft / move-generation functions over
//! each peer crate's API (cozy-chess, shakmaty, chess), written here so that
//! every engine runs the same workload in the same process.
//!
//! Each bench target includes this module; not every target uses every item.
#![allow(dead_code)]

use std::hint::black_box;
use std::str::FromStr;

use quince::Position;

/// The standard perft positions (`tests/data/standard.epd`).
pub const STANDARD_EPD: &str = include_str!("../../tests/data/standard.epd");
/// The shared perft suite (`tests/data/suite.epd`), sampled for the varied set.
pub const SUITE_EPD: &str = include_str!("../../tests/data/suite.epd");

/// A named position with its expected perft counts (index = depth - 1).
#[derive(Clone, Debug)]
pub struct Named {
    pub name: &'static str,
    pub fen: String,
    pub counts: Vec<u64>,
}

impl Named {
    /// The expected leaf count at `depth`.
    pub fn nodes(&self, depth: u32) -> u64 {
        self.counts[depth as usize - 1]
    }
}

fn parse_epd_line(line: &str) -> Option<(String, Vec<u64>)> {
    let mut parts = line.split(';');
    let fen = parts.next()?.trim().to_string();
    if fen.is_empty() {
        return None;
    }
    let counts = parts
        .filter_map(|p| p.split_whitespace().nth(1)?.parse().ok())
        .collect();
    Some((fen, counts))
}

/// The six standard positions (the mirrored position 4 is left out) with the
/// depth each bench uses: about 0.1-0.7 million leaves, a few milliseconds.
pub fn standard() -> Vec<(Named, u32)> {
    const NAMES: [(&str, usize, u32); 6] = [
        ("start", 0, 4),
        ("kiwipete", 1, 3),
        ("pos3", 2, 5),
        ("pos4", 3, 4),
        ("pos5", 5, 3),
        ("pos6", 6, 3),
    ];
    let lines: Vec<&str> = STANDARD_EPD.lines().collect();
    NAMES
        .iter()
        .map(|&(name, line, depth)| {
            let (fen, counts) = parse_epd_line(lines[line]).expect("standard.epd line");
            (Named { name, fen, counts }, depth)
        })
        .collect()
}

/// The fixed, varied position set for move generation, legality and
/// make/unmake: the standard positions plus every 6th suite position
/// (openings, middlegames, endgames, promotions, e.p., castling, checks),
/// keeping only those every engine accepts. About 40 positions.
pub fn varied_fens() -> Vec<String> {
    let mut fens: Vec<String> = STANDARD_EPD
        .lines()
        .chain(SUITE_EPD.lines().step_by(6))
        .filter_map(|line| parse_epd_line(line).map(|(fen, _)| fen))
        .collect();
    fens.dedup();
    fens.retain(|fen| {
        Position::from_fen(fen).is_ok()
            && cozy_board(fen).is_some()
            && shakmaty_board(fen).is_some()
            && chess_board(fen).is_some()
    });
    fens
}

/// Parses a FEN for Quince (panics on the lab's own fixed data only).
pub fn quince_board(fen: &str) -> Position {
    Position::from_fen(fen).expect("lab FEN")
}

pub fn cozy_board(fen: &str) -> Option<cozy_chess::Board> {
    cozy_chess::Board::from_fen(fen, false).ok()
}

pub fn shakmaty_board(fen: &str) -> Option<shakmaty::Chess> {
    shakmaty::fen::Fen::from_ascii(fen.as_bytes())
        .ok()?
        .into_position(shakmaty::CastlingMode::Standard)
        .ok()
}

pub fn chess_board(fen: &str) -> Option<chess::Board> {
    chess::Board::from_str(fen).ok()
}

// ---------------------------------------------------------------- peers

/// cozy-chess perft: bulk counts the last ply from the move batches.
pub fn cozy_perft(board: &cozy_chess::Board, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        // A made leaf is kept observable, as in Quince's full-make
        // perft, so the optimiser cannot drop the make as dead code.
        std::hint::black_box(board);
        return 1;
    }
    let mut nodes = 0;
    if depth == 1 && bulk {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += cozy_perft(&child, depth - 1, bulk);
        }
        false
    });
    nodes
}

/// shakmaty perft (copy-make, its only style).
pub fn shakmaty_perft(pos: &shakmaty::Chess, depth: u32, bulk: bool) -> u64 {
    use shakmaty::Position as _;
    if depth == 0 {
        // A made leaf is kept observable, as in Quince's full-make
        // perft, so the optimiser cannot drop the make as dead code.
        std::hint::black_box(pos);
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 && bulk {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play_unchecked(*mv);
            shakmaty_perft(&child, depth - 1, bulk)
        })
        .sum()
}

/// chess perft (copy-make, its only style).
pub fn chess_perft(board: &chess::Board, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        // A made leaf is kept observable, as in Quince's full-make
        // perft, so the optimiser cannot drop the make as dead code.
        std::hint::black_box(board);
        return 1;
    }
    let moves = chess::MoveGen::new_legal(board);
    if depth == 1 && bulk {
        return moves.len() as u64;
    }
    let mut child = *board;
    moves
        .map(|mv| {
            board.make_move(mv, &mut child);
            chess_perft(&child, depth - 1, bulk)
        })
        .sum()
}

/// Quince perft (legal generation, make/unmake): the library's own functions.
pub fn quince_perft(pos: &mut Position, depth: u32, bulk: bool) -> u64 {
    quince::perft::count(pos, depth, bulk)
}

// ------------------------------------------------------------ move lists

/// Enumerates every legal move of every position one by one (each move
/// passes through `black_box`); returns the number of moves.
pub fn quince_movegen(positions: &[Position]) -> u64 {
    let mut count = 0;
    for pos in positions {
        quince::movegen::generate(pos, |batch| {
            for mv in batch.moves() {
                black_box(mv);
                count += 1;
            }
            false
        });
    }
    count
}

pub fn cozy_movegen(boards: &[cozy_chess::Board]) -> u64 {
    let mut count = 0;
    for board in boards {
        board.generate_moves(|moves| {
            for mv in moves {
                black_box(mv);
                count += 1;
            }
            false
        });
    }
    count
}

pub fn shakmaty_movegen(boards: &[shakmaty::Chess]) -> u64 {
    use shakmaty::Position as _;
    let mut count = 0;
    for board in boards {
        for mv in board.legal_moves() {
            black_box(mv);
            count += 1;
        }
    }
    count
}

pub fn chess_movegen(boards: &[chess::Board]) -> u64 {
    let mut count = 0;
    for board in boards {
        for mv in chess::MoveGen::new_legal(board) {
            black_box(mv);
            count += 1;
        }
    }
    count
}

// ---------------------------------------------------------- make/unmake

/// Every legal move of every position, for the make/unmake benches.
pub fn quince_moves(positions: &[Position]) -> Vec<Vec<quince::Move>> {
    positions
        .iter()
        .map(|p| quince::movegen::legal_moves(p).to_vec())
        .collect()
}

/// Makes and unmakes every move in place; returns a checksum of the keys.
pub fn quince_make_unmake(positions: &mut [Position], moves: &[Vec<quince::Move>]) -> u64 {
    let mut sum = 0u64;
    for (pos, moves) in positions.iter_mut().zip(moves) {
        for &mv in moves {
            let undo = pos.make(mv);
            sum = sum.wrapping_add(black_box(&*pos).key());
            pos.unmake(mv, undo);
        }
    }
    sum
}

/// Copies the position for every move (`Position::with_move`, the child
/// made where it is used).
pub fn quince_copy_make(positions: &[Position], moves: &[Vec<quince::Move>]) -> u64 {
    let mut sum = 0u64;
    for (pos, moves) in positions.iter().zip(moves) {
        for &mv in moves {
            sum = sum.wrapping_add(pos.with_move(mv, |child| black_box(&*child).key()));
        }
    }
    sum
}

/// Copies the position for every move with `Position::play` (the child
/// returned by value).
pub fn quince_play(positions: &[Position], moves: &[Vec<quince::Move>]) -> u64 {
    let mut sum = 0u64;
    for (pos, moves) in positions.iter().zip(moves) {
        for &mv in moves {
            let child = pos.play_unchecked(mv);
            sum = sum.wrapping_add(black_box(&child).key());
        }
    }
    sum
}

pub fn cozy_moves(boards: &[cozy_chess::Board]) -> Vec<Vec<cozy_chess::Move>> {
    boards
        .iter()
        .map(|b| {
            let mut list = Vec::new();
            b.generate_moves(|moves| {
                list.extend(moves);
                false
            });
            list
        })
        .collect()
}

pub fn cozy_copy_make(boards: &[cozy_chess::Board], moves: &[Vec<cozy_chess::Move>]) -> u64 {
    let mut sum = 0u64;
    for (board, moves) in boards.iter().zip(moves) {
        for &mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            sum = sum.wrapping_add(black_box(&child).hash());
        }
    }
    sum
}

pub fn shakmaty_moves(boards: &[shakmaty::Chess]) -> Vec<Vec<shakmaty::Move>> {
    use shakmaty::Position as _;
    boards.iter().map(|b| b.legal_moves().to_vec()).collect()
}

pub fn shakmaty_copy_make(boards: &[shakmaty::Chess], moves: &[Vec<shakmaty::Move>]) -> u64 {
    use shakmaty::Position as _;
    let mut sum = 0u64;
    for (board, moves) in boards.iter().zip(moves) {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(*mv);
            sum = sum.wrapping_add(black_box(&child).board().occupied().0);
        }
    }
    sum
}

/// shakmaty's copy-make with its Zobrist key brought up to date as well
/// (`update_zobrist_hash`, or the whole key where that has no shortcut),
/// which Quince, cozy-chess and chess do in every
/// make: the like-for-like comparison for an engine that needs a key.
/// `keys` holds each board's key.
pub fn shakmaty_copy_make_keyed(
    boards: &[shakmaty::Chess],
    keys: &[shakmaty::zobrist::Zobrist64],
    moves: &[Vec<shakmaty::Move>],
) -> u64 {
    use shakmaty::{EnPassantMode, Position as _};
    let mut sum = 0u64;
    for ((board, &key), moves) in boards.iter().zip(keys).zip(moves) {
        for mv in moves {
            let mut child = board.clone();
            let incremental = board.update_zobrist_hash(key, *mv, EnPassantMode::Legal);
            child.play_unchecked(*mv);
            // shakmaty updates the key incrementally except for king and
            // castling-rook moves, double pushes and positions with an
            // e.p. square; then the child's key is computed afresh, as its
            // own `Zobrist` wrapper does.
            let child_key = incremental.unwrap_or_else(|| child.zobrist_hash(EnPassantMode::Legal));
            sum = sum.wrapping_add(black_box(&child).board().occupied().0 ^ child_key.0);
        }
    }
    sum
}

/// Each board's Zobrist key, for [`shakmaty_copy_make_keyed`].
pub fn shakmaty_keys(boards: &[shakmaty::Chess]) -> Vec<shakmaty::zobrist::Zobrist64> {
    use shakmaty::{EnPassantMode, Position as _};
    boards
        .iter()
        .map(|board| board.zobrist_hash(EnPassantMode::Legal))
        .collect()
}

pub fn chess_moves(boards: &[chess::Board]) -> Vec<Vec<chess::ChessMove>> {
    boards
        .iter()
        .map(|b| chess::MoveGen::new_legal(b).collect())
        .collect()
}

pub fn chess_copy_make(boards: &[chess::Board], moves: &[Vec<chess::ChessMove>]) -> u64 {
    let mut sum = 0u64;
    for (board, moves) in boards.iter().zip(moves) {
        for &mv in moves {
            let child = board.make_move_new(mv);
            sum = sum.wrapping_add(black_box(&child).get_hash());
        }
    }
    sum
}

// ---------------------------------------------------------------- host

/// The CPU this runs on, from `/proc/cpuinfo` (model name, family and
/// model number: AMD names Zen 3 and Zen 4 EPYCs alike, and the ratios
/// between engines differ between the two), or "unknown".
pub fn host_cpu() -> String {
    let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else {
        return "unknown".to_string();
    };
    let field = |key: &str| {
        info.lines().find_map(|line| {
            let (name, value) = line.split_once(':')?;
            (name.trim() == key).then(|| value.trim().to_string())
        })
    };
    match (field("model name"), field("cpu family"), field("model")) {
        (Some(name), Some(family), Some(model)) => {
            format!("{name} (family {family}, model {model})")
        }
        (Some(name), _, _) => name,
        _ => "unknown".to_string(),
    }
}
