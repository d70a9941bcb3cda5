//! Zobrist hashing: one random key per (piece, square), castling rook,
//! e.p. file and side to move, XORed together. Keys come from the generated
//! tables (fixed seed), so they are the same in every build.

use super::Position;
use crate::tables::generated as g;
use crate::types::{Bitboard, Color, Piece, Square};

/// The key of `color`'s `piece` on `square`.
#[inline]
pub(crate) fn piece_key(color: Color, piece: Piece, square: Square) -> u64 {
    g::ZOBRIST_PIECES[color.index() * 6 + piece.index()][square.index()]
}

/// The combined key of the castling rights of the rooks on `rooks` (back-rank
/// squares). A key per right, so the key change of a make is the key of the
/// rights it lost: usually one or two squares, not every right twice.
///
/// Two lookups, one per back rank, in a generated table of every set of
/// rights on that rank, instead of a loop over the rooks: full-make perft
/// runs fewer instructions and is a little faster in wall clock
/// (`reports/archive/speed-2026-11-23-intel.md`).
#[inline]
pub(crate) fn castling_key(rooks: Bitboard) -> u64 {
    // The table sees only the two back-rank bytes; a right anywhere else
    // would be silently left out of the key.
    debug_assert!((rooks & !(Bitboard::RANK_1 | Bitboard::RANK_8)).is_empty());
    let white = (rooks.0 & 0xff) as usize;
    let black = (rooks.0 >> 56) as usize;
    g::ZOBRIST_CASTLING_SETS[0][white] ^ g::ZOBRIST_CASTLING_SETS[1][black]
}

/// [`castling_key`] the long way, a key per rook: the from-scratch key uses
/// it, so the consistency check also checks the generated sets.
fn castling_key_per_rook(rooks: Bitboard) -> u64 {
    rooks.into_iter().fold(0, |key, square| {
        let color = usize::from(square.rank().index() != 0);
        key ^ g::ZOBRIST_CASTLING[color * 8 + square.file().index()]
    })
}

/// The key of an e.p. square (by file).
#[inline]
pub(crate) fn en_passant_key(square: Square) -> u64 {
    g::ZOBRIST_EN_PASSANT[square.file().index()]
}

/// The key XORed in when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = g::ZOBRIST_BLACK_TO_MOVE;

impl Position {
    /// The Zobrist key computed from scratch (the incremental key must equal it).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for color in [Color::White, Color::Black] {
            for piece in Piece::ALL {
                for square in self.colored(color, piece) {
                    key ^= piece_key(color, piece, square);
                }
            }
        }
        key ^= castling_key_per_rook(self.castling.squares());
        if let Some(square) = self.en_passant {
            key ^= en_passant_key(square);
        }
        if self.side == Color::Black {
            key ^= BLACK_TO_MOVE;
        }
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_sets_match_the_per_rook_keys() {
        for white in 0..256u64 {
            for black in [0u64, 1, 0x81, 0xff, white] {
                let rooks = Bitboard(white | black << 56);
                assert_eq!(
                    castling_key(rooks),
                    castling_key_per_rook(rooks),
                    "{rooks:?}"
                );
            }
        }
        assert_eq!(castling_key(Bitboard::EMPTY), 0);
    }
}
