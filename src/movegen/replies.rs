//! Two-ply counting: the opponent's legal replies after a move of ours
//! (not a castling, e.p. capture or promotion), from what the replies
//! after all our moves share, without making the move.
//!
//! Bulk perft spends most of its time at the leaves' parents, where every
//! legal move of ours is made and the opponent's replies counted. Most of
//! that count is the same from one of our moves to the next: the
//! opponent's knights go where they went, its king steps onto the squares
//! it could step onto, its pinned pieces stay pinned. [`Replies`] counts
//! those parts once per parent ([`settled_replies`]) and, for each move
//! that cannot change them, adds only what such a move can change:
//! the unpinned pawns' and sliders' moves, recounted from the parent's
//! bitboards with the move's two squares toggled.
//!
//! What it bought (callgrind, PEXT, six standard positions): bulk perft's
//! instructions per node 15 % (position 3) to 43 % (Kiwipete) fewer, and
//! 1.3-1.8x the speed in alternating runs
//! (`reports/beyond-gigantua.md`).
//!
//! A move may take this path when, besides the conditions the caller
//! checks (it gives no check, and makes or breaks no pin of the opponent's:
//! `perft::strategy::LeafCounter`), neither of its squares is in its
//! piece's *guard*:
//! - for a capture, the opponent's pieces next to its king, its pinned
//!   pieces and its castling rooks (a capture elsewhere only removes the
//!   taken piece's moves and adds the opponent's recaptures, which the
//!   recount sees: the pawns and sliders directly, the knights by a
//!   correction);
//! - the squares the opponent's king may step onto or cross when castling,
//!   and the squares a castling needs empty;
//! - for a knight, pawn or king, the squares from which it would attack
//!   one of those king squares (so its attacks on them are the same before
//!   and after; a slider is asked instead whether it attacks one from
//!   either square), and for every piece the squares between any of our
//!   sliders and a king square on its line (so no slider's attack on them
//!   is blocked or uncovered);
//! - the lines through the opponent's king and its pinned pieces (so the
//!   pinned pieces' moves along them stay the same);
//! - for pawns, the squares beside an opponent's pawn on our double-push
//!   rank (so no e.p. capture arises).
//!
//! Then the king's steps and castlings are the parent's, the knights' and
//! pinned pieces' moves are too (but for a capture's corrections), and
//! e.p. is impossible; only the occupancy the pawns and sliders see
//! differs. One pin change is allowed after all: freeing a pawn pinned
//! along the king's rank, which had no moves and now counts as free
//! ([`Replies::count_freeing`]; common in rook endings).

use crate::movegen::legal::{forward, pawn_captures, settled_replies, third_rank};
use crate::movegen::promotion_rank;
use crate::position::Position;
use crate::sliders::{bishop_attacks, rook_attacks};
use crate::tables::{
    between, bishop_rays, castling_empty, castling_king_path, king_attacks, knight_attacks, line,
    pawn_attacks, rook_rays,
};
use crate::types::{Bitboard, Color, Piece, Square};

/// The opponent's replies shared by our moves at one position, and the
/// guard that says which moves may use them ([module docs](self)).
pub(crate) struct Replies {
    /// King steps and castlings, knights' and pinned pieces' moves.
    settled: u32,
    /// Per kind of our moving piece ([`Piece::index`]): the squares its
    /// move may not touch to use the shortcut.
    guard: [Bitboard; 6],
    /// The squares whose attack by us decides the opponent's king steps
    /// and castlings.
    king_squares: Bitboard,
    /// Every piece on the board, in the parent.
    occupied: Bitboard,
    /// The same without the opponent's king.
    occupied_without_king: Bitboard,
    /// Our pieces (the pawns' capture targets), in the parent.
    ours: Bitboard,
    /// The opponent's pieces (the sliders' forbidden targets).
    theirs: Bitboard,
    /// The opponent's pieces we may not take on the shortcut (next to its
    /// king, pinned, castling rooks).
    capture_guard: Bitboard,
    /// The opponent's unpinned knights (whose moves a capture changes).
    their_knights: Bitboard,
    /// The opponent's unpinned pawns, bishops and queens, rooks and queens.
    pawns: Bitboard,
    diagonal: Bitboard,
    orthogonal: Bitboard,
    /// The opponent's pawn steps as left rotations: one square forward,
    /// and capturing towards the a-file and the h-file. A rotation rather
    /// than a shift by colour: no branch, and no pawn stands on the rank it
    /// would wrap from.
    push: u32,
    west: u32,
    east: u32,
    /// The rank from which an opponent's pawn's first step may go on a
    /// second one.
    second_push_from: Bitboard,
    /// Whether some unpinned opponent's pawn stands on its seventh rank.
    promoting: bool,
    /// For [`Replies::after`] with `SCAN`: the opponent's king and our
    /// sliders.
    their_king: Square,
    our_orthogonal: Bitboard,
    our_diagonal: Bitboard,
    /// The opponent's pinned pieces, and where our knight or pawn would
    /// give check (for the `SCAN` and for the leaf counter's own test).
    pub(crate) their_pins: Bitboard,
    /// The pinned pawns among them on the king's rank (which have no
    /// moves; [`Replies::pins_after`] may free them).
    rank_pinned_pawns: Bitboard,
    pub(crate) knight_checks: Bitboard,
    pub(crate) pawn_checks: Bitboard,
}

impl Replies {
    /// The shared replies of the opponent of the side to move in `pos`,
    /// whose pieces `their_pins` are pinned.
    pub(crate) fn new(pos: &Position, their_pins: Bitboard) -> Replies {
        let us = pos.side_to_move();
        let them = us.flip();
        let theirs = pos.color(them);
        let their_king = pos.king(them);
        // The squares whose attack by us decides the king's moves.
        let mut king_squares = king_attacks(their_king) & !theirs;
        let mut must_stay_empty = Bitboard::EMPTY;
        for rook in pos.castling().rooks_of(them) {
            king_squares |= castling_king_path(their_king, rook);
            must_stay_empty |= castling_empty(their_king, rook);
        }
        // The squares next to a king square, set-wise (a loop over the
        // king squares ran about 40 instructions per leaf parent), and
        // those a knight's jump away only if we have a knight to guard.
        let near_king = king_area(king_squares);
        let mut near_knight = Bitboard::EMPTY;
        if pos.colored(us, Piece::Knight).is_nonempty() {
            for square in king_squares {
                near_knight |= knight_attacks(square);
            }
        }
        // An attacker's pawn attacks a square from where a defender's pawn
        // on that square would attack.
        let (pawn_west, pawn_east) = pawn_captures(them, king_squares);
        let near_pawn = pawn_west | pawn_east;
        let queens = pos.colored(us, Piece::Queen);
        let our_orthogonal = pos.colored(us, Piece::Rook) | queens;
        let our_diagonal = pos.colored(us, Piece::Bishop) | queens;
        // The squares whose change could open or shut a slider's line to a
        // king square: all of an open line (any arrival shuts it), the one
        // blocker of a line with one (only its leaving opens it), nothing
        // of a line with more (one move leaves it shut). Blockers are
        // counted without the opponent's king, as for its steps.
        let lifted = pos.occupied() ^ Bitboard::from_square(their_king);
        let watched = |line: Bitboard| {
            let blockers = line & lifted;
            match blockers.len() {
                0 => line,
                1 => blockers,
                _ => Bitboard::EMPTY,
            }
        };
        let mut lines_to_king = Bitboard::EMPTY;
        for slider in our_orthogonal {
            for square in king_squares & rook_rays(slider) {
                lines_to_king |= watched(between(slider, square));
            }
        }
        for slider in our_diagonal {
            for square in king_squares & bishop_rays(slider) {
                lines_to_king |= watched(between(slider, square));
            }
        }
        let their_pawns = pos.colored(them, Piece::Pawn);
        let double_push_rank = forward(us, third_rank(us));
        let beside_their_pawns = sideways(their_pawns) & double_push_rank;
        // A pinned piece moves along its pin line, up to and onto the
        // pinner: a move on that line may change those moves even when the
        // pin stays. A pinned knight never moves, nor a pawn pinned along
        // its rank.
        let mut pin_lines = Bitboard::EMPTY;
        let king_rank = Bitboard::rank(their_king.rank().index());
        let rank_pinned_pawns = their_pins & their_pawns & king_rank;
        for pinned in their_pins & !pos.colored(them, Piece::Knight) & !rank_pinned_pawns {
            pin_lines |= line(their_king, pinned);
        }
        let common = king_squares | must_stay_empty | lines_to_king | pin_lines;
        // A capture changes the opponent's king steps if next to its king,
        // the castling rights if it takes a castling rook, the pinned
        // pieces if it takes one: not for the shortcut.
        let mut capture_guard = king_attacks(their_king) | their_pins;
        for rook in pos.castling().rooks_of(them) {
            capture_guard |= Bitboard::from_square(rook);
        }
        let mut guard = [common; 6];
        guard[Piece::Pawn.index()] |= near_pawn | beside_their_pawns;
        guard[Piece::Knight.index()] |= near_knight;
        guard[Piece::King.index()] |= near_king;

        let free = !their_pins;
        let their_queens = pos.colored(them, Piece::Queen);
        let (west, east) = pawn_steps(them);
        let free_pawns = their_pawns & free;
        Replies {
            settled: settled_replies(pos, them, their_pins),
            guard,
            king_squares,
            occupied: pos.occupied(),
            occupied_without_king: lifted,
            ours: pos.color(us),
            theirs,
            capture_guard,
            their_knights: pos.colored(them, Piece::Knight) & free,
            pawns: free_pawns,
            diagonal: (pos.colored(them, Piece::Bishop) | their_queens) & free,
            orthogonal: (pos.colored(them, Piece::Rook) | their_queens) & free,
            push: if them == Color::White { 8 } else { 56 },
            west,
            east,
            second_push_from: third_rank(them),
            // A rank-pinned pawn may be freed (`pins_after`).
            promoting: ((free_pawns | rank_pinned_pawns) & promotion_rank(them)).is_nonempty(),
            rank_pinned_pawns,
            their_king,
            their_pins,
            our_orthogonal,
            our_diagonal,
            knight_checks: knight_attacks(their_king),
            pawn_checks: pawn_attacks(them, their_king),
        }
    }

    /// The opponent's replies after our move of `piece` from `from` to
    /// `to`, if the shortcut applies. The move is no castling, e.p.
    /// capture or promotion. Without `SCAN` the caller has checked that it
    /// gives no check and changes no pin of the opponent's; with `SCAN`
    /// (a move the caller could not clear: a slider on a line through the
    /// opponent's king, say) both are asked here exactly, from the
    /// parent's bitboards with the move's squares toggled, after the guard.
    #[inline(always)]
    pub(crate) fn after<const SCAN: bool>(
        &self,
        piece: Piece,
        from: Square,
        to: Square,
    ) -> Option<u64> {
        let squares = Bitboard::from_square(from) | Bitboard::from_square(to);
        if (squares & self.guard[piece.index()]).is_nonempty() {
            return None;
        }
        if self.theirs.contains(to) {
            return self.after_capture::<SCAN>(piece, from, to, squares);
        }
        self.scan_then_count::<SCAN, false>(piece, from, to, squares)
    }

    /// [`Replies::after`] for a capture. Out of line, with the capture a
    /// constant: written into the one path, its corrections cost the
    /// quiet moves about 20 instructions each (register pressure in the
    /// batch loops; start position 8.19 -> 9.10 instructions per node).
    /// Sending every move the guard rejects here instead of testing for a
    /// capture first (one test fewer for quiet moves) ran more
    /// instructions on all six positions.
    #[inline(never)]
    fn after_capture<const SCAN: bool>(
        &self,
        piece: Piece,
        from: Square,
        to: Square,
        squares: Bitboard,
    ) -> Option<u64> {
        if self.capture_guard.contains(to) {
            return None;
        }
        self.scan_then_count::<SCAN, true>(piece, from, to, squares)
    }

    /// With `SCAN`, the check and pin scan of [`Replies::after`]; then the
    /// count.
    #[inline(always)]
    fn scan_then_count<const SCAN: bool, const CAPTURE: bool>(
        &self,
        piece: Piece,
        from: Square,
        to: Square,
        squares: Bitboard,
    ) -> Option<u64> {
        if SCAN {
            let pins = self.pins_after::<CAPTURE>(piece, to, squares)?;
            if pins != self.their_pins {
                return self.count_freeing::<CAPTURE>(piece, from, to, squares, pins);
            }
        }
        self.count_guarded::<CAPTURE>(piece, from, to, squares, Bitboard::EMPTY)
    }

    /// The count after a move that changes the opponent's pins from
    /// `their_pins` to `pins`, if it only frees pawns pinned along the
    /// king's rank: such a pawn has no moves, so its pin adds nothing to
    /// the settled count and no line to the guard; once freed it is one
    /// more pawn for the recount. Our rook leaving the rank on which it
    /// pins such a pawn, or a pawn of ours stepping in between, is common
    /// in rook endings: on position 3, 7-9 % of the leaf parents'
    /// children, made and counted one by one before. Out of line, so the
    /// common path keeps its registers (inlined, the other positions ran
    /// about 1 % more instructions per node).
    #[inline(never)]
    fn count_freeing<const CAPTURE: bool>(
        &self,
        piece: Piece,
        from: Square,
        to: Square,
        squares: Bitboard,
        pins: Bitboard,
    ) -> Option<u64> {
        let freed = self.their_pins ^ pins;
        // No new pin, and only rank-pinned pawns freed. (A capture never
        // takes a pinned piece here: the capture guard holds them.)
        if (freed & pins).is_nonempty() || (freed & !self.rank_pinned_pawns).is_nonempty() {
            return None;
        }
        self.count_guarded::<CAPTURE>(piece, from, to, squares, freed)
    }

    /// The opponent's pinned pieces after the move, or `None` if it gives
    /// check, asked from the parent's bitboards with its squares toggled.
    #[inline(always)]
    fn pins_after<const CAPTURE: bool>(
        &self,
        piece: Piece,
        to: Square,
        squares: Bitboard,
    ) -> Option<Bitboard> {
        let captured = captured::<CAPTURE>(to);
        let direct = match piece {
            Piece::Knight => self.knight_checks,
            Piece::Pawn => self.pawn_checks,
            _ => Bitboard::EMPTY,
        };
        if direct.contains(to) {
            return None;
        }
        let mut orthogonal = self.our_orthogonal;
        let mut diagonal = self.our_diagonal;
        if matches!(piece, Piece::Rook | Piece::Queen) {
            orthogonal ^= squares;
        }
        if matches!(piece, Piece::Bishop | Piece::Queen) {
            diagonal ^= squares;
        }
        // A capture leaves its destination occupied.
        let occupied = self.occupied ^ squares ^ captured;
        let king = self.their_king;
        let mut pins = Bitboard::EMPTY;
        for sniper in (rook_rays(king) & orthogonal) | (bishop_rays(king) & diagonal) {
            let blockers = between(king, sniper) & occupied;
            if blockers.is_empty() {
                return None;
            }
            if !blockers.has_several() {
                pins |= blockers;
            }
        }
        Some(pins & (self.theirs ^ captured))
    }

    /// The count once the guard has passed.
    #[inline(always)]
    fn count_guarded<const CAPTURE: bool>(
        &self,
        piece: Piece,
        from: Square,
        to: Square,
        squares: Bitboard,
        freed: Bitboard,
    ) -> Option<u64> {
        let captured = captured::<CAPTURE>(to);
        // The squares whose occupancy changes: a capture's destination
        // stays occupied.
        let toggled = squares ^ captured;
        let occupied = self.occupied ^ toggled;
        // A slider's guard leaves out the lines through the king squares,
        // most of the board: it is asked instead whether it attacks one of
        // them from where it stood or where it lands (the opponent's king
        // lifted, as for the king's steps).
        let sees = match piece {
            Piece::Bishop | Piece::Rook | Piece::Queen => {
                let lifted = self.occupied_without_king ^ toggled;
                let mut sees = Bitboard::EMPTY;
                if piece != Piece::Rook {
                    sees |= bishop_attacks(from, self.occupied_without_king)
                        | bishop_attacks(to, lifted);
                }
                if piece != Piece::Bishop {
                    sees |=
                        rook_attacks(from, self.occupied_without_king) | rook_attacks(to, lifted);
                }
                sees
            }
            _ => Bitboard::EMPTY,
        };
        if (sees & self.king_squares).is_nonempty() {
            return None;
        }
        let ours = self.ours ^ squares;
        let theirs = self.theirs ^ captured;
        let empty = !occupied;
        let pawns = (self.pawns | freed) & !captured;
        let one = pawns.rotate(self.push) & empty;
        let two = (one & self.second_push_from).rotate(self.push) & empty;
        let west = (pawns & !Bitboard::FILE_A).rotate(self.west) & ours;
        let east = (pawns & !Bitboard::FILE_H).rotate(self.east) & ours;
        let mut n = self.settled + one.len() + two.len() + west.len() + east.len();
        if CAPTURE {
            // The opponent's knights that may now take on `to`, and no more
            // the moves of the knight taken there (counted in `settled`).
            n += (knight_attacks(to) & self.their_knights).len();
            if self.their_knights.contains(to) {
                n -= (knight_attacks(to) & !self.theirs).len();
            }
        }
        if self.promoting {
            let back_rank = Bitboard::RANK_1 | Bitboard::RANK_8;
            n +=
                3 * ((one & back_rank).len() + (west & back_rank).len() + (east & back_rank).len());
        }
        for from in self.diagonal & !captured {
            n += (bishop_attacks(from, occupied) & !theirs).len();
        }
        for from in self.orthogonal & !captured {
            n += (rook_attacks(from, occupied) & !theirs).len();
        }
        Some(u64::from(n))
    }
}

/// The square a move to `to` takes a piece on, if `CAPTURE`, as a set.
#[inline(always)]
const fn captured<const CAPTURE: bool>(to: Square) -> Bitboard {
    if CAPTURE {
        Bitboard::from_square(to)
    } else {
        Bitboard::EMPTY
    }
}

/// The squares one file to either side of `squares`, on their ranks.
#[inline(always)]
const fn sideways(squares: Bitboard) -> Bitboard {
    Bitboard(((squares.0 & !Bitboard::FILE_H.0) << 1) | ((squares.0 & !Bitboard::FILE_A.0) >> 1))
}

/// Every square a king on one of `squares` attacks, as one set.
#[inline(always)]
const fn king_area(squares: Bitboard) -> Bitboard {
    let beside = sideways(squares).0;
    let row = squares.0 | beside;
    Bitboard((row << 8) | (row >> 8) | beside)
}

/// A pawn of `color`'s captures towards the a-file and the h-file as left
/// rotations of the board (the capturing pawns masked off the edge file
/// first).
const fn pawn_steps(color: Color) -> (u32, u32) {
    match color {
        Color::White => (7, 9),
        Color::Black => (64 - 9, 64 - 7),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::{count_legal, generate};

    /// The position of `fen` and every position up to `plies` moves below it.
    fn tree(fen: &str, plies: u32) -> Vec<Position> {
        let mut found = vec![fen.parse::<Position>().unwrap()];
        let mut frontier = found.clone();
        for _ in 0..plies {
            let mut next = Vec::new();
            for pos in &frontier {
                generate(pos, |batch| {
                    for mv in batch.moves() {
                        next.push(pos.with_move(mv, |child| child.clone()));
                    }
                    false
                });
            }
            found.extend(next.iter().cloned());
            frontier = next;
        }
        found
    }

    /// Every move the guard lets through (quiet or capture; without `SCAN`
    /// only those that give no check and keep the pins) gets the count a
    /// made child gives, on positions with castling
    /// rights, pins, e.p. chances and promotions on both sides, and on
    /// every position two plies below them.
    #[test]
    fn shortcut_counts_match_made_children() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/3p4/4K2R w K - 0 1",
            "k7/8/8/3r4/8/3N4/3K4/8 b - - 0 1",
            // Rank-pinned pawns our moves free, one about to promote.
            "8/8/8/8/1R3p1k/8/4P3/K7 w - - 0 1",
            "8/8/8/8/8/8/1R3p1k/K7 w - - 0 1",
            "8/K1P4r/8/8/8/8/8/k7 b - - 0 1",
        ];
        let mut checked = 0;
        let mut checked_any = 0;
        let mut freeing = 0;
        for pos in fens.iter().flat_map(|fen| tree(fen, 2)) {
            let fen = pos.fen();
            let them = pos.side_to_move().flip();
            let pins = pos.sniper_lines(them).pinned;
            let replies = Replies::new(&pos, pins);
            generate(&pos, |batch| {
                for mv in batch.moves() {
                    // Captures included; castling, e.p. and promotions not.
                    let plain = mv.promotion().is_none()
                        && !pos.color(pos.side_to_move()).contains(mv.to())
                        && !(batch.piece == Piece::Pawn && Some(mv.to()) == pos.en_passant());
                    if !plain {
                        continue;
                    }
                    let child = pos.with_move(mv, |child| child.clone());
                    let keeps = !child.in_check() && child.check_info().pinned == pins;
                    if let (true, Some(n)) = (
                        keeps,
                        replies.after::<false>(batch.piece, mv.from(), mv.to()),
                    ) {
                        assert_eq!(n, count_legal(&child), "{fen} {mv:?}");
                        checked += 1;
                    }
                    // No precondition: it checks the check and pins itself.
                    if let Some(n) = replies.after::<true>(batch.piece, mv.from(), mv.to()) {
                        assert_eq!(n, count_legal(&child), "{fen} {mv:?} (with SCAN)");
                        checked_any += 1;
                        freeing += usize::from(child.check_info().pinned != pins);
                    }
                }
                false
            });
        }
        assert!(checked > 10_000, "only {checked} moves took the shortcut");
        assert!(checked_any >= checked, "{checked_any} < {checked}");
        // Moves that free a rank-pinned pawn (`count_freeing`) among them.
        assert!(freeing > 100, "only {freeing} moves freed a pinned pawn");
    }
}
