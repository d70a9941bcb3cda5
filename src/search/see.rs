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

/// The first capture of an exchange, before any reply.
struct FirstExchange {
    /// What the move wins: the captured piece, plus the promotion's gain.
    gain: i32,
    /// The piece it leaves on its target square.
    piece: Piece,
    /// The square of a pawn taken en passant (empty otherwise): the one
    /// captured piece that is not on the target square.
    en_passant_victim: Bitboard,
}

#[inline]
fn first_exchange(pos: &Position, mv: Move) -> FirstExchange {
    let (from, to) = (mv.from(), mv.to());
    let victim = captured(pos, mv);
    let mut gain = victim.map_or(0, |piece| SEE_VALUE[piece.index()]);
    let en_passant_victim = if victim.is_some() && pos.piece_on(to).is_none() {
        Bitboard::from_square(Square::from_coords(to.file(), from.rank()))
    } else {
        Bitboard::EMPTY
    };
    let mut piece = pos.piece_on(from).unwrap_or(Piece::Pawn);
    if let Some(promotion) = mv.promotion() {
        gain += SEE_VALUE[promotion.index()] - SEE_VALUE[0];
        piece = promotion;
    }
    FirstExchange {
        gain,
        piece,
        en_passant_victim,
    }
}

/// Whether `see(pos, mv) >= threshold`, the only question the search asks.
///
/// The answer is the same as [`see`]'s, but most moves need no exchange:
/// the side to move keeps at most what its move wins (it may stop, the
/// opponent may not have to) and loses at most the piece it moved (the
/// opponent takes it or stops), so `gain - value <= see <= gain`, and a
/// threshold outside that range decides at once. This skipped most of
/// the exchanges `quince bench` computed (most captures take a piece worth
/// at least the capturer, most pruning margins are below a pawn's loss).
#[inline]
pub fn see_at_least(pos: &Position, mv: Move, threshold: i32) -> bool {
    if is_castle(pos, mv) {
        return 0 >= threshold;
    }
    let FirstExchange {
        gain,
        piece,
        en_passant_victim,
    } = first_exchange(pos, mv);
    if gain < threshold {
        return false;
    }
    if gain - SEE_VALUE[piece.index()] >= threshold {
        return true;
    }
    // No reply on the square: the exchange is the move's own gain, which
    // reaches the threshold (tested above). Most quiet moves the pruning
    // asks about end here, for one attack test instead of an exchange.
    let to = mv.to();
    let mut occupied = pos.occupied() ^ Bitboard::from_square(mv.from()) ^ en_passant_victim;
    let us = pos.side_to_move();
    if !pos.is_attacked(to, us.flip(), occupied) {
        return true;
    }
    // The exchange, decided as soon as one side is sure of the outcome.
    // `score` is our result minus the threshold if the captures stopped
    // now; the side to capture next is the one behind (for us, below 0),
    // which captures with its least valuable attacker or accepts the
    // score. A side still behind after capturing has lost (the other side
    // stops); a side ahead even if its capturer is taken back has won.
    //
    // `net` is our result without the threshold. The swap list of [`see`]
    // makes a side stop when it is behind in material both before and
    // after capturing (its cut-off), even where capturing would lose less;
    // the same rule here keeps the answers equal to `see`'s, so the search
    // is unchanged. Without it, a knight taken by a pawn and retaken would
    // count -200 here and -300 there.
    let mut score = gain - threshold;
    let mut net = gain;
    let mut on_square = SEE_VALUE[piece.index()];
    let mut side = us.flip();
    loop {
        let stop_net = if side == us { net } else { -net };
        if stop_net < 0 && stop_net + on_square < 0 {
            break;
        }
        let attackers = pos.attackers_to(to, occupied) & occupied;
        let Some((square, capturer)) = least_valuable(pos, attackers, side) else {
            break;
        };
        // A king may not capture onto a square the other side still defends.
        if capturer == Piece::King && (attackers & pos.color(side.flip())).is_nonempty() {
            break;
        }
        let value = SEE_VALUE[capturer.index()];
        if side == us {
            score += on_square;
            net += on_square;
            if score < 0 {
                return false;
            }
            if score - value >= 0 {
                return true;
            }
        } else {
            score -= on_square;
            net -= on_square;
            if score >= 0 {
                return true;
            }
            if score + value < 0 {
                return false;
            }
        }
        on_square = value;
        occupied ^= Bitboard::from_square(square);
        side = side.flip();
    }
    score >= 0
}

/// The expected material gain of `mv` for the side to move, in [`SEE_VALUE`] units.
pub fn see(pos: &Position, mv: Move) -> i32 {
    if is_castle(pos, mv) {
        return 0;
    }
    let (from, to) = (mv.from(), mv.to());
    let first = first_exchange(pos, mv);
    let mut occupied = pos.occupied() ^ first.en_passant_victim;
    let mut gain = [0i32; 40];
    gain[0] = first.gain;
    let mut piece = first.piece;
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

    /// `see_at_least` answers exactly as the full exchange does, on every
    /// legal move of positions two plies around some busy middlegames, at
    /// thresholds on both sides of each move's value.
    #[test]
    fn threshold_test_agrees_with_the_full_exchange() {
        use crate::movegen::legal_moves;
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        ];
        let mut checked = 0;
        for fen in fens {
            for pos in &crate::position::with_children(fen) {
                for &mv in legal_moves(pos).iter() {
                    let value = see(pos, mv);
                    for threshold in (-1000..=1000)
                        .step_by(50)
                        .chain([value - 1, value, value + 1])
                    {
                        assert_eq!(
                            see_at_least(pos, mv, threshold),
                            value >= threshold,
                            "{} {mv:?} {threshold}",
                            pos.fen()
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }
}
