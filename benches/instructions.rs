//! Instruction counts (gungraun, i.e. callgrind) for the lab's workloads:
//! bulk and full perft on the standard positions, move generation and
//! make/unmake over the varied set, Quince next to the peers.
//!
//! Run with `cargo bench --bench instructions` (needs valgrind and
//! `cargo install gungraun-runner --version 0.20.0 --locked`). Instruction
//! counts do not depend on what else the machine is doing, unlike wall time.
//! Benchmark ids carry the position index into `common::standard()`, so the
//! report can turn instructions into instructions per node.

use std::hint::black_box;

use gungraun::prelude::*;
use quince::Position;

mod common;

use common::*;

fn standard_at(index: usize) -> (String, u32) {
    let (named, depth) = standard().swap_remove(index);
    (named.fen, depth)
}

fn quince_setup(index: usize) -> (Position, u32) {
    let (fen, depth) = standard_at(index);
    (quince_board(&fen), depth)
}

fn cozy_setup(index: usize) -> (cozy_chess::Board, u32) {
    let (fen, depth) = standard_at(index);
    (cozy_board(&fen).expect("fen"), depth)
}

fn shakmaty_setup(index: usize) -> (shakmaty::Chess, u32) {
    let (fen, depth) = standard_at(index);
    (shakmaty_board(&fen).expect("fen"), depth)
}

fn chess_setup(index: usize) -> (chess::Board, u32) {
    let (fen, depth) = standard_at(index);
    (chess_board(&fen).expect("fen"), depth)
}

// Perft: ids are `p<index>`, the position's index in `common::standard()`.

#[library_benchmark]
#[benches::bulk(args = [0, 1, 2, 3, 4, 5], setup = quince_setup)]
fn quince_bulk((mut pos, depth): (Position, u32)) -> u64 {
    black_box(quince_perft(black_box(&mut pos), depth, true))
}

#[library_benchmark]
#[benches::full(args = [0, 1, 2, 3, 4, 5], setup = quince_setup)]
fn quince_full((mut pos, depth): (Position, u32)) -> u64 {
    black_box(quince_perft(black_box(&mut pos), depth, false))
}

#[library_benchmark]
#[benches::bulk(args = [0, 1, 2, 3, 4, 5], setup = cozy_setup)]
fn cozy_bulk((board, depth): (cozy_chess::Board, u32)) -> u64 {
    black_box(cozy_perft(black_box(&board), depth, true))
}

#[library_benchmark]
#[benches::full(args = [0, 1, 2, 3, 4, 5], setup = cozy_setup)]
fn cozy_full((board, depth): (cozy_chess::Board, u32)) -> u64 {
    black_box(cozy_perft(black_box(&board), depth, false))
}

#[library_benchmark]
#[benches::bulk(args = [0, 1, 2, 3, 4, 5], setup = shakmaty_setup)]
fn shakmaty_bulk((pos, depth): (shakmaty::Chess, u32)) -> u64 {
    black_box(shakmaty_perft(black_box(&pos), depth, true))
}

#[library_benchmark]
#[benches::full(args = [0, 1, 2, 3, 4, 5], setup = shakmaty_setup)]
fn shakmaty_full((pos, depth): (shakmaty::Chess, u32)) -> u64 {
    black_box(shakmaty_perft(black_box(&pos), depth, false))
}

#[library_benchmark]
#[benches::bulk(args = [0, 1, 2, 3, 4, 5], setup = chess_setup)]
fn chess_bulk((board, depth): (chess::Board, u32)) -> u64 {
    black_box(chess_perft(black_box(&board), depth, true))
}

#[library_benchmark]
#[benches::full(args = [0, 1, 2, 3, 4, 5], setup = chess_setup)]
fn chess_full((board, depth): (chess::Board, u32)) -> u64 {
    black_box(chess_perft(black_box(&board), depth, false))
}

library_benchmark_group!(
    name = perft,
    benchmarks = [
        quince_bulk,
        quince_full,
        cozy_bulk,
        cozy_full,
        shakmaty_bulk,
        shakmaty_full,
        chess_bulk,
        chess_full
    ]
);

// Move generation over the varied set (every legal move enumerated).

fn quince_set() -> Vec<Position> {
    varied_fens().iter().map(|f| quince_board(f)).collect()
}

fn cozy_set() -> Vec<cozy_chess::Board> {
    varied_fens().iter().filter_map(|f| cozy_board(f)).collect()
}

fn shakmaty_set() -> Vec<shakmaty::Chess> {
    varied_fens()
        .iter()
        .filter_map(|f| shakmaty_board(f))
        .collect()
}

fn chess_set() -> Vec<chess::Board> {
    varied_fens()
        .iter()
        .filter_map(|f| chess_board(f))
        .collect()
}

#[library_benchmark]
#[bench::set(setup = quince_set)]
fn quince_movegen_set(positions: Vec<Position>) -> u64 {
    black_box(quince_movegen(black_box(&positions)))
}

#[library_benchmark]
#[bench::set(setup = cozy_set)]
fn cozy_movegen_set(boards: Vec<cozy_chess::Board>) -> u64 {
    black_box(cozy_movegen(black_box(&boards)))
}

#[library_benchmark]
#[bench::set(setup = shakmaty_set)]
fn shakmaty_movegen_set(boards: Vec<shakmaty::Chess>) -> u64 {
    black_box(shakmaty_movegen(black_box(&boards)))
}

#[library_benchmark]
#[bench::set(setup = chess_set)]
fn chess_movegen_set(boards: Vec<chess::Board>) -> u64 {
    black_box(chess_movegen(black_box(&boards)))
}

library_benchmark_group!(
    name = movegen,
    benchmarks = [
        quince_movegen_set,
        cozy_movegen_set,
        shakmaty_movegen_set,
        chess_movegen_set
    ]
);

// Make/unmake (Quince in place and copy-make; the peers copy-make).

fn quince_make_setup() -> (Vec<Position>, Vec<Vec<quince::Move>>) {
    let positions = quince_set();
    let moves = quince_moves(&positions);
    (positions, moves)
}

#[library_benchmark]
#[bench::set(setup = quince_make_setup)]
fn quince_unmake((mut positions, moves): (Vec<Position>, Vec<Vec<quince::Move>>)) -> u64 {
    black_box(quince_make_unmake(black_box(&mut positions), &moves))
}

#[library_benchmark]
#[bench::set(setup = quince_make_setup)]
fn quince_copy((positions, moves): (Vec<Position>, Vec<Vec<quince::Move>>)) -> u64 {
    black_box(quince_copy_make(black_box(&positions), &moves))
}

fn cozy_make_setup() -> (Vec<cozy_chess::Board>, Vec<Vec<cozy_chess::Move>>) {
    let boards = cozy_set();
    let moves = cozy_moves(&boards);
    (boards, moves)
}

#[library_benchmark]
#[bench::set(setup = cozy_make_setup)]
fn cozy_copy((boards, moves): (Vec<cozy_chess::Board>, Vec<Vec<cozy_chess::Move>>)) -> u64 {
    black_box(cozy_copy_make(black_box(&boards), &moves))
}

fn shakmaty_make_setup() -> (Vec<shakmaty::Chess>, Vec<Vec<shakmaty::Move>>) {
    let boards = shakmaty_set();
    let moves = shakmaty_moves(&boards);
    (boards, moves)
}

#[library_benchmark]
#[bench::set(setup = shakmaty_make_setup)]
fn shakmaty_copy((boards, moves): (Vec<shakmaty::Chess>, Vec<Vec<shakmaty::Move>>)) -> u64 {
    black_box(shakmaty_copy_make(black_box(&boards), &moves))
}

fn chess_make_setup() -> (Vec<chess::Board>, Vec<Vec<chess::ChessMove>>) {
    let boards = chess_set();
    let moves = chess_moves(&boards);
    (boards, moves)
}

#[library_benchmark]
#[bench::set(setup = chess_make_setup)]
fn chess_copy((boards, moves): (Vec<chess::Board>, Vec<Vec<chess::ChessMove>>)) -> u64 {
    black_box(chess_copy_make(black_box(&boards), &moves))
}

library_benchmark_group!(
    name = make,
    benchmarks = [
        quince_unmake,
        quince_copy,
        cozy_copy,
        shakmaty_copy,
        chess_copy
    ]
);

main!(library_benchmark_groups = perft, movegen, make);
