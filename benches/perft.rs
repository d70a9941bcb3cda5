//! Perft on the standard positions, bulk-counted and full (every leaf move
//! made), Quince (its active backend) next to cozy-chess, shakmaty and chess
//! in the same run; then every legality strategy x make style of Quince.
//!
//! Groups (throughput = leaf nodes, so criterion reports nodes/s):
//! * `perft-bulk/<position>/<engine>` and `perft-full/<position>/<engine>`
//! * `strategy-bulk/<position>/<legality>-<make>` and `strategy-full/…`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use quince::Position;
use quince::perft::strategy::{CopyMake, KingCapture, Legal, MakeStyle, Pseudo, Strategy, Unmake};

mod common;
mod flame;

use common::*;

fn engines(c: &mut Criterion, bulk: bool) {
    let kind = if bulk { "perft-bulk" } else { "perft-full" };
    for (named, depth) in standard() {
        let nodes = named.nodes(depth);
        let mut quince = quince_board(&named.fen);
        let cozy = cozy_board(&named.fen).expect("cozy-chess FEN");
        let shakmaty = shakmaty_board(&named.fen).expect("shakmaty FEN");
        let chess = chess_board(&named.fen).expect("chess FEN");
        assert_eq!(quince_perft(&mut quince, depth, bulk), nodes);
        assert_eq!(cozy_perft(&cozy, depth, bulk), nodes);
        assert_eq!(shakmaty_perft(&shakmaty, depth, bulk), nodes);
        assert_eq!(chess_perft(&chess, depth, bulk), nodes);

        let mut group = c.benchmark_group(format!("{kind}/{}", named.name));
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("quince-{}", quince::sliders::ACTIVE), |b| {
            b.iter(|| quince_perft(black_box(&mut quince), depth, bulk))
        });
        group.bench_function("cozy-chess", |b| {
            b.iter(|| cozy_perft(black_box(&cozy), depth, bulk))
        });
        group.bench_function("shakmaty", |b| {
            b.iter(|| shakmaty_perft(black_box(&shakmaty), depth, bulk))
        });
        group.bench_function("chess", |b| {
            b.iter(|| chess_perft(black_box(&chess), depth, bulk))
        });
        group.finish();
    }
}

fn perft_bulk(c: &mut Criterion) {
    engines(c, true);
}

fn perft_full(c: &mut Criterion) {
    engines(c, false);
}

fn run<S: Strategy, M: MakeStyle>(pos: &mut Position, depth: u32, bulk: bool) -> u64 {
    if bulk {
        S::perft::<M>(pos, depth)
    } else {
        S::perft_full::<M>(pos, depth)
    }
}

fn one<S: Strategy, M: MakeStyle>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    pos: &Position,
    depth: u32,
    bulk: bool,
    nodes: u64,
) {
    let mut pos = pos.clone();
    assert_eq!(run::<S, M>(&mut pos, depth, bulk), nodes);
    group.bench_function(format!("{}-{}", S::NAME, M::NAME), |b| {
        b.iter(|| run::<S, M>(black_box(&mut pos), depth, bulk))
    });
}

fn strategies(c: &mut Criterion) {
    // Two positions keep the run moderate: the quiet start and the busy kiwipete.
    for (named, depth) in standard().into_iter().take(2) {
        let pos = quince_board(&named.fen);
        let nodes = named.nodes(depth);
        for bulk in [true, false] {
            let kind = if bulk {
                "strategy-bulk"
            } else {
                "strategy-full"
            };
            let mut group = c.benchmark_group(format!("{kind}/{}", named.name));
            group.throughput(Throughput::Elements(nodes));
            one::<Legal, Unmake>(&mut group, &pos, depth, bulk, nodes);
            one::<Legal, CopyMake>(&mut group, &pos, depth, bulk, nodes);
            one::<Pseudo, Unmake>(&mut group, &pos, depth, bulk, nodes);
            one::<Pseudo, CopyMake>(&mut group, &pos, depth, bulk, nodes);
            one::<KingCapture, Unmake>(&mut group, &pos, depth, bulk, nodes);
            one::<KingCapture, CopyMake>(&mut group, &pos, depth, bulk, nodes);
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = flame::config();
    targets = perft_bulk, perft_full, strategies
}
criterion_main!(benches);
