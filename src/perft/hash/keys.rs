//! The two independent keys a perft table entry is checked against.

use crate::position::Position;
use crate::types::{Color, Piece};

/// The two independent keys of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keys {
    /// The position's incremental Zobrist key ([`Position::key`]).
    pub zobrist: u64,
    /// The independent second hash ([`verification_key`]).
    pub verify: u64,
}

impl Keys {
    /// Both keys of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> Keys {
        Keys {
            zobrist: pos.key(),
            verify: verification_key(pos),
        }
    }
}

/// A bijective 64-bit mixer (the MurmurHash3 / SplitMix64 finaliser).
#[inline]
pub(super) fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// A second hash of the position, independent of the Zobrist key: the
/// six piece bitboards, White's pieces, the castling rooks and a word for
/// side to move and e.p. square, each multiplied by its own odd constant,
/// XORed and mixed once. Halfmove and fullmove counters are left out, as
/// they do not change perft counts.
///
/// Why products rather than a chain of mixes: the eight multiplications
/// are independent, so they run side by side; a chain of eight mixes
/// waited on each other, and hashed perft(8) ran measurably slower with it
/// (an A/B of alternating runs, in the commit that made the change). Its
/// quality only steers the
/// bucket and ten check bits: a false hit still needs the full 64-bit
/// Zobrist key to agree.
#[inline]
pub fn verification_key(pos: &Position) -> u64 {
    let ep = pos
        .en_passant()
        .map_or(0, |square| square.index() as u64 + 1);
    let state = u64::from(pos.side_to_move() == Color::Black) | ep << 1;
    let words = [
        pos.pieces(Piece::Pawn).0,
        pos.pieces(Piece::Knight).0,
        pos.pieces(Piece::Bishop).0,
        pos.pieces(Piece::Rook).0,
        pos.pieces(Piece::Queen).0,
        pos.pieces(Piece::King).0,
        pos.color(Color::White).0,
        pos.castling().squares().0 ^ state.rotate_right(8),
    ];
    // Odd constants (the fractional digits of pi, e and sqrt 2, made odd).
    const K: [u64; 8] = [
        0x243f_6a88_85a3_08d3,
        0x1319_8a2e_0370_7345,
        0xa409_3822_299f_31d1,
        0x082e_fa98_ec4e_6c89,
        0xb7e1_5162_8aed_2a6b,
        0xbf71_5880_9cf4_f3c7,
        0x6a09_e667_f3bc_c909,
        0x9e37_79b9_7f4a_7c15,
    ];
    let folded = words
        .iter()
        .zip(K)
        .fold(0, |h, (&word, k)| h ^ word.wrapping_mul(k));
    mix(folded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verification_key_ignores_clocks_and_sees_side_and_castling() {
        let a = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let b = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 7 30").unwrap();
        let c = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").unwrap();
        let d = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1").unwrap();
        assert_eq!(verification_key(&a), verification_key(&b));
        assert_ne!(verification_key(&a), verification_key(&c));
        assert_ne!(verification_key(&a), verification_key(&d));
    }
}
