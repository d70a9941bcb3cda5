//! The lookup tables generated at build time by `codegen/` (see `build.rs`),
//! with typed accessors. Nothing here is computed at run time.

/// The raw generated tables (`OUT_DIR/tables.rs`), as plain `u64` arrays.
#[allow(clippy::unreadable_literal, clippy::large_const_arrays)]
pub mod generated {
    include!(concat!(env!("OUT_DIR"), "/tables.rs"));
}

use crate::types::{Bitboard, Color, Square};
use generated as g;

/// Squares a knight on `square` attacks.
#[inline]
pub fn knight_attacks(square: Square) -> Bitboard {
    Bitboard(g::KNIGHT_ATTACKS[square.index()])
}

/// Squares a king on `square` attacks.
#[inline]
pub fn king_attacks(square: Square) -> Bitboard {
    Bitboard(g::KING_ATTACKS[square.index()])
}

/// Squares a pawn of `color` on `square` attacks.
#[inline]
pub fn pawn_attacks(color: Color, square: Square) -> Bitboard {
    Bitboard(g::PAWN_ATTACKS[color.index()][square.index()])
}

/// Rook attacks from `square` on an empty board (rank and file).
#[inline]
pub fn rook_rays(square: Square) -> Bitboard {
    Bitboard(g::ROOK_RAYS[square.index()])
}

/// Bishop attacks from `square` on an empty board (both diagonals).
#[inline]
pub fn bishop_rays(square: Square) -> Bitboard {
    Bitboard(g::BISHOP_RAYS[square.index()])
}

/// Squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(g::BETWEEN[a.index()][b.index()])
}

/// The squares that must be empty for the king on `king` to castle with
/// the rook on `rook` (same rank): both pieces' paths, their own squares
/// excluded. A generated table (by king square and rook file), so a
/// position need not carry its castling paths (it is copied per move).
#[inline]
pub fn castling_empty(king: Square, rook: Square) -> Bitboard {
    Bitboard(g::CASTLING_EMPTY[king.index()][rook.file().index()])
}

/// The squares the king on `king` crosses and lands on when it castles with
/// the rook on `rook` (same rank): none of them may be attacked. Generated,
/// like [`castling_empty`].
#[inline]
pub fn castling_king_path(king: Square, rook: Square) -> Bitboard {
    Bitboard(g::CASTLING_KING_PATH[king.index()][rook.file().index()])
}

/// The full line through `a` and `b` (edge to edge) if they share one, else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(g::LINE[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    //! Each table against a reference written from the definition in terms
    //! of coordinates, independently of `codegen::geometry`'s ray walking.
    use super::*;

    fn coords(s: usize) -> (i32, i32) {
        ((s % 8) as i32, (s / 8) as i32)
    }

    fn set_of(pred: impl Fn(usize) -> bool) -> u64 {
        (0..64).filter(|&t| pred(t)).fold(0, |acc, t| acc | 1 << t)
    }

    #[test]
    fn leapers_match_distance_definitions() {
        for s in 0..64 {
            let (f, r) = coords(s);
            let knight = set_of(|t| {
                let (tf, tr) = coords(t);
                ((tf - f).abs() * (tr - r).abs()) == 2
            });
            let king = set_of(|t| {
                let (tf, tr) = coords(t);
                t != s && (tf - f).abs() <= 1 && (tr - r).abs() <= 1
            });
            let white = set_of(|t| {
                let (tf, tr) = coords(t);
                tr == r + 1 && (tf - f).abs() == 1
            });
            let black = set_of(|t| {
                let (tf, tr) = coords(t);
                tr == r - 1 && (tf - f).abs() == 1
            });
            assert_eq!(g::KNIGHT_ATTACKS[s], knight, "knight {s}");
            assert_eq!(g::KING_ATTACKS[s], king, "king {s}");
            assert_eq!(g::PAWN_ATTACKS[0][s], white, "white pawn {s}");
            assert_eq!(g::PAWN_ATTACKS[1][s], black, "black pawn {s}");
        }
    }

    #[test]
    fn line_masks_match_coordinate_definitions() {
        for s in 0..64 {
            let (f, r) = coords(s);
            let others = |pred: &dyn Fn(i32, i32) -> bool| {
                set_of(|t| {
                    let (tf, tr) = coords(t);
                    t != s && pred(tf, tr)
                })
            };
            assert_eq!(g::RANK_MASKS[s], others(&|_, tr| tr == r));
            assert_eq!(g::FILE_MASKS[s], others(&|tf, _| tf == f));
            assert_eq!(g::DIAGONAL_MASKS[s], others(&|tf, tr| tf - tr == f - r));
            assert_eq!(
                g::ANTI_DIAGONAL_MASKS[s],
                others(&|tf, tr| tf + tr == f + r)
            );
        }
    }

    #[test]
    fn between_and_line_match_coordinate_definitions() {
        for a in 0..64 {
            for b in 0..64 {
                let (fa, ra) = coords(a);
                let (fb, rb) = coords(b);
                let aligned =
                    a != b && (fa == fb || ra == rb || (fa - fb).abs() == (ra - rb).abs());
                // A point is on the line through a and b if (t - a) is parallel to (b - a).
                let on_line = |t: usize| {
                    let (tf, tr) = coords(t);
                    (tf - fa) * (rb - ra) == (tr - ra) * (fb - fa)
                };
                let strictly_between = |t: usize| {
                    let (tf, tr) = coords(t);
                    on_line(t)
                        && t != a
                        && t != b
                        && (tf - fa) * (tf - fb) <= 0
                        && (tr - ra) * (tr - rb) <= 0
                };
                let expected_between = if aligned { set_of(strictly_between) } else { 0 };
                let expected_line = if aligned { set_of(on_line) } else { 0 };
                assert_eq!(g::BETWEEN[a][b], expected_between, "between {a} {b}");
                assert_eq!(g::LINE[a][b], expected_line, "line {a} {b}");
            }
        }
    }

    #[test]
    fn castling_empty_matches_file_ranges() {
        // Every king/rook file pair on both back ranks: the files each piece
        // sweeps (start to destination, inclusive), minus both start squares.
        for rank in [0, 7] {
            for king in 0..8i32 {
                for rook in (0..8i32).filter(|&r| r != king) {
                    let (king_to, rook_to) = if rook > king { (6, 5) } else { (2, 3) };
                    let sweeps = |a: i32, b: i32, f: i32| a.min(b) <= f && f <= a.max(b);
                    let expected = set_of(|t| {
                        let (f, r) = coords(t);
                        r == rank
                            && (sweeps(king, king_to, f) || sweeps(rook, rook_to, f))
                            && f != king
                            && f != rook
                    });
                    let at = |f: i32| Square::new((rank * 8 + f) as u8);
                    assert_eq!(
                        castling_empty(at(king), at(rook)).0,
                        expected,
                        "king file {king}, rook file {rook}, rank {rank}"
                    );
                    // The king's path: what it sweeps, its start only if it stays.
                    let king_path = set_of(|t| {
                        let (f, r) = coords(t);
                        r == rank && sweeps(king, king_to, f) && (f != king || king == king_to)
                    });
                    assert_eq!(
                        castling_king_path(at(king), at(rook)).0,
                        king_path,
                        "king path, king file {king}, rook file {rook}, rank {rank}"
                    );
                }
            }
        }
    }

    #[test]
    fn zobrist_keys_are_distinct() {
        let mut keys: Vec<u64> = g::ZOBRIST_PIECES.iter().flatten().copied().collect();
        keys.extend(g::ZOBRIST_CASTLING);
        keys.extend(g::ZOBRIST_EN_PASSANT);
        keys.push(g::ZOBRIST_BLACK_TO_MOVE);
        let n = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), n);
        assert!(keys.iter().all(|&k| k != 0));
    }
}
