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
/// six piece bitboards, White's pieces and a word of state (side to move,
/// castling rook files, e.p. square) chained through `mix`. Halfmove and
/// fullmove counters are left out, as they do not change perft counts.
pub fn verification_key(pos: &Position) -> u64 {
    let mut state = u64::from(pos.side_to_move() == Color::Black);
    for (color, file) in pos.castling().iter() {
        state |= 1 << (8 + color.index() * 8 + file.index());
    }
    if let Some(ep) = pos.en_passant() {
        state |= (ep.index() as u64 + 1) << 32;
    }
    let mut h = 0x243f_6a88_85a3_08d3;
    for piece in Piece::ALL {
        h = mix(h ^ pos.pieces(piece).0);
    }
    h = mix(h ^ pos.color(Color::White).0);
    mix(h ^ state)
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
