//! NNUE: an efficiently updatable neural network evaluation, trained by
//! `quince-train` on Quince's own self-play games (`quince datagen`).
//!
//! The network is `768 K -> HIDDEN x 2 -> 1`, with `BUCKETS` output layers:
//! * 768 inputs per king bucket, one per (own/opponent colour, piece,
//!   square), seen from each side: for Black the board is flipped
//!   vertically, so both sides share one set of feature weights
//!   ([`feature`]). With `K` king buckets each region of the
//!   perspective's own king has its own 768 weights, and a mirrored
//!   network flips the board left to right for a perspective whose king
//!   is on files e-h. The committed network may have one king bucket and
//!   no mirroring, which is the plain 768 inputs.
//! * The feature transformer sums the weight rows of the pieces on the
//!   board into an **accumulator** per side. A move changes two to four
//!   inputs, so the search updates the accumulators by adding and
//!   subtracting those rows ([`accumulator`]) instead of summing all pieces
//!   again: that is the "efficiently updatable" part.
//! * The output is a weighted sum of SCReLU (`clamp(x, 0, 1)^2`) of both
//!   accumulators, the side to move's first (`output.rs`), with the weights
//!   of the position's output bucket: one set per band of material
//!   ([`bucket`]), so the network can weigh the same accumulator
//!   differently in a middlegame and in an endgame at no cost in updates.
//! * Or, in a network with a hidden layer ([`L1`] units), the output reads
//!   that layer, which reads the accumulators' pairwise products
//!   (`hidden_layer.rs`): `768 K -> HIDDEN x 2 -> L1 -> 1`.
//!
//! Integer arithmetic throughout, as trained in floats and quantised by the
//! trainer: feature weights scaled by [`QA`], output weights by [`QB`].
//! The network itself is generated from `nets/quince.qnn` by `build.rs`.

pub mod accumulator;
mod hidden_dots;
mod hidden_layer;
mod output;

pub use hidden_layer::{HiddenLayer, PairWeights, QL1};

use crate::position::Position;
use crate::types::{Color, Piece, Square};

/// Scale of the feature weights and of the activation's clamp (1.0 = 255).
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's (float) output: the trainer fits
/// `sigmoid(output)` to `sigmoid(centipawns / 400)`.
pub const SCALE: i32 = 400;

/// The largest evaluation returned, far below the search's mate scores.
const MAX_EVAL: i64 = 20_000;

/// `HIDDEN` values, aligned for vector loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Vector<const N: usize>(pub [i16; N]);

/// The quantised network's weights: `N` hidden units per side, `B` output
/// buckets, `I` input features (768 per king bucket).
#[derive(Debug)]
pub struct Network<const N: usize, const B: usize, const I: usize> {
    /// One row per input feature, added to the accumulator when the piece
    /// appears and subtracted when it leaves.
    pub feature_weights: [[i16; N]; I],
    /// The accumulator's starting value for each side, before any piece
    /// row is added (scaled by [`QA`]).
    pub feature_biases: Vector<N>,
    /// Per bucket, `[side to move, opponent]`.
    pub output_weights: [[Vector<N>; 2]; B],
    /// Per bucket, added to the output sum, scaled by `QA * QB`.
    pub output_biases: [i32; B],
}

/// The output bucket of a position with `pieces` pieces on the board
/// (kings included) among `buckets`: equal bands of the 2..=32 range
/// (with 8 buckets, 2-5 pieces are bucket 0 and 30-32 bucket 7). The
/// trainer restates it, and a test of the trainer holds the two equal.
#[inline]
pub const fn bucket(pieces: u32, buckets: usize) -> usize {
    let b = (pieces.saturating_sub(2) as usize) * buckets / 32;
    if b < buckets { b } else { buckets - 1 }
}

/// The generated network and its input layout (see `codegen::network`).
#[allow(clippy::unreadable_literal, clippy::large_const_arrays)]
mod generated {
    use super::{HiddenLayer, Network, PairWeights, Vector};
    include!(concat!(env!("OUT_DIR"), "/network.rs"));
}
pub use generated::{
    BUCKETS, HIDDEN, HIDDEN_LAYER, INPUTS, KING_BUCKET_COUNT, KING_BUCKETS, L1, MAX_BUCKETS,
    MAX_HIDDEN, MAX_KING_BUCKETS, MAX_L1, MIRRORED, NETWORK,
};

/// Whether the perspective's own king decides which weights its pieces
/// use (king buckets or mirroring). Without, a king move is an update like
/// any other, and the code that tracks kings folds away.
pub const KING_DEPENDENT: bool = KING_BUCKET_COUNT > 1 || MIRRORED;

/// What `perspective`'s own king on `king` selects: its king bucket times
/// two, plus one if the board is mirrored. Two positions with the same
/// view for a perspective share its feature indices; a king move that
/// changes the view makes the accumulator start again from the pieces.
#[inline]
pub const fn king_view(perspective: Color, king: Square) -> u8 {
    let relative = match perspective {
        Color::White => king.index(),
        Color::Black => king.index() ^ 56,
    };
    let mirror = MIRRORED && relative & 7 >= 4;
    KING_BUCKETS[relative] * 2 + mirror as u8
}

/// The input feature of `piece` of `color` on `square`, seen by
/// `perspective` whose own king stands on `king`: own pieces first, then
/// the opponent's; Black sees the board flipped, so "own pawn on the
/// second rank" is one feature for both; then the king's view (see
/// [`king_view`]) picks the bucket's block of 768 and, mirrored, flips
/// the files.
#[inline]
pub const fn feature(
    perspective: Color,
    king: Square,
    color: Color,
    piece: Piece,
    square: Square,
) -> usize {
    let relative = if color.index() == perspective.index() {
        0
    } else {
        384
    };
    let mut square = match perspective {
        Color::White => square.index(),
        Color::Black => square.index() ^ 56,
    };
    if !KING_DEPENDENT {
        return relative + piece.index() * 64 + square;
    }
    let view = king_view(perspective, king) as usize;
    if view & 1 == 1 {
        square ^= 7;
    }
    (view >> 1) * 768 + relative + piece.index() * 64 + square
}

/// Both sides' accumulators of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// Indexed by perspective (`Color::index`).
    pub sides: [Vector<HIDDEN>; 2],
}

impl Accumulator {
    /// Sums the feature rows of every piece of `pos` (the slow path: the
    /// search does this at the root, and for one side after a king move
    /// that changes that side's view).
    pub fn from_position(pos: &Position) -> Accumulator {
        let sides = Color::ALL.map(|perspective| side_from_position(pos, perspective));
        Accumulator { sides }
    }

    /// The evaluation in centipawns for `side_to_move`, with `pieces`
    /// pieces on the board (which picks the output bucket).
    #[inline]
    pub fn evaluate(&self, side_to_move: Color, pieces: u32) -> i32 {
        let ours = &self.sides[side_to_move.index()];
        let theirs = &self.sides[side_to_move.flip().index()];
        let b = bucket(pieces, BUCKETS);
        let centipawns = if L1 != 0 {
            hidden_layer::centipawns(ours, theirs, b)
        } else {
            let sum = output::weighted_screlu(ours, theirs, &NETWORK.output_weights[b]);
            let out = sum / i64::from(QA) + i64::from(NETWORK.output_biases[b]);
            out * i64::from(SCALE) / i64::from(QA * QB)
        };
        // Never a mate score, whatever the weights.
        centipawns.clamp(-MAX_EVAL, MAX_EVAL) as i32
    }
}

/// `perspective`'s accumulator of `pos`, summed from its pieces.
pub(crate) fn side_from_position(pos: &Position, perspective: Color) -> Vector<HIDDEN> {
    let mut side = NETWORK.feature_biases;
    let king = pos.king(perspective);
    for color in Color::ALL {
        for piece in Piece::ALL {
            for square in pos.colored(color, piece) {
                let row =
                    &NETWORK.feature_weights[feature(perspective, king, color, piece, square)];
                add_row(&mut side.0, row);
            }
        }
    }
    side
}

#[inline]
fn add_row(values: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (v, w) in values.iter_mut().zip(row) {
        *v = v.wrapping_add(*w);
    }
}

/// The network's evaluation of `pos` from scratch, in centipawns for the
/// side to move (what the search's incremental updates must reproduce).
pub fn evaluate(pos: &Position) -> i32 {
    Accumulator::from_position(pos).evaluate(pos.side_to_move(), pos.occupied().len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_flip_for_black_and_split_own_from_opponent() {
        let sq = |s| Square::parse(s).unwrap();
        // Kings on their home squares: the view of both sides is the same
        // (both see their king on e1, their own back rank).
        let (wk, bk) = (sq("e1"), sq("e8"));
        assert_eq!(king_view(Color::White, wk), king_view(Color::Black, bk));
        // Features within the kings' block, before any mirroring.
        let base = |perspective, king| {
            let view = king_view(perspective, king) as usize;
            (view >> 1) * 768
        };
        let files = |perspective, king, index: usize| {
            if king_view(perspective, king) & 1 == 1 {
                index ^ 7
            } else {
                index
            }
        };
        let e2 = sq("e2");
        assert_eq!(
            feature(Color::White, wk, Color::White, Piece::Pawn, e2),
            base(Color::White, wk) + files(Color::White, wk, 12)
        );
        assert_eq!(
            feature(Color::Black, bk, Color::White, Piece::Pawn, e2),
            base(Color::Black, bk) + 384 + files(Color::Black, bk, 52)
        );
        let e7 = sq("e7");
        assert_eq!(
            feature(Color::Black, bk, Color::Black, Piece::Pawn, e7),
            feature(Color::White, wk, Color::White, Piece::Pawn, e2)
        );
        let h8 = sq("h8");
        assert_eq!(
            feature(Color::White, wk, Color::Black, Piece::King, h8),
            base(Color::White, wk) + 384 + 320 + files(Color::White, wk, 63)
        );
        // Every feature of every king square indexes the network.
        for king in (0..64).map(Square::new) {
            for square in (0..64).map(Square::new) {
                let f = feature(Color::Black, king, Color::White, Piece::Queen, square);
                assert!(f < INPUTS);
            }
        }
    }

    #[test]
    fn buckets_split_the_piece_count_evenly() {
        assert_eq!(bucket(32, 1), 0);
        assert_eq!(bucket(2, 8), 0);
        assert_eq!(bucket(5, 8), 0);
        assert_eq!(bucket(6, 8), 1);
        assert_eq!(bucket(31, 8), 7);
        assert_eq!(bucket(32, 8), 7);
        assert!((2..=32).all(|n| bucket(n, BUCKETS) < BUCKETS));
    }

    #[test]
    fn mirrored_positions_evaluate_alike() {
        // Colours swapped and the board flipped: the side to move sees the
        // same thing, so the network must say the same.
        let white =
            Position::from_fen("r3k2r/pp3ppp/2n5/3q4/8/2N2N2/PPP2PPP/R2QK2R w KQkq - 0 1").unwrap();
        let black =
            Position::from_fen("r2qk2r/ppp2ppp/2n2n2/8/3Q4/2N5/PP3PPP/R3K2R b KQkq - 0 1").unwrap();
        assert_eq!(evaluate(&white), evaluate(&black));
    }
}
