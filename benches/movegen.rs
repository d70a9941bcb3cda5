//! Move generation, legality and make/unmake over a fixed, varied position
//! set, Quince next to cozy-chess, shakmaty and chess in the same run.
//!
//! Groups (throughput = moves, so criterion reports moves/s):
//! * `movegen/<engine>`: enumerate every legal move of every position;
//!   `movegen/quince-count` counts them from the batches without iterating.
//! * `legality/…`: Quince's check and pin detection (`check_info`) per
//!   position, and the single-move legality test (make + `is_attacked` +
//!   unmake) for every pseudo-legal move.
//! * `make/<engine>-…`: make/unmake in place and copy-make per legal move.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use quince::Position;
use quince::movegen::pseudo::{CastlingCheck, generate_pseudo};

mod common;
mod flame;

use common::*;

struct Set {
    quince: Vec<Position>,
    cozy: Vec<cozy_chess::Board>,
    shakmaty: Vec<shakmaty::Chess>,
    chess: Vec<chess::Board>,
}

fn set() -> Set {
    let fens = varied_fens();
    Set {
        quince: fens.iter().map(|f| quince_board(f)).collect(),
        cozy: fens.iter().filter_map(|f| cozy_board(f)).collect(),
        shakmaty: fens.iter().filter_map(|f| shakmaty_board(f)).collect(),
        chess: fens.iter().filter_map(|f| chess_board(f)).collect(),
    }
}

fn movegen(c: &mut Criterion) {
    let set = set();
    let moves = quince_movegen(&set.quince);
    assert_eq!(cozy_movegen(&set.cozy), moves, "cozy-chess disagrees");
    assert_eq!(shakmaty_movegen(&set.shakmaty), moves, "shakmaty disagrees");
    assert_eq!(chess_movegen(&set.chess), moves, "chess disagrees");

    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(moves));
    group.bench_function("quince", |b| {
        b.iter(|| quince_movegen(black_box(&set.quince)))
    });
    group.bench_function("quince-count", |b| {
        b.iter(|| {
            black_box(&set.quince)
                .iter()
                .map(quince::movegen::count_legal)
                .sum::<u64>()
        })
    });
    group.bench_function("cozy-chess", |b| {
        b.iter(|| cozy_movegen(black_box(&set.cozy)))
    });
    group.bench_function("shakmaty", |b| {
        b.iter(|| shakmaty_movegen(black_box(&set.shakmaty)))
    });
    group.bench_function("chess", |b| b.iter(|| chess_movegen(black_box(&set.chess))));
    group.finish();
}

fn legality(c: &mut Criterion) {
    let set = set();
    let mut group = c.benchmark_group("legality");
    group.throughput(Throughput::Elements(set.quince.len() as u64));
    group.bench_function("check-info", |b| {
        b.iter(|| {
            black_box(&set.quince)
                .iter()
                .map(|p| {
                    let info = p.check_info();
                    info.checkers.0 ^ info.pinned.0
                })
                .fold(0, u64::wrapping_add)
        })
    });

    // Every pseudo-legal move, then the test a pseudo-legal engine runs on it.
    let pseudo: Vec<Vec<quince::Move>> = set
        .quince
        .iter()
        .map(|p| {
            let mut list = Vec::new();
            generate_pseudo(p, CastlingCheck::Attacks, |batch| {
                list.extend(batch.moves());
                false
            });
            list
        })
        .collect();
    let tests: usize = pseudo.iter().map(Vec::len).sum();
    let mut positions = set.quince.clone();
    group.throughput(Throughput::Elements(tests as u64));
    group.bench_function("make-is-attacked", |b| {
        b.iter(|| {
            let mut legal = 0u64;
            for (pos, moves) in positions.iter_mut().zip(&pseudo) {
                for &mv in moves {
                    let undo = pos.make(mv);
                    let mover = pos.side_to_move().flip();
                    let attacked =
                        pos.is_attacked(pos.king(mover), pos.side_to_move(), pos.occupied());
                    legal += u64::from(!attacked);
                    pos.unmake(mv, undo);
                }
            }
            black_box(legal)
        })
    });
    group.finish();
}

fn make(c: &mut Criterion) {
    let set = set();
    let quince_moves = quince_moves(&set.quince);
    let cozy_moves = cozy_moves(&set.cozy);
    let shakmaty_moves = shakmaty_moves(&set.shakmaty);
    let chess_moves = chess_moves(&set.chess);
    let total: usize = quince_moves.iter().map(Vec::len).sum();
    let mut positions = set.quince.clone();

    let mut group = c.benchmark_group("make");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("quince-unmake", |b| {
        b.iter(|| quince_make_unmake(black_box(&mut positions), &quince_moves))
    });
    group.bench_function("quince-copy", |b| {
        b.iter(|| quince_copy_make(black_box(&set.quince), &quince_moves))
    });
    group.bench_function("quince-play", |b| {
        b.iter(|| quince_play(black_box(&set.quince), &quince_moves))
    });
    group.bench_function("cozy-chess-copy", |b| {
        b.iter(|| cozy_copy_make(black_box(&set.cozy), &cozy_moves))
    });
    group.bench_function("shakmaty-copy", |b| {
        b.iter(|| shakmaty_copy_make(black_box(&set.shakmaty), &shakmaty_moves))
    });
    group.bench_function("chess-copy", |b| {
        b.iter(|| chess_copy_make(black_box(&set.chess), &chess_moves))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = flame::config();
    targets = movegen, legality, make
}
criterion_main!(benches);
