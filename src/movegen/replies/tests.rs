//! The shortcut counts checked against made children.

use super::*;
use crate::movegen::{count_legal, generate};

/// The position of `fen` and every position up to `plies` moves below it.
fn tree(fen: &str, plies: u32) -> Vec<Position> {
    let mut found = vec![fen.parse::<Position>().unwrap()];
    let mut frontier = found.clone();
    for _ in 0..plies {
        let mut next = Vec::new();
        for pos in &frontier {
            generate(pos, |batch| {
                for mv in batch.moves() {
                    next.push(pos.with_move(mv, |child| child.clone()));
                }
                false
            });
        }
        found.extend(next.iter().cloned());
        frontier = next;
    }
    found
}

/// Every move the guard lets through (quiet or capture; without `SCAN`
/// only those that give no check and keep the pins) gets the count a
/// made child gives, on positions with castling
/// rights, pins, e.p. chances and promotions on both sides, and on
/// every position two plies below them.
#[test]
fn shortcut_counts_match_made_children() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/3p4/4K2R w K - 0 1",
        "k7/8/8/3r4/8/3N4/3K4/8 b - - 0 1",
        // Rank-pinned pawns our moves free, one about to promote.
        "8/8/8/8/1R3p1k/8/4P3/K7 w - - 0 1",
        "8/8/8/8/8/8/1R3p1k/K7 w - - 0 1",
        "8/K1P4r/8/8/8/8/8/k7 b - - 0 1",
    ];
    let mut checked = 0;
    let mut checked_any = 0;
    let mut freeing = 0;
    for pos in fens.iter().flat_map(|fen| tree(fen, 2)) {
        let fen = pos.fen();
        let them = pos.side_to_move().flip();
        let pins = pos.sniper_lines(them).pinned;
        let replies = Replies::<crate::sliders::Active>::new(&pos, pins);
        generate(&pos, |batch| {
            for mv in batch.moves() {
                // Captures included; castling, e.p. and promotions not.
                let plain = mv.promotion().is_none()
                    && !pos.color(pos.side_to_move()).contains(mv.to())
                    && !(batch.piece == Piece::Pawn && Some(mv.to()) == pos.en_passant());
                if !plain {
                    continue;
                }
                let child = pos.with_move(mv, |child| child.clone());
                let keeps = !child.in_check() && child.check_info().pinned == pins;
                if let (true, Some(n)) = (
                    keeps,
                    replies.after::<false>(batch.piece, mv.from(), mv.to()),
                ) {
                    assert_eq!(n, count_legal(&child), "{fen} {mv:?}");
                    checked += 1;
                }
                // No precondition: it checks the check and pins itself.
                if let Some(n) = replies.after::<true>(batch.piece, mv.from(), mv.to()) {
                    assert_eq!(n, count_legal(&child), "{fen} {mv:?} (with SCAN)");
                    checked_any += 1;
                    freeing += usize::from(child.check_info().pinned != pins);
                }
            }
            false
        });
    }
    assert!(checked > 10_000, "only {checked} moves took the shortcut");
    assert!(checked_any >= checked, "{checked_any} < {checked}");
    // Moves that free a rank-pinned pawn (`count_freeing`) among them.
    assert!(freeing > 100, "only {freeing} moves freed a pinned pawn");
}
