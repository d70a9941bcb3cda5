//! Piece activity: mobility, rooks on open files, the bishop pair, and king
//! safety.
//!
//! Mobility counts the squares a piece attacks that hold no own piece and
//! are not attacked by an enemy pawn, minus a typical count, with Fruit 2.1's
//! weights per square (knight 4/4, bishop 5/5, rook 2/4, queen 1/2, middle/
//! endgame) and offsets (4, 6, 7, 13). King safety counts enemy pieces
//! attacking the squares around the king, weighted by kind, and charges a
//! quadratic middlegame penalty once two or more pieces take part; a pawn
//! shield in front of a castled king earns a bonus. Those weights are this
//! engine's own, hand-set.

use super::pst::Pair;
use crate::position::Position;
use crate::sliders::{bishop_attacks, rook_attacks};
use crate::tables::{king_attacks, knight_attacks};
use crate::types::{Bitboard, Color, Piece, Square};

/// (mg weight, eg weight, offset) per knight, bishop, rook, queen.
const MOBILITY: [(i32, i32, i32); 4] = [(4, 4, 4), (5, 5, 6), (2, 4, 7), (1, 2, 13)];
/// King-zone attack weight per knight, bishop, rook, queen.
const ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];
const ROOK_OPEN: Pair = (25, 10);
const ROOK_SEMI_OPEN: Pair = (12, 6);
const BISHOP_PAIR: Pair = (30, 50);
const SHIELD_NEAR: i32 = 12;
const SHIELD_FAR: i32 = 6;

/// Squares attacked by all pawns of `color`.
#[inline]
pub fn pawn_attack_set(pos: &Position, color: Color) -> Bitboard {
    let pawns = pos.colored(color, Piece::Pawn).0;
    let not_a = !Bitboard::FILE_A.0;
    let not_h = !Bitboard::FILE_H.0;
    Bitboard(match color {
        Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    })
}

/// The squares a `piece` on `square` attacks with `occupied` as blockers.
#[inline]
fn attacks(piece: Piece, square: Square, occupied: Bitboard) -> Bitboard {
    match piece {
        Piece::Knight => knight_attacks(square),
        Piece::Bishop => bishop_attacks(square, occupied),
        Piece::Rook => rook_attacks(square, occupied),
        Piece::Queen => bishop_attacks(square, occupied) | rook_attacks(square, occupied),
        Piece::Pawn | Piece::King => Bitboard::EMPTY,
    }
}

/// The activity terms of `color`, including the safety of the enemy king
/// (charged to `color` as a bonus, which is the same as a penalty for them).
pub fn activity(pos: &Position, color: Color) -> Pair {
    let them = color.flip();
    let occupied = pos.occupied();
    let area = !pos.color(color) & !pawn_attack_set(pos, them);
    let enemy_king = pos.king(them);
    let zone = king_attacks(enemy_king) | Bitboard::from_square(enemy_king);
    let mut sum: Pair = (0, 0);
    let (mut attackers, mut units) = (0, 0);
    let kinds = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen];
    for (kind, piece) in kinds.into_iter().enumerate() {
        let (mg, eg, offset) = MOBILITY[kind];
        for square in pos.colored(color, piece) {
            let reach = attacks(piece, square, occupied);
            let count = (reach & area).len() as i32 - offset;
            sum.0 += mg * count;
            sum.1 += eg * count;
            let hits = (reach & zone).len() as i32;
            if hits > 0 {
                attackers += 1;
                units += ATTACK_WEIGHT[kind] * hits;
            }
        }
    }
    if attackers >= 2 {
        sum.0 += (units * units).min(500);
    }
    add(&mut sum, rook_files(pos, color));
    if pos.colored(color, Piece::Bishop).has_several() {
        add(&mut sum, BISHOP_PAIR);
    }
    sum.0 += pawn_shield(pos, color);
    sum
}

fn add(sum: &mut Pair, term: Pair) {
    sum.0 += term.0;
    sum.1 += term.1;
}

/// Bonuses for rooks on files without own pawns (more without any pawn).
fn rook_files(pos: &Position, color: Color) -> Pair {
    let mut sum: Pair = (0, 0);
    for square in pos.colored(color, Piece::Rook) {
        let file = Bitboard::file(square.file().index());
        if (file & pos.colored(color, Piece::Pawn)).is_nonempty() {
            continue;
        }
        let open = (file & pos.pieces(Piece::Pawn)).is_empty();
        add(&mut sum, if open { ROOK_OPEN } else { ROOK_SEMI_OPEN });
    }
    sum
}

/// Own pawns one and two ranks in front of a king on its first two ranks.
fn pawn_shield(pos: &Position, color: Color) -> i32 {
    let king = pos.king(color);
    let rank = king.rank().index();
    let home = match color {
        Color::White => rank <= 1,
        Color::Black => rank >= 6,
    };
    if !home {
        return 0;
    }
    let file = king.file().index();
    let files = Bitboard::file(file) | super::pawns::adjacent_files(file);
    let step = |n: usize| match color {
        Color::White => Bitboard::rank(rank + n),
        Color::Black => Bitboard::rank(rank - n),
    };
    let pawns = pos.colored(color, Piece::Pawn) & files;
    SHIELD_NEAR * (pawns & step(1)).len() as i32 + SHIELD_FAR * (pawns & step(2)).len() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pawn_attack_sets() {
        let pos = Position::from_fen("4k3/p7/8/8/8/8/7P/4K3 w - - 0 1").unwrap();
        assert_eq!(
            pawn_attack_set(&pos, Color::White),
            Bitboard::from_square(Square::parse("g3").unwrap())
        );
        assert_eq!(
            pawn_attack_set(&pos, Color::Black),
            Bitboard::from_square(Square::parse("b6").unwrap())
        );
    }

    #[test]
    fn shield_counts_pawns_in_front_of_castled_king() {
        let pos = Position::from_fen("6k1/5ppp/8/8/8/6P1/5P1P/6K1 w - - 0 1").unwrap();
        assert_eq!(
            pawn_shield(&pos, Color::White),
            2 * SHIELD_NEAR + SHIELD_FAR
        );
        assert_eq!(pawn_shield(&pos, Color::Black), 3 * SHIELD_NEAR);
    }
}
