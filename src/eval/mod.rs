//! Static evaluation: a tapered middlegame/endgame score in centipawns from
//! the side to move's point of view.
//!
//! Terms, each in its own module:
//! * [`pst`]: material and piece-square tables (PeSTO, see there).
//! * [`pawns`]: passed, doubled and isolated pawns.
//! * [`pieces`]: mobility (Fruit 2.1's weights), rooks on open files, the
//!   bishop pair, and king safety (attackers on the king zone, pawn shield).
//!
//! The middlegame and endgame sums are blended by the remaining non-pawn
//! material (`phase`, 24 at the start, 0 with kings and pawns only), as in
//! PeSTO and Fruit.
//!
//! The evaluation is computed from scratch at each call, not incrementally.
//! Profiled with `perf record` on `quince bench`, `evaluate` took a modest
//! share of the search's time. The piece-square sum is only one table
//! lookup per piece, while mobility must compute every piece's attack set
//! anyway, so an incremental PST could save only a small part of that
//! share: not worth coupling the evaluation to make/unmake for now.

pub mod nnue;
pub mod pawns;
pub mod pieces;
pub mod pst;

use crate::position::Position;
use crate::types::{Color, Piece};
use pst::{PHASE_MAX, PHASE_WEIGHT, Pair};

/// A small bonus for the side to move: it usually can improve its position
/// by one move, which keeps odd and even search depths closer together.
const TEMPO: i32 = 10;

/// The evaluation of `pos` in centipawns, positive when the side to move is
/// better. Never a mate score.
pub fn evaluate(pos: &Position) -> i32 {
    let mut total: Pair = (0, 0);
    let mut phase = 0;
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let (mg, eg) = side_terms(pos, color);
        total.0 += sign * mg;
        total.1 += sign * eg;
        for piece in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
            phase += PHASE_WEIGHT[piece.index()] * pos.colored(color, piece).len() as i32;
        }
    }
    let phase = phase.min(PHASE_MAX);
    let mut score = (total.0 * phase + total.1 * (PHASE_MAX - phase)) / PHASE_MAX;
    score = scale_drawish(pos, score);
    let relative = if pos.side_to_move() == Color::White {
        score
    } else {
        -score
    };
    relative + TEMPO
}

/// Everything one side earns, as a (middlegame, endgame) pair.
fn side_terms(pos: &Position, color: Color) -> Pair {
    let mut sum: Pair = (0, 0);
    for piece in Piece::ALL {
        for square in pos.colored(color, piece) {
            let (mg, eg) = pst::psq(color, piece, square);
            sum.0 += mg;
            sum.1 += eg;
        }
    }
    for (mg, eg) in [pawns::structure(pos, color), pieces::activity(pos, color)] {
        sum.0 += mg;
        sum.1 += eg;
    }
    sum
}

/// Non-pawn material of `color` in rough centipawns (for draw scaling and
/// null-move decisions).
pub fn non_pawn_material(pos: &Position, color: Color) -> i32 {
    [
        (Piece::Knight, 300),
        (Piece::Bishop, 300),
        (Piece::Rook, 500),
        (Piece::Queen, 900),
    ]
    .iter()
    .map(|&(piece, value)| value * pos.colored(color, piece).len() as i32)
    .sum()
}

/// Without pawns, the side ahead needs more than a minor piece's worth of
/// extra material to win (KR v KB, KNN v K, KBN v KR are draws or nearly so),
/// so such scores are shrunk towards zero. `score` is from White's view.
fn scale_drawish(pos: &Position, score: i32) -> i32 {
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    if pos.colored(strong, Piece::Pawn).is_nonempty() {
        return score;
    }
    let lead = non_pawn_material(pos, strong) - non_pawn_material(pos, strong.flip());
    if lead <= 300 { score / 8 } else { score }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn start_position_is_only_the_tempo() {
        assert_eq!(eval(crate::position::STARTPOS_FEN), TEMPO);
    }

    #[test]
    fn colour_mirror_gives_the_same_score() {
        // Each FEN next to its colour-flipped twin (board mirrored, colours swapped).
        let pairs = [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1",
            ),
            (
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                "8/4p1p1/8/1r3P1K/kp5R/3P4/2P5/8 b - - 0 1",
            ),
        ];
        for (fen, mirrored) in pairs {
            assert_eq!(eval(fen), eval(mirrored), "{fen}");
        }
    }

    #[test]
    fn extra_queen_is_winning() {
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 800);
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -800);
    }

    #[test]
    fn lone_minor_piece_lead_without_pawns_is_drawish() {
        assert!(eval("4k3/8/8/8/8/8/8/2B1K1r1 w - - 0 1").abs() < 100);
    }
}
