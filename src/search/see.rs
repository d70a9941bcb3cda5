//! Static exchange evaluation: the material balance of the capture sequence
//! on one square, each side recapturing with its least valuable piece and
//! free to stop when continuing would lose. Used to order captures (losing
//! ones after quiet moves) and to skip losing captures in quiescence.
//!
//! The attackers are recomputed from the shrinking occupancy after every
//! capture, so sliders behind the capturer (x-rays) join in automatically.

use crate::position::Position;
use crate::types::{Bitboard, Color, Move, Piece, Square};

/// Exchange values: simple and round, the king large but not infinite.
pub const SEE_VALUE: [i32; 6] = [100, 300, 300, 500, 900, 20_000];

/// Whether `mv` is a castling move (encoded as king takes own rook).
#[inline]
pub fn is_castle(pos: &Position, mv: Move) -> bool {
    pos.color(pos.side_to_move()).contains(mv.to())
}

/// The piece `mv` captures (a pawn for en passant), if any.
#[inline]
pub fn captured(pos: &Position, mv: Move) -> Option<Piece> {
    let them = pos.color(pos.side_to_move().flip());
    if them.contains(mv.to()) {
        return pos.piece_on(mv.to());
    }
    let is_en_passant =
        pos.en_passant() == Some(mv.to()) && pos.piece_on(mv.from()) == Some(Piece::Pawn);
    is_en_passant.then_some(Piece::Pawn)
}

/// The least valuable piece of `side` among `attackers`.
#[inline]
fn least_valuable(pos: &Position, attackers: Bitboard, side: Color) -> Option<(Square, Piece)> {
    let own = attackers & pos.color(side);
    Piece::ALL.into_iter().find_map(|piece| {
        (own & pos.pieces(piece))
            .first()
            .map(|square| (square, piece))
    })
}

/// The expected material gain of `mv` for the side to move, in [`SEE_VALUE`] units.
pub fn see(pos: &Position, mv: Move) -> i32 {
    if is_castle(pos, mv) {
        return 0;
    }
    let (from, to) = (mv.from(), mv.to());
    let mut occupied = pos.occupied();
    let mut gain = [0i32; 40];
    gain[0] = match captured(pos, mv) {
        Some(piece) => SEE_VALUE[piece.index()],
        None => 0,
    };
    if pos.piece_on(to).is_none() && gain[0] > 0 {
        // En passant: the captured pawn is not on `to`.
        occupied ^= Bitboard::from_square(Square::from_coords(to.file(), from.rank()));
    }
    let mut piece = pos.piece_on(from).unwrap_or(Piece::Pawn);
    if let Some(promotion) = mv.promotion() {
        gain[0] += SEE_VALUE[promotion.index()] - SEE_VALUE[0];
        piece = promotion;
    }
    let mut side = pos.side_to_move();
    let mut from_square = from;
    let mut depth = 0;
    loop {
        depth += 1;
        // What the opponent would win by capturing the piece now on `to`.
        gain[depth] = SEE_VALUE[piece.index()] - gain[depth - 1];
        if (-gain[depth - 1]).max(gain[depth]) < 0 || depth + 1 >= gain.len() {
            break;
        }
        occupied ^= Bitboard::from_square(from_square);
        let attackers = pos.attackers_to(to, occupied) & occupied;
        side = side.flip();
        let Some((square, next)) = least_valuable(pos, attackers, side) else {
            break;
        };
        // A king may not capture onto a square the other side still defends.
        if next == Piece::King && (attackers & pos.color(side.flip())).is_nonempty() {
            break;
        }
        piece = next;
        from_square = square;
    }
    while depth > 1 {
        depth -= 1;
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        see(&pos, pos.parse_uci(uci).unwrap())
    }

    #[test]
    fn classic_exchanges() {
        // Free pawn (CPW's SEE example 1): Rxe5 wins a pawn.
        assert_eq!(
            see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
        // Defended pawn, x-ray queen behind rook (CPW example 2): Nxe5 loses.
        assert_eq!(
            see_of(
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "d3e5"
            ),
            -200
        );
        // Quiet move to an attacked square loses the piece.
        assert_eq!(see_of("4k3/8/8/3p4/8/8/8/2B1K3 w - - 0 1", "c1e3"), 0);
        assert_eq!(see_of("4k3/8/8/3p4/8/8/8/2B1K3 w - - 0 1", "c1f4"), 0);
        assert_eq!(see_of("4k3/8/4p3/3p4/8/8/8/2B1K3 w - - 0 1", "c1g5"), 0);
        assert_eq!(see_of("4k3/8/5p2/8/8/8/8/2B1K3 w - - 0 1", "c1g5"), -300);
        // En passant wins a pawn.
        assert_eq!(see_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
    }
}
