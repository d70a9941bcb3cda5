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
//! bitboards with the move's two squares toggled when the move touches a
//! square that decides them, else the parent's count of them
//! ([`Replies::count_parent_moves`]).
//!
//! What it bought (callgrind, PEXT, six standard positions): bulk perft's
//! instructions per node 15 % (position 3) to 43 % (Kiwipete) fewer, and
//! 1.3-1.8x the speed in alternating runs
//! (`reports/beyond-gigantua.md`).
//!
//! A move may take this path when, besides the conditions the caller
//! checks (it gives no check, and makes or breaks no pin of the opponent's:
//! `perft::strategy::legal::LeafCounter`), neither of its squares is in
//! the *guard*:
//! - the squares the opponent's king crosses when castling, the squares a
//!   castling needs empty, and the squares between one of our sliders and
//!   a castling square on its line;
//! - the lines through the opponent's king and its pinned pieces (so the
//!   pinned pieces' moves along them stay the same);
//! - for a capture, the opponent's pinned pieces (but for pawns pinned
//!   along the king's rank, which have no moves) and its castling rooks (a
//!   capture elsewhere only removes the taken piece's moves and adds the
//!   opponent's recaptures, which the recount sees: the pawns and sliders
//!   directly, the knights by a correction).
//!
//! Then the castlings, the knights' and pinned pieces' moves are the
//! parent's (but for a capture's corrections); the pawns' and sliders'
//! moves are recounted. The king's steps are the parent's unless the move
//! changes our attacks on them, which is corrected ([`StepAttacks`]): the
//! moving piece attacks a step from either square (its attack there
//! swapped for the new one), or it opens or shuts a line from one of our
//! sliders to a step, or captures next to the king (every attack on the
//! steps found again). A double push beside an opponent's pawn adds the
//! e.p. captures it allows, each tested for the rank it empties. Pin
//! changes are allowed for pawns pinned along the king's rank, which have
//! no moves: freed, one more pawn for the recount; pinned, one fewer
//! ([`Replies::count_freeing`]; common in rook endings).
//!
//! Those corrections (king steps, e.p., rank pins, captures of rank-pinned
//! pawns) took position 3's made children at depth 7 from 2.7 M of 11 M
//! to 0.5 M, and its bulk perft(8) from 2.75 s to 2.38 s (1.15x) at the
//! price of about 7 % at the start position, where the king is walled in
//! and the extra tests only cost (minimum of three alternating runs,
//! PEXT, AMD EPYC Zen 4). The lab record of that commit
//! (`peers-2026-11-26-01992d2ae6bf`, on `reports/README.md`) has position 3
//! at 1.21x Gigantua, from 1.07x. Reusing the parent's count of the
//! pawns' and sliders' moves ([`Replies::count_parent_moves`]) then gave
//! back more than that 7 %: the record `peers-2026-11-27-1e29bf9522fb` has
//! the start position at 2.05x Gigantua (from 1.66x), position 3 at 1.22x.
//!
//! Longer than 500 lines on purpose: the guard, the settled count and the
//! per-move count rest on one argument (what a move outside the guard can
//! change), and are read and checked together. The king-step attacks
//! ([`StepAttacks`]) and the tests are in `replies/`.

use crate::movegen::legal::{attacks_of, forward, settled_replies, third_rank};
use crate::movegen::promotion_rank;
use crate::position::Position;
use crate::sliders::Slider;
use crate::tables::{
    between, bishop_rays, castling_empty, castling_king_path, king_attacks, knight_attacks, line,
    pawn_attacks, rook_rays,
};
use crate::types::{Bitboard, Color, Piece, Square};
use core::marker::PhantomData;

mod step_attacks;
use step_attacks::StepAttacks;

/// The opponent's replies shared by our moves at one position, and the
/// guard that says which moves may use them ([module docs](self)).
pub(crate) struct Replies<A: Slider> {
    /// King steps and castlings, knights' and pinned pieces' moves.
    settled: u32,
    /// The squares a move may not touch to use the shortcut ([module
    /// docs](self)).
    guard: Bitboard,
    /// The squares whose attack by us decides the opponent's king steps
    /// and castlings.
    king_squares: Bitboard,
    /// The opponent's king steps (castlings aside): the king squares a
    /// move of ours may attack or stop attacking on the shortcut, their
    /// count corrected ([`StepAttacks`]).
    steps: Bitboard,
    /// The steps no castling of the opponent's crosses.
    lone_steps: Bitboard,
    /// The squares on a line from one of our sliders to a king step whose
    /// change opens or shuts it ([`Replies::new`]).
    lines_to_steps: Bitboard,
    /// Our pawns, knights and king, for a recount of the steps.
    our_pawns: Bitboard,
    our_knights: Bitboard,
    our_king: Square,
    /// Our attacks on `steps` in the parent.
    step_attacks: StepAttacks,
    /// The side to move in the parent.
    us: Color,
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
    /// The squares of our double-push rank beside an opponent's pawn: a
    /// double push onto one gives the opponent an e.p. capture.
    beside_their_pawns: Bitboard,
    /// All the opponent's pawns, pinned ones too (e.p. capturers).
    their_pawns: Bitboard,
    /// Whether some unpinned opponent's pawn stands on its seventh rank.
    promoting: bool,
    /// The squares whose change (a piece leaving or arriving) can change
    /// the unpinned pawns' moves, and those moves' count in the parent:
    /// a quiet move off these squares leaves the count as it is
    /// ([`Replies::count_guarded`]).
    pawn_squares: Bitboard,
    pawn_moves: u32,
    /// The same for the unpinned sliders: the squares they attack (first
    /// blockers included), and their moves' count in the parent.
    slider_squares: Bitboard,
    slider_moves: u32,
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
    /// The opponent's pawns on its king's rank (a move of ours may pin
    /// them along it).
    king_rank_pawns: Bitboard,
    pub(crate) knight_checks: Bitboard,
    pub(crate) pawn_checks: Bitboard,
    /// The sliding-attack technique (the active one, or each in turn in
    /// the lab's one-build generator).
    technique: PhantomData<A>,
}

impl<A: Slider> Replies<A> {
    /// The shared replies of the opponent of the side to move in `pos`,
    /// whose pieces `their_pins` are pinned.
    ///
    /// Inlined into the leaf counter: out of line, its forty-odd fields
    /// were stored into the returned value, many reloaded from spills
    /// first, and read back from memory by every move's shortcut. Inlined,
    /// bulk perft ran 4-10 % fewer instructions per node on the six
    /// standard positions (callgrind, PEXT; position 3 12.44 -> 11.40) and
    /// took 4-11 % less time (position 3 at depth 8 2.40 -> 2.16 s,
    /// alternating runs, AMD EPYC Zen 4).
    #[inline(always)]
    pub(crate) fn new(pos: &Position, their_pins: Bitboard) -> Replies<A> {
        let us = pos.side_to_move();
        let them = us.flip();
        let theirs = pos.color(them);
        let their_king = pos.king(them);
        let mut must_stay_empty = Bitboard::EMPTY;
        let mut castling_paths = Bitboard::EMPTY;
        let mut castling_rooks = Bitboard::EMPTY;
        // The paths of the castlings not blocked by a piece: only these
        // need our attacks on them counted.
        let mut open_paths = Bitboard::EMPTY;
        for rook in pos.castling().rooks_of(them) {
            let path = castling_king_path(their_king, rook);
            let empty = castling_empty(their_king, rook);
            castling_paths |= path;
            must_stay_empty |= empty;
            castling_rooks |= Bitboard::from_square(rook);
            if (empty & pos.occupied()).is_empty() {
                open_paths |= path;
            }
        }
        let steps = king_attacks(their_king) & !theirs;
        // The squares whose attack by us decides the king's moves.
        let king_squares = steps | castling_paths;
        // The steps no castling crosses: an attack on one changes that
        // step only.
        let lone_steps = steps & !castling_paths;
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
        // Kept apart: the lines to a castling square (guarded) and to a
        // step (a move touching one has the steps recounted in full).
        let mut lines_to_castling = Bitboard::EMPTY;
        let mut lines_to_steps = Bitboard::EMPTY;
        let mut add_line = |slider: Square, square: Square| {
            let line = watched(between(slider, square));
            if castling_paths.contains(square) {
                lines_to_castling |= line;
            } else {
                lines_to_steps |= line;
            }
        };
        for slider in our_orthogonal {
            for square in king_squares & rook_rays(slider) {
                add_line(slider, square);
            }
        }
        for slider in our_diagonal {
            for square in king_squares & bishop_rays(slider) {
                add_line(slider, square);
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
        // The king's steps and the lines to them are not guarded: a move
        // onto, off, attacking or on a line to one has the steps recounted
        // (`count_guarded`). A castling's squares and lines are.
        let guard = castling_paths | must_stay_empty | lines_to_castling | pin_lines;
        // A capture changes the castling rights if it takes a castling
        // rook, the settled count if it takes a pinned piece with moves:
        // not for the shortcut. (One next to the king makes a step:
        // recounted. A rank-pinned pawn has no moves to take away.)
        let capture_guard = (their_pins & !rank_pinned_pawns) | castling_rooks;

        let free = !their_pins;
        let their_queens = pos.colored(them, Piece::Queen);
        let (west, east) = pawn_steps(them);
        let free_pawns = their_pawns & free;
        let step_attacks = StepAttacks::new::<A>(
            pos,
            our_diagonal,
            our_orthogonal,
            steps | open_paths,
            steps,
            lifted,
        );
        let mut replies = Replies {
            settled: settled_replies::<A>(pos, them, their_pins, step_attacks.once),
            guard,
            king_squares,
            steps,
            lone_steps,
            lines_to_steps,
            our_pawns: pos.colored(us, Piece::Pawn),
            our_knights: pos.colored(us, Piece::Knight),
            our_king: pos.king(us),
            step_attacks,
            us,
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
            beside_their_pawns,
            their_pawns,
            // A rank-pinned pawn may be freed (`pins_after`).
            promoting: ((free_pawns | rank_pinned_pawns) & promotion_rank(them)).is_nonempty(),
            rank_pinned_pawns,
            king_rank_pawns: their_pawns & king_rank,
            their_king,
            their_pins,
            our_orthogonal,
            our_diagonal,
            knight_checks: knight_attacks(their_king),
            pawn_checks: pawn_attacks(them, their_king),
            pawn_squares: Bitboard::EMPTY,
            pawn_moves: 0,
            slider_squares: Bitboard::EMPTY,
            slider_moves: 0,
            technique: PhantomData,
        };
        replies.count_parent_moves();
        replies
    }

    /// The parent's counts of the unpinned pawns' and sliders' moves, and
    /// the squares a move must touch to change them.
    ///
    /// Most of our moves at a leaf parent leave the opponent's pawns and
    /// sliders as they were: a pawn's moves change only if one of its push
    /// or capture squares changes, a slider's only if a square it attacks
    /// (its first blockers included) does. Counted once here, the parent's
    /// count serves every quiet move off those squares (callgrind, PEXT:
    /// instructions per node 31 % fewer at the start position, 7 % on
    /// position 3, 9-18 % on Kiwipete and positions 4-6; bulk perft's time
    /// 20 % less at the start position, 6-13 % on Kiwipete and positions
    /// 4-6, position 3 about 1 %, within noise, as its extra branches are
    /// mispredicted more: median of three alternating runs, AMD EPYC Zen 4).
    #[inline(always)]
    fn count_parent_moves(&mut self) {
        let pawns = self.pawns;
        // Every square a push (a double push through its first square) or
        // a capture of theirs could reach, whatever stands there.
        let (one, west, east) = self.pawn_reach(pawns);
        let two = (one & self.second_push_from).rotate(self.push);
        self.pawn_squares = one | two | west | east;
        self.pawn_moves = self.pawn_moves_on(pawns, !self.occupied, self.ours);
        let mut reach = Bitboard::EMPTY;
        let mut moves = 0;
        for from in self.diagonal {
            let attacks = A::bishop(from, self.occupied);
            reach |= attacks;
            moves += (attacks & !self.theirs).len();
        }
        for from in self.orthogonal {
            let attacks = A::rook(from, self.occupied);
            reach |= attacks;
            moves += (attacks & !self.theirs).len();
        }
        self.slider_squares = reach;
        self.slider_moves = moves;
    }

    /// The squares one step ahead of the opponent's `pawns`, and those
    /// they would capture on towards the a-file and the h-file, on an
    /// empty board.
    #[inline(always)]
    fn pawn_reach(&self, pawns: Bitboard) -> (Bitboard, Bitboard, Bitboard) {
        (
            pawns.rotate(self.push),
            (pawns & !Bitboard::FILE_A).rotate(self.west),
            (pawns & !Bitboard::FILE_H).rotate(self.east),
        )
    }

    /// The moves of the opponent's `pawns` (promotions four each) with the
    /// squares `empty` empty and our pieces on `ours`.
    #[inline(always)]
    fn pawn_moves_on(&self, pawns: Bitboard, empty: Bitboard, ours: Bitboard) -> u32 {
        let (one, west, east) = self.pawn_reach(pawns);
        let one = one & empty;
        let two = (one & self.second_push_from).rotate(self.push) & empty;
        let (west, east) = (west & ours, east & ours);
        let mut n = one.len() + two.len() + west.len() + east.len();
        if self.promoting {
            let back_rank = Bitboard::RANK_1 | Bitboard::RANK_8;
            n +=
                3 * ((one & back_rank).len() + (west & back_rank).len() + (east & back_rank).len());
        }
        n
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
        if (squares & self.guard).is_nonempty() {
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
    /// `their_pins` to `pins`, if it only frees or pins pawns along the
    /// king's rank: such a pawn has no moves, so its pin adds nothing to
    /// the settled count and no line to the guard; once freed it is one
    /// more pawn for the recount, once pinned one fewer. Our rook leaving
    /// or reaching the rank on which it pins such a pawn, or a pawn of
    /// ours stepping in between or out, is common in rook endings: on
    /// position 3, 7-9 % of the leaf parents' children freed one, made
    /// and counted one by one before; allowing new rank pins too took
    /// the made children at depth 7 from 0.68 M to 0.51 M. Out of line,
    /// so the common path keeps its registers (inlined, the other
    /// positions ran about 1 % more instructions per node).
    #[inline(never)]
    fn count_freeing<const CAPTURE: bool>(
        &self,
        piece: Piece,
        from: Square,
        to: Square,
        squares: Bitboard,
        pins: Bitboard,
    ) -> Option<u64> {
        let changed = self.their_pins ^ pins;
        // Only rank-pinned pawns freed, and only pawns on the king's rank
        // pinned (along it). (A capture never takes a pinned piece here:
        // the capture guard holds them.)
        let freed = changed & self.their_pins;
        let pinned = changed & pins;
        if (freed & !self.rank_pinned_pawns).is_nonempty()
            || (pinned & !self.king_rank_pawns).is_nonempty()
        {
            return None;
        }
        self.count_guarded::<CAPTURE>(piece, from, to, squares, changed)
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

    /// The squares the moving piece attacks from `from` in the parent and
    /// from `to` after the move (`toggled`: the squares whose occupancy
    /// changes), the opponent's king lifted off the board.
    #[inline(always)]
    fn mover_attacks(
        &self,
        piece: Piece,
        from: Square,
        to: Square,
        toggled: Bitboard,
    ) -> (Bitboard, Bitboard) {
        let before = self.occupied_without_king;
        let after = before ^ toggled;
        let us = self.us;
        match piece {
            Piece::Pawn => (pawn_attacks(us, from), pawn_attacks(us, to)),
            Piece::Knight => (knight_attacks(from), knight_attacks(to)),
            Piece::King => (king_attacks(from), king_attacks(to)),
            Piece::Bishop => (A::bishop(from, before), A::bishop(to, after)),
            Piece::Rook => (A::rook(from, before), A::rook(to, after)),
            Piece::Queen => (
                A::bishop(from, before) | A::rook(from, before),
                A::bishop(to, after) | A::rook(to, after),
            ),
        }
    }

    /// The opponent's legal e.p. captures after our pawn's move from
    /// `from` to `to` (`occupied` after it), if that was a double push.
    /// The opponent is not in check, and an e.p. capture takes two pawns
    /// off one rank at once: it is legal exactly when no slider of ours
    /// then sees the opponent's king (position 3's rook along the fourth
    /// rank).
    #[inline(never)]
    fn en_passant_replies(&self, from: Square, to: Square, occupied: Bitboard) -> u32 {
        if from.index().abs_diff(to.index()) != 16 {
            return 0;
        }
        // Pinned or not: the test below is exact either way.
        let capturers = sideways(Bitboard::from_square(to)) & self.their_pawns;
        let target = Square::new(((from.index() + to.index()) / 2) as u8);
        let king = self.their_king;
        let mut n = 0;
        for pawn in capturers {
            let after = occupied
                ^ Bitboard::from_square(pawn)
                ^ Bitboard::from_square(to)
                ^ Bitboard::from_square(target);
            let exposed = (A::rook(king, after) & self.our_orthogonal)
                | (A::bishop(king, after) & self.our_diagonal);
            n += u32::from(exposed.is_empty());
        }
        n
    }

    /// How many of `steps`, the opponent's king steps after a move of our
    /// `piece` that opens or shuts a line to one or captures on one, are
    /// not attacked: every attack of ours found again on the board after
    /// the move (to `to`; `squares`: its two squares; `toggled`: those whose
    /// occupancy changes). Out of line: rare but for endings, where it
    /// spares a made child.
    #[inline(never)]
    fn free_steps_after(
        &self,
        piece: Piece,
        to: Square,
        squares: Bitboard,
        toggled: Bitboard,
        steps: Bitboard,
    ) -> u32 {
        let moved = |set: Bitboard, kind: bool| if kind { set ^ squares } else { set };
        let king = if piece == Piece::King {
            to
        } else {
            self.our_king
        };
        let attacked = attacks_of::<A>(
            self.us,
            moved(self.our_pawns, piece == Piece::Pawn),
            moved(self.our_knights, piece == Piece::Knight),
            moved(
                self.our_diagonal,
                matches!(piece, Piece::Bishop | Piece::Queen),
            ),
            moved(
                self.our_orthogonal,
                matches!(piece, Piece::Rook | Piece::Queen),
            ),
            king,
            self.occupied_without_king ^ toggled,
        );
        (steps & !attacked).len()
    }

    /// The count once the guard has passed.
    #[inline(always)]
    fn count_guarded<const CAPTURE: bool>(
        &self,
        piece: Piece,
        from: Square,
        to: Square,
        squares: Bitboard,
        pin_changes: Bitboard,
    ) -> Option<u64> {
        let captured = captured::<CAPTURE>(to);
        // The squares whose occupancy changes: a capture's destination
        // stays occupied.
        let toggled = squares ^ captured;
        let occupied = self.occupied ^ toggled;
        let mut n = self.settled;
        // The king's steps: recounted in full when the move opens or
        // shuts a line from one of our sliders to one, else corrected when
        // the moving piece attacks one from where it stood or where it
        // lands (the opponent's king lifted, as for the king's steps).
        let (was, will) = self.mover_attacks(piece, from, to, toggled);
        let touched = (was | will) & self.king_squares;
        if (touched & !self.lone_steps).is_nonempty() {
            // A castling square: castling is left to the made child.
            return None;
        }
        // A capture next to their king makes its square a step.
        let capture_step = captured & king_attacks(self.their_king);
        if capture_step.is_nonempty() || (squares & self.lines_to_steps).is_nonempty() {
            let steps = self.steps | capture_step;
            n = n + self.free_steps_after(piece, to, squares, toggled, steps)
                - self.step_attacks.free;
        } else {
            // Exact whether or not the moving piece touches a step (if it
            // does not, the free steps are the parent's). A branch on
            // `touched` saved the few instructions but was mispredicted
            // often: position 3's perft(8) 2.44 s with it, 2.38 s without
            // (median of five alternating runs).
            let attacks = self.step_attacks;
            n = n + attacks.free_after(self.steps, was, will) - attacks.free;
        }
        // The e.p. captures a double push beside their pawns allows.
        if piece == Piece::Pawn && !CAPTURE && self.beside_their_pawns.contains(to) {
            n += self.en_passant_replies(from, to, occupied);
        }
        let ours = self.ours ^ squares;
        let theirs = self.theirs ^ captured;
        let empty = !occupied;
        // The pawns' and sliders' moves: the parent's count when the move
        // touches none of the squares that decide them (a capture changes
        // what the opponent may take, a pin change which pawns move).
        if !CAPTURE && pin_changes.is_empty() && (squares & self.pawn_squares).is_empty() {
            n += self.pawn_moves;
        } else {
            // A freed pawn joins the free ones, a newly pinned one leaves them.
            let pawns = (self.pawns ^ pin_changes) & !captured;
            n += self.pawn_moves_on(pawns, empty, ours);
        }
        if CAPTURE {
            // The opponent's knights that may now take on `to`, and no more
            // the moves of the knight taken there (counted in `settled`).
            n += (knight_attacks(to) & self.their_knights).len();
            if self.their_knights.contains(to) {
                n -= (knight_attacks(to) & !self.theirs).len();
            }
        }
        if !CAPTURE && (squares & self.slider_squares).is_empty() {
            n += self.slider_moves;
        } else {
            for from in self.diagonal & !captured {
                n += (A::bishop(from, occupied) & !theirs).len();
            }
            for from in self.orthogonal & !captured {
                n += (A::rook(from, occupied) & !theirs).len();
            }
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
mod tests;
