//! Castling for the legal generator (step 6 of [`super::legal`]): which
//! castling moves have their squares empty, and which of those keep the
//! king's path out of attack, Chess960's rook-shielded paths included.
//! Castling moves are the king "taking" its own rook: the sets here hold
//! rook squares.

use super::legal::Context;
use crate::position::Position;
use crate::sliders::Slider;
use crate::tables::{castling_empty, castling_king_path};
use crate::types::{Bitboard, Color, Piece};

/// The rook squares of castling moves whose squares are empty (rights
/// present, nothing between king, rook and their destinations): one load
/// and one AND per right.
#[inline]
pub(super) fn castling_candidates(pos: &Position, cx: &Context) -> Bitboard {
    let mut to = Bitboard::EMPTY;
    for rook in pos.castling().rooks_of(cx.us) {
        if (castling_empty(cx.king, rook) & cx.occupied).is_empty() {
            to |= Bitboard::from_square(rook);
        }
    }
    to
}

/// The candidates whose king path (crossed and destination squares) is not
/// attacked. `attacked` was computed with the castling rook still on its
/// square; lifting it only matters when an enemy rook or queen stands on
/// the back rank (a Chess960 rook can shield its own king's path), and then
/// the exact test runs.
#[inline]
pub(super) fn castling_targets<A: Slider>(
    pos: &Position,
    cx: &Context,
    candidates: Bitboard,
    attacked: Bitboard,
) -> Bitboard {
    let rank = Bitboard::rank(cx.king.rank().index());
    let them = cx.us.flip();
    let rank_sliders = (pos.colored(them, Piece::Rook) | pos.colored(them, Piece::Queen)) & rank;
    let mut to = Bitboard::EMPTY;
    for rook in candidates {
        let king_path = castling_king_path(cx.king, rook);
        let safe = if rank_sliders.is_empty() {
            (king_path & attacked).is_empty()
        } else {
            let lifted = cx.occupied ^ Bitboard::from_square(cx.king) ^ Bitboard::from_square(rook);
            king_path_is_safe::<A>(pos, cx.us.flip(), king_path, lifted)
        };
        if safe {
            to |= Bitboard::from_square(rook);
        }
    }
    to
}

/// The exact castling test: no square of `king_path` is attacked by
/// `them` with `lifted` as the occupancy (the king and the castling rook
/// lifted off the board).
///
/// Out of line because it is rare, and given plain values rather than the
/// generator's `Context`: a reference made every caller store the whole
/// context to memory first, castling or not. Passing plain values ran
/// fewer instructions in full-make perft with PEXT, though more with magic
/// (`reports/archive/speed-2026-11-23-evening.md`).
#[inline(never)]
fn king_path_is_safe<A: Slider>(
    pos: &Position,
    them: Color,
    king_path: Bitboard,
    lifted: Bitboard,
) -> bool {
    !king_path
        .into_iter()
        .any(|sq| pos.is_attacked_with::<A>(sq, them, lifted))
}
