//! Legal move counting by popcounts, no move materialised: bulk perft's
//! last ply ([`count`]) and the opponent's settled replies for two-ply
//! counting ([`settled_replies`]).

use super::{
    Context, PawnTargets, en_passant_capturers, forward, king_moves, pawn_targets, third_rank,
};
use crate::movegen::castling::{castling_candidates, castling_targets};
use crate::movegen::promotion_rank;
use crate::position::{CheckInfo, Position};
use crate::sliders::{Active, Slider};
use crate::tables::{king_attacks, knight_attacks, line, pawn_attacks};
use crate::types::{Bitboard, Color, Piece};

/// The number of legal moves, by popcounts (no move is materialised).
///
/// One copy per side to move: with the colour a compile-time constant, the
/// pawn shifts, ranks and castling squares need no branch or select on it
/// (Gigantua's idea; callgrind, PEXT: see `reports/`).
#[inline]
pub fn count(pos: &Position) -> u64 {
    count_with::<Active>(pos)
}

/// [`count`] with the sliding attacks of technique `A` (see
/// [`fill_list_with`](super::fill_list_with)).
#[inline]
pub fn count_with<A: Slider>(pos: &Position) -> u64 {
    match pos.side_to_move() {
        Color::White => count_for::<A, true>(pos, None),
        Color::Black => count_for::<A, false>(pos, None),
    }
}

/// [`count`] for a position whose side to move is known not to be in
/// check and to have exactly the pieces `pinned` pinned: bulk perft's
/// children of moves that cannot have changed either (see
/// `perft::strategy::legal::LeafCounter`), which skip the scan of the
/// king's lines.
#[inline]
pub(crate) fn count_unchecked_with_pins<A: Slider>(pos: &Position, pinned: Bitboard) -> u64 {
    debug_assert_eq!(
        pos.check_info(),
        CheckInfo {
            checkers: Bitboard::EMPTY,
            pinned
        }
    );
    match pos.side_to_move() {
        Color::White => count_for::<A, true>(pos, Some(pinned)),
        Color::Black => count_for::<A, false>(pos, Some(pinned)),
    }
}

/// [`count`] for the side to move given as a constant (`WHITE`).
///
/// The order of the parts after the king is measured, not logical: pawns,
/// pinned pieces, sliders, knights, e.p. The counter keeps more values live
/// than there are registers, and the order decides what spills: this one
/// ran fewer instructions than knights, sliders, pawns, pinned on all six
/// standard positions (callgrind, bulk). The king stays first: counted
/// last it saved a few more instructions but was slower in wall-clock time
/// on position 6 (alternating runs;
/// `reports/archive/speed-2026-11-23-evening.md`).
#[inline(always)]
fn count_for<A: Slider, const WHITE: bool>(pos: &Position, known_pins: Option<Bitboard>) -> u64 {
    let us = if WHITE { Color::White } else { Color::Black };
    let cx = match known_pins {
        Some(pinned) => Context::with_info(
            pos,
            us,
            CheckInfo {
                checkers: Bitboard::EMPTY,
                pinned,
            },
        ),
        None => Context::new(pos, us),
    };
    let (king_steps, castles) = king_moves::<A>(pos, &cx);
    let mut n = king_steps.len() + castles.len();
    if cx.checkers.has_several() {
        return n as u64;
    }
    let free = !cx.pinned;
    // Unpinned pawns move as one set: shift, mask, popcount.
    let pawns = pos.colored(us, Piece::Pawn);
    let free_pawns = pawns & free;
    let PawnTargets {
        one,
        two,
        west,
        east,
    } = pawn_targets(&cx, us, free_pawns);
    n += one.len() + west.len() + east.len() + two.len();
    // Promotions count four moves: three more per landing on the last
    // rank, looked for only if a pawn is about to promote: one test that
    // skips the back-rank masks and popcounts in most positions. It lowered the
    // instructions per node where promotions are rare and cost a little on
    // position 4, where a pawn is about to promote in most positions
    // (`reports/archive/speed-2026-11-23-morning.md`).
    if (free_pawns & promotion_rank(us)).is_nonempty() {
        let back_rank = Bitboard::RANK_1 | Bitboard::RANK_8;
        n += 3 * ((one & back_rank).len() + (west & back_rank).len() + (east & back_rank).len());
    }
    let queens = pos.colored(us, Piece::Queen);
    let diagonal = pos.colored(us, Piece::Bishop) | queens;
    let orthogonal = pos.colored(us, Piece::Rook) | queens;
    // Pinned pieces (rare): one at a time along their pin line.
    if cx.pinned.is_nonempty() {
        n += pinned_moves::<A>(&cx, pawns, diagonal, orthogonal);
    }
    for from in diagonal & free {
        n += (A::bishop(from, cx.occupied) & cx.target).len();
    }
    for from in orthogonal & free {
        n += (A::rook(from, cx.occupied) & cx.target).len();
    }
    for from in pos.colored(us, Piece::Knight) & free {
        n += (knight_attacks(from) & cx.target).len();
    }
    n += en_passant_capturers::<A>(pos, &cx).len();
    n as u64
}

/// The moves of the pinned pieces among `pawns`, `diagonal` (bishops and
/// queens) and `orthogonal` (rooks and queens), each along its pin line.
#[inline(always)]
fn pinned_moves<A: Slider>(
    cx: &Context,
    pawns: Bitboard,
    diagonal: Bitboard,
    orthogonal: Bitboard,
) -> u32 {
    let us = cx.us;
    let empty = !cx.occupied;
    let last = promotion_rank(us);
    let mut n = 0;
    for from in cx.pinned & (diagonal | orthogonal | pawns) {
        let pin = line(cx.king, from);
        let mut to = Bitboard::EMPTY;
        if diagonal.contains(from) {
            to |= A::bishop(from, cx.occupied);
        }
        if orthogonal.contains(from) {
            to |= A::rook(from, cx.occupied);
        }
        if pawns.contains(from) {
            let one = forward(us, Bitboard::from_square(from)) & empty;
            let two = forward(us, one & third_rank(us)) & empty;
            to = (pawn_attacks(us, from) & cx.enemy) | one | two;
        }
        let moves = (to & cx.target & pin).len();
        n += if pawns.contains(from) && last.contains(from) {
            4 * moves
        } else {
            moves
        };
    }
    n
}

/// The replies of `them`, the side not to move in `pos`, that a move of
/// ours passing [`crate::movegen::replies::Replies`]' guard cannot change
/// (but for a capture's corrections there): king steps and castlings,
/// knight moves and pinned pieces' moves. `them` is not in check (we
/// are to move), `pinned` are its pinned pieces and `attacked` the
/// squares next to its king and on its castling paths that we attack
/// (its king lifted off the board), which the caller has found already.
pub(crate) fn settled_replies<A: Slider>(
    pos: &Position,
    them: Color,
    pinned: Bitboard,
    attacked: Bitboard,
) -> u32 {
    let cx = Context::with_info(
        pos,
        them,
        CheckInfo {
            checkers: Bitboard::EMPTY,
            pinned,
        },
    );
    let mut n = (king_attacks(cx.king) & !cx.own & !attacked).len();
    let castles = castling_candidates(pos, &cx);
    if castles.is_nonempty() {
        n += castling_targets::<A>(pos, &cx, castles, attacked).len();
    }
    for from in pos.colored(them, Piece::Knight) & !pinned {
        n += (knight_attacks(from) & cx.target).len();
    }
    if pinned.is_nonempty() {
        let queens = pos.colored(them, Piece::Queen);
        n += pinned_moves::<A>(
            &cx,
            pos.colored(them, Piece::Pawn),
            pos.colored(them, Piece::Bishop) | queens,
            pos.colored(them, Piece::Rook) | queens,
        );
    }
    n
}
