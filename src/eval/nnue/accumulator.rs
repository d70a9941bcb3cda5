//! The search's stack of accumulators: one per ply, each its parent plus
//! the rows the move added and minus those it removed.
//!
//! Updates are **lazy**: making a move only records which features change
//! (a [`Delta`], computed from the position before the move); the vectors
//! are brought up to date when a node is actually evaluated, from the
//! nearest computed ancestor. Nodes cut off before their static evaluation
//! (transposition-table hits, mate-distance pruning, draws) never pay for
//! the update. Unmaking is popping: the parent's accumulator is untouched,
//! which is copy-make for the accumulator alongside the position's
//! make/unmake.
//!
//! With king buckets or mirroring ([`super::KING_DEPENDENT`]), a king move
//! that changes its own side's view ([`super::king_view`]) changes every
//! feature of that side: the delta marks the side for a refresh, and the
//! side is then summed again from the evaluated position's pieces instead
//! of updated. Each side is brought up to date on its own.

use super::{Accumulator, HIDDEN, KING_DEPENDENT, NETWORK, feature, king_view, side_from_position};
use crate::position::{CastleSide, Position};
use crate::types::{Color, Move, Piece, Square};

/// The features one move turns on and off (at most two of each: castling
/// moves king and rook; a capture removes two pieces' features, the
/// mover's origin and the victim, and adds one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    added: [(u8, u8, u8); 2],
    removed: [(u8, u8, u8); 2],
    added_len: u8,
    removed_len: u8,
    /// Each colour's king square after the move (by `Color::index`), which
    /// picks that perspective's feature indices; unused (0) without
    /// king-dependent inputs.
    kings: [u8; 2],
    /// Whether the move changed that perspective's king view, so its
    /// accumulator is summed afresh rather than updated.
    refresh: [bool; 2],
}

impl Delta {
    fn add(&mut self, color: Color, piece: Piece, square: Square) {
        self.added[self.added_len as usize] = pack(color, piece, square);
        self.added_len += 1;
    }

    fn remove(&mut self, color: Color, piece: Piece, square: Square) {
        self.removed[self.removed_len as usize] = pack(color, piece, square);
        self.removed_len += 1;
    }

    /// What `mv` changes in `pos` (the position before the move).
    pub fn of_move(pos: &Position, mv: Move) -> Delta {
        let mut delta = Delta::default();
        let us = pos.side_to_move();
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = pos.piece_on(from) else {
            return delta;
        };
        if KING_DEPENDENT {
            delta.kings = Color::ALL.map(|c| pos.king(c).index() as u8);
        }
        // Castling is encoded as the king taking its own rook.
        if piece == Piece::King && pos.color(us).contains(to) {
            let (king_to, rook_to) = CastleSide::of(from, to).destinations(to.rank());
            delta.remove(us, Piece::King, from);
            delta.remove(us, Piece::Rook, to);
            delta.add(us, Piece::King, king_to);
            delta.add(us, Piece::Rook, rook_to);
            delta.king_moved(us, from, king_to);
            return delta;
        }
        if piece == Piece::King {
            delta.king_moved(us, from, to);
        }
        delta.remove(us, piece, from);
        delta.add(us, mv.promotion().unwrap_or(piece), to);
        if let Some(victim) = pos.piece_on(to) {
            delta.remove(us.flip(), victim, to);
        } else if piece == Piece::Pawn && Some(to) == pos.en_passant() {
            let victim_square = Square::new((to.index() as u8 & 7) | (from.index() as u8 & !7));
            delta.remove(us.flip(), Piece::Pawn, victim_square);
        }
        delta
    }

    /// Records `color`'s king moving `from` `to`: its new square, and a
    /// refresh of its side if its view changes.
    #[inline]
    fn king_moved(&mut self, color: Color, from: Square, to: Square) {
        if KING_DEPENDENT {
            self.kings[color.index()] = to.index() as u8;
            self.refresh[color.index()] = king_view(color, from) != king_view(color, to);
        }
    }

    /// Applies the delta to `parent`'s vectors, writing `child`: the
    /// loops compiled with AVX-512 or AVX2 where the CPU has them (32 or
    /// 16 lanes of i16 per instruction instead of 8), as the output layer
    /// does. Integer additions: every path gives the same accumulator.
    /// `sides` says which perspectives (by `Color::index`) to update.
    fn apply(&self, parent: &Accumulator, child: &mut Accumulator, sides: [bool; 2]) {
        #[cfg(target_arch = "x86_64")]
        {
            if super::output::has_avx512() {
                // SAFETY: the CPU supports AVX-512F and BW (checked just
                // above), the only requirement of calling a function
                // compiled with them enabled.
                return unsafe { self.apply_avx512(parent, child, sides) };
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU supports AVX2 (checked just above), the
                // only requirement of calling a function compiled with it.
                return unsafe { self.apply_avx2(parent, child, sides) };
            }
        }
        self.apply_portable(parent, child, sides);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn apply_avx512(&self, parent: &Accumulator, child: &mut Accumulator, sides: [bool; 2]) {
        self.apply_portable(parent, child, sides);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn apply_avx2(&self, parent: &Accumulator, child: &mut Accumulator, sides: [bool; 2]) {
        self.apply_portable(parent, child, sides);
    }

    #[inline(always)]
    fn apply_portable(&self, parent: &Accumulator, child: &mut Accumulator, sides: [bool; 2]) {
        static NO_ROW: [i16; HIDDEN] = [0; HIDDEN];
        for perspective in Color::ALL {
            if !sides[perspective.index()] {
                continue;
            }
            let king = Square::new(self.kings[perspective.index()]);
            let mut added = [&NO_ROW; 2];
            let mut removed = [&NO_ROW; 2];
            for (slot, &packed) in added.iter_mut().zip(&self.added[..self.added_len as usize]) {
                *slot = &NETWORK.feature_weights[unpack(perspective, king, packed)];
            }
            for (slot, &packed) in removed
                .iter_mut()
                .zip(&self.removed[..self.removed_len as usize])
            {
                *slot = &NETWORK.feature_weights[unpack(perspective, king, packed)];
            }
            let side = perspective.index();
            update(
                &parent.sides[side].0,
                &mut child.sides[side].0,
                &added[..self.added_len as usize],
                &removed[..self.removed_len as usize],
            );
        }
    }
}

fn pack(color: Color, piece: Piece, square: Square) -> (u8, u8, u8) {
    (
        color.index() as u8,
        piece.index() as u8,
        square.index() as u8,
    )
}

/// The feature of a packed piece for `perspective` with its king on
/// `king` (the square after the move: a move that changes the view is a
/// refresh, so before and after index alike).
fn unpack(perspective: Color, king: Square, (color, piece, square): (u8, u8, u8)) -> usize {
    let color = if color == 0 {
        Color::White
    } else {
        Color::Black
    };
    let piece = Piece::from_index(piece as usize).expect("a packed piece");
    feature(perspective, king, color, piece, Square::new(square))
}

/// `child = parent + sum(added) - sum(removed)`, one pass over the vector
/// (the common shapes spelled out so each is a single fused loop).
#[inline(always)]
fn update(
    parent: &[i16; HIDDEN],
    child: &mut [i16; HIDDEN],
    added: &[&[i16; HIDDEN]],
    removed: &[&[i16; HIDDEN]],
) {
    match (added, removed) {
        ([a], [r]) => {
            for i in 0..HIDDEN {
                child[i] = parent[i].wrapping_add(a[i]).wrapping_sub(r[i]);
            }
        }
        ([a], [r1, r2]) => {
            for i in 0..HIDDEN {
                child[i] = parent[i]
                    .wrapping_add(a[i])
                    .wrapping_sub(r1[i])
                    .wrapping_sub(r2[i]);
            }
        }
        _ => {
            *child = *parent;
            for a in added {
                for i in 0..HIDDEN {
                    child[i] = child[i].wrapping_add(a[i]);
                }
            }
            for r in removed {
                for i in 0..HIDDEN {
                    child[i] = child[i].wrapping_sub(r[i]);
                }
            }
        }
    }
}

/// One ply's accumulator and how it differs from its parent's.
#[derive(Clone, Copy)]
struct Entry {
    accumulator: Accumulator,
    delta: Delta,
    /// Whether each side of `accumulator` is up to date (otherwise only
    /// `delta` is).
    computed: [bool; 2],
}

/// The accumulators along the search's current line, root first.
///
/// `entries[..len]` is the line; the entries above `len` are left from
/// earlier lines and are overwritten, not freed, when the line grows again.
/// A push writes only the move's delta and the flag: it used to push a
/// whole `Entry`, copying the parent's accumulator (512 bytes, which the
/// lazy update overwrites anyway) twice through `memcpy`, about 6 % of
/// `quince bench`'s instructions (callgrind, depth 9).
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    len: usize,
}

impl AccumulatorStack {
    /// A stack holding `root`'s accumulator, computed from scratch.
    pub fn new(root: &Position) -> AccumulatorStack {
        let mut entries = Vec::with_capacity(256);
        entries.push(Entry {
            accumulator: Accumulator::from_position(root),
            delta: Delta::default(),
            computed: [true; 2],
        });
        AccumulatorStack { entries, len: 1 }
    }

    /// Records `mv`, about to be made in `pos`; nothing is computed yet.
    #[inline]
    pub fn push(&mut self, pos: &Position, mv: Move) {
        self.push_delta(Delta::of_move(pos, mv));
    }

    /// A null move changes no feature (the side to move is not an input:
    /// it only picks which accumulator comes first).
    #[inline]
    pub fn push_null(&mut self) {
        self.push_delta(Delta::default());
    }

    #[inline]
    fn push_delta(&mut self, delta: Delta) {
        if self.len == self.entries.len() {
            // A new height: the entry's accumulator is computed before it
            // is read, so any value will do; the root's is at hand.
            let filler = self.entries[0];
            self.entries.push(filler);
        }
        let entry = &mut self.entries[self.len];
        entry.delta = delta;
        entry.computed = [false; 2];
        self.len += 1;
    }

    /// Undoes the last push.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.len > 1, "the root is never popped");
        self.len -= 1;
    }

    /// The evaluation of `pos`, the current position (the one the pushed
    /// moves lead to), bringing the accumulators up to date first.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let top = self.len - 1;
        if KING_DEPENDENT {
            for perspective in Color::ALL {
                self.update_side(pos, perspective, top);
            }
        } else if !self.entries[top].computed[0] {
            // Both sides move together: one pass over the deltas.
            let mut first = top;
            while !self.entries[first - 1].computed[0] {
                first -= 1;
            }
            self.apply_deltas(first, top, [true; 2]);
        }
        self.entries[top]
            .accumulator
            .evaluate(pos.side_to_move(), pos.occupied().len())
    }

    /// Brings `perspective`'s side of entry `top` up to date: by the
    /// deltas from its nearest computed ancestor, or, if a move on the way
    /// changed its king view, summed afresh from `pos`.
    fn update_side(&mut self, pos: &Position, perspective: Color, top: usize) {
        let side = perspective.index();
        if self.entries[top].computed[side] {
            return;
        }
        let mut first = top;
        loop {
            if self.entries[first].delta.refresh[side] {
                // The entries from `first` up to `top` stay not computed
                // for this side: one that is evaluated later meets the same
                // refresh and sums itself from its own position.
                let entry = &mut self.entries[top];
                entry.accumulator.sides[side] = side_from_position(pos, perspective);
                entry.computed[side] = true;
                return;
            }
            if self.entries[first - 1].computed[side] {
                break;
            }
            first -= 1;
        }
        let mut sides = [false; 2];
        sides[side] = true;
        self.apply_deltas(first, top, sides);
    }

    /// Applies the deltas of entries `first..=top` to the `sides` given,
    /// each from its parent, and marks them computed.
    fn apply_deltas(&mut self, first: usize, top: usize, sides: [bool; 2]) {
        for i in first..=top {
            let (done, rest) = self.entries.split_at_mut(i);
            let parent = &done[i - 1].accumulator;
            let entry = &mut rest[0];
            entry.delta.apply(parent, &mut entry.accumulator, sides);
            for (computed, &updated) in entry.computed.iter_mut().zip(&sides) {
                *computed |= updated;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;

    /// Walks every legal move two plies deep from `fen` and checks the
    /// incremental accumulators against ones summed from scratch.
    fn check(fen: &str) {
        let root = Position::from_fen(fen).unwrap();
        let mut stack = AccumulatorStack::new(&root);
        let mut pos = root.clone();
        for mv in legal_moves(&root).as_slice().to_vec() {
            stack.push(&pos, mv);
            let undo = pos.make(mv);
            for reply in legal_moves(&pos).as_slice().to_vec() {
                stack.push(&pos, reply);
                let child = pos.play_unchecked(reply);
                assert_eq!(
                    stack.evaluate(&child),
                    super::super::evaluate(&child),
                    "{fen}: {mv:?} {reply:?}"
                );
                assert_eq!(
                    stack.entries[stack.len - 1].accumulator,
                    Accumulator::from_position(&child)
                );
                stack.pop();
            }
            stack.push_null();
            let mut passed = pos.clone();
            passed.make_null();
            assert_eq!(stack.evaluate(&passed), super::super::evaluate(&passed));
            stack.pop();
            stack.pop();
            pos.unmake(mv, undo);
        }
    }

    #[test]
    fn incremental_updates_match_a_full_refresh() {
        // Castling both ways, en passant, promotions with and without capture.
        check("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        check("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1");
        check("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
        check("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    }

    #[test]
    fn random_walks_evaluate_as_a_full_refresh() {
        // Lines up and down the tree with evaluations at some nodes only,
        // so that updates run over several uncomputed entries, some of
        // them king moves (a refresh with king buckets), and some nodes
        // are evaluated after their children.
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let root = Position::from_fen(fen).unwrap();
            let mut stack = AccumulatorStack::new(&root);
            let mut line = vec![root];
            for step in 0..3000 {
                let pos = line.last().unwrap().clone();
                let moves = legal_moves(&pos);
                if line.len() > 1 && (moves.is_empty() || line.len() > 10 || next(3) == 0) {
                    stack.pop();
                    line.pop();
                } else if !moves.is_empty() {
                    let mv = moves.as_slice()[next(moves.len())];
                    stack.push(&pos, mv);
                    line.push(pos.play_unchecked(mv));
                }
                if next(2) == 0 {
                    let pos = line.last().unwrap();
                    assert_eq!(
                        stack.evaluate(pos),
                        super::super::evaluate(pos),
                        "{fen}, step {step}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_vector_path_gives_the_same_accumulator() {
        let pos =
            Position::from_fen("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1")
                .unwrap();
        let parent = Accumulator::from_position(&pos);
        for mv in legal_moves(&pos).as_slice().to_vec() {
            let delta = Delta::of_move(&pos, mv);
            let expected = Accumulator::from_position(&pos.play_unchecked(mv));
            // A side whose king view the move changed is refreshed, not
            // updated: only the other side is compared.
            let sides = delta.refresh.map(|refresh| !refresh);
            let same = |child: &Accumulator| {
                (0..2).all(|side| !sides[side] || child.sides[side] == expected.sides[side])
            };
            let mut child = parent;
            delta.apply_portable(&parent, &mut child, sides);
            assert!(same(&child), "{mv:?}");
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("avx2") {
                    let mut child = parent;
                    // SAFETY: AVX2 is present (checked).
                    unsafe { delta.apply_avx2(&parent, &mut child, sides) };
                    assert!(same(&child), "{mv:?} (AVX2)");
                }
                if super::super::output::has_avx512() {
                    let mut child = parent;
                    // SAFETY: AVX-512F and BW are present (checked).
                    unsafe { delta.apply_avx512(&parent, &mut child, sides) };
                    assert!(same(&child), "{mv:?} (AVX-512)");
                }
            }
        }
    }

    #[test]
    fn chess960_castling_updates_king_and_rook() {
        let mut pos = Position::from_fen("1rk1r3/8/8/8/8/8/8/1RK1R3 w BEbe - 0 1").unwrap();
        pos.set_chess960(true);
        let mut stack = AccumulatorStack::new(&pos);
        for mv in legal_moves(&pos).as_slice().to_vec() {
            stack.push(&pos, mv);
            let child = pos.play_unchecked(mv);
            assert_eq!(
                stack.evaluate(&child),
                super::super::evaluate(&child),
                "{mv:?}"
            );
            stack.pop();
        }
    }
}
