//! Move generation.
//!
//! Moves are produced in batches: a [`PieceMoves`] is one piece's origin and
//! the *set* of its destinations. Perft's last ply only needs
//! [`PieceMoves::len`] (a popcount), so bulk counting never builds a list;
//! anything else iterates the batch into [`Move`]s.
//!
//! [`legal`] generates exactly the legal moves with check and pin masks;
//! [`is_legal`] tests one move from elsewhere (a hash move) without
//! generating.

mod castling;
pub mod legal;
pub mod pseudo;
pub(crate) mod replies;
mod validate;

pub use legal::generate;
pub use validate::is_legal;

use crate::position::Position;
use crate::types::{Bitboard, Color, Move, Piece, Square};
use std::mem::MaybeUninit;

/// One piece's legal moves: its origin and destination set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceMoves {
    /// The kind of piece moving.
    pub piece: Piece,
    /// The square it moves from (for castling, the king's square).
    pub from: Square,
    /// Every square it may legally move to (for castling, the rook's square).
    pub to: Bitboard,
    /// Whether a move to the last rank (pawns only) promotes; each such
    /// destination stands for four moves.
    pub promotes: bool,
}

impl PieceMoves {
    /// The number of moves in the batch (promotions count four each).
    #[inline]
    pub fn len(&self) -> usize {
        self.to.len() as usize * if self.promotes { 4 } else { 1 }
    }

    /// Whether the batch is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }

    /// Calls `f` with each move of the batch, in the order of
    /// [`PieceMoves::moves`]; a plain loop over the targets when nothing
    /// promotes: one pop per move instead of an inner iterator over
    /// promotion pieces, which cut the instructions per node at perft's
    /// leaf parents against a `flat_map` (callgrind;
    /// `reports/archive/speed-2026-11-22-night.md`).
    #[inline]
    pub fn for_each_move(self, mut f: impl FnMut(Move)) {
        if self.promotes {
            self.moves().for_each(f);
        } else {
            for to in self.to {
                f(Move::new(self.from, to, None));
            }
        }
    }

    /// The moves of the batch, promotions queen first.
    #[inline]
    pub fn moves(self) -> BatchMoves {
        BatchMoves {
            from: self.from,
            targets: self.to,
            promotes: self.promotes,
            to: self.from,
            next_promotion: 0,
        }
    }
}

/// The origin of a pawn move to `to` from a set moving by `offset`
/// (`from = to - offset`, wrapping: see [`MoveList::push_pawn_set`]).
#[inline(always)]
pub(crate) fn pawn_origin(to: Square, offset: u8) -> Square {
    Square::new((to.index() as u8).wrapping_sub(offset))
}

/// The promotion pieces in the order moves are produced.
pub(crate) const PROMOTIONS: [Piece; 4] = [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight];

/// Iterator over a batch's moves ([`PieceMoves::moves`]). Hand-written
/// rather than a `flat_map` over promotion pieces, so that the common
/// non-promoting batch costs one pop per move.
#[derive(Clone, Debug)]
pub struct BatchMoves {
    from: Square,
    targets: Bitboard,
    promotes: bool,
    /// The target whose promotions are being produced.
    to: Square,
    /// The index in [`PROMOTIONS`] of the next promotion to produce for
    /// `to`; 0 when the next move starts a new target.
    next_promotion: usize,
}

impl Iterator for BatchMoves {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        if !self.promotes {
            let to = self.targets.next()?;
            return Some(Move::new(self.from, to, None));
        }
        if self.next_promotion == 0 {
            self.to = self.targets.next()?;
        }
        let piece = PROMOTIONS[self.next_promotion];
        self.next_promotion = (self.next_promotion + 1) % PROMOTIONS.len();
        Some(Move::new(self.from, self.to, Some(piece)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let per_target = if self.promotes { 4 } else { 1 };
        let started = if self.next_promotion == 0 {
            0
        } else {
            PROMOTIONS.len() - self.next_promotion
        };
        let n = self.targets.len() as usize * per_target + started;
        (n, Some(n))
    }
}

/// A fixed-capacity list of moves: no allocation in the search or perft
/// loops. 256 exceeds the most legal moves any position has (218).
///
/// Slots past `len` stay uninitialised: zeroing 256 moves per list was a
/// `memset` call per list, and returning the list a `memcpy` of all 256,
/// work proportional to the capacity rather than to the moves listed.
/// Dropping it lowered full-make perft's instructions per node; bulk perft,
/// whose lists are all at interior nodes, was unchanged (callgrind;
/// `reports/archive/speed-2026-11-23-day.md`).
#[derive(Clone)]
pub struct MoveList {
    moves: [MaybeUninit<Move>; 256],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; 256],
            len: 0,
        }
    }
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList::default()
    }

    /// Appends a move (ignored if the list were somehow full).
    #[inline]
    pub fn push(&mut self, mv: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            slot.write(mv);
            self.len += 1;
        }
    }

    /// Appends every move of `batch` (those that fit).
    ///
    /// The length is kept in a register for the whole batch: pushed one
    /// at a time, each store re-read `len` from memory (the compiler cannot
    /// tell a store into `moves` from one into `len`).
    #[inline]
    pub fn push_batch(&mut self, batch: PieceMoves) {
        if batch.promotes {
            batch.for_each_move(|mv| self.push(mv));
            return;
        }
        let mut len = self.len;
        for to in batch.to {
            if let Some(slot) = self.moves.get_mut(len) {
                slot.write(Move::new(batch.from, to, None));
                len += 1;
            }
        }
        self.len = len;
    }

    /// Appends, for each of `targets`, the move from the square `offset`
    /// below it (`from = to - offset`, wrapping: `offset` is negative for
    /// Black), four promotions each if `promotes`: a whole set of pawns
    /// moving the same way, listed without a batch per pawn.
    ///
    /// Its plain-move loop is `push_batch`'s with another origin. Both as
    /// one helper taking the origin as a closure measured worse, more
    /// instructions per node in full-make perft, and worse still with the
    /// promotions shared too (callgrind;
    /// `reports/archive/speed-2026-11-23-day.md`).
    #[inline]
    pub(crate) fn push_pawn_set(&mut self, targets: Bitboard, offset: u8, promotes: bool) {
        let from_of = |to| pawn_origin(to, offset);
        if promotes {
            for to in targets {
                for piece in PROMOTIONS {
                    self.push(Move::new(from_of(to), to, Some(piece)));
                }
            }
            return;
        }
        let mut len = self.len;
        for to in targets {
            if let Some(slot) = self.moves.get_mut(len) {
                slot.write(Move::new(from_of(to), to, None));
                len += 1;
            }
        }
        self.len = len;
    }

    /// The number of moves in the list.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds no move (checkmate or stalemate, for a
    /// position's legal moves).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: `push`, `push_batch` and `push_pawn_set` are the only
        // writers of `len`; each raises it by one right after writing the
        // slot at the current length, and only when that slot exists. So
        // `len <= 256` and slots `0..len` are initialised `Move`s
        // (`MaybeUninit<Move>` has `Move`'s layout).
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    /// The moves as a mutable slice (for ordering).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`; the `&mut self` borrow makes the slice
        // the only access to the list while it lives.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

/// `for mv in &list` walks the moves by reference, as for a slice.
impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// `for mv in list` walks the moves by value (a `Move` is two bytes).
///
/// ```
/// use quince::{Position, legal_moves};
/// let pos = Position::startpos();
/// let mut after = Vec::new();
/// for mv in legal_moves(&pos) {
///     after.push(pos.play(mv).unwrap());
/// }
/// assert_eq!(after.len(), 20);
/// ```
impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIntoIter;
    fn into_iter(self) -> MoveListIntoIter {
        MoveListIntoIter {
            list: self,
            next: 0,
        }
    }
}

/// The by-value iterator of a [`MoveList`].
#[derive(Clone)]
pub struct MoveListIntoIter {
    list: MoveList,
    next: usize,
}

impl Iterator for MoveListIntoIter {
    type Item = Move;
    fn next(&mut self) -> Option<Move> {
        let mv = self.list.as_slice().get(self.next).copied()?;
        self.next += 1;
        Some(mv)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.list.len() - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for MoveListIntoIter {}

/// All legal moves of `position` in a list.
///
/// ```
/// use quince::{Position, movegen};
/// assert_eq!(movegen::legal_moves(&Position::startpos()).len(), 20);
/// ```
pub fn legal_moves(position: &Position) -> MoveList {
    let mut list = MoveList::new();
    legal::fill_list(position, &mut list);
    list
}

/// The legal captures (e.p. included) and promotions of `position`, in
/// the order [`legal_moves`] lists them: what quiescence searches when not
/// in check, without generating the quiet moves it would drop.
///
/// ```
/// use quince::{Position, movegen};
/// let pos = Position::from_fen("4k3/1P6/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
/// // exd5 and the four promotions of b8
/// assert_eq!(movegen::tactical_moves(&pos).len(), 5);
/// ```
pub fn tactical_moves(position: &Position) -> MoveList {
    let mut list = MoveList::new();
    legal::generate_tactical_into(position, &mut list);
    list
}

/// The number of legal moves, counted without building a list.
#[inline]
pub fn count_legal(position: &Position) -> u64 {
    legal::count(position)
}

/// Whether the side to move has at least one legal move (stops at the first).
pub fn has_legal_move(position: &Position) -> bool {
    generate(position, |batch| batch.is_nonempty_batch())
}

impl PieceMoves {
    #[inline]
    fn is_nonempty_batch(&self) -> bool {
        self.to.is_nonempty()
    }
}

/// The rank a pawn of `color` promotes from (7th for White, 2nd for Black).
#[inline]
pub(crate) const fn promotion_rank(color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard::rank(6),
        Color::Black => Bitboard::rank(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::{suite_fens, with_children};
    use crate::types::Square;

    /// `tactical_moves` is exactly the captures and promotions of
    /// `legal_moves`, in the same order (quiescence's move order, and so
    /// the search, must not change), on every suite position (Chess960
    /// included) and its children, in check or not.
    #[test]
    fn tactical_moves_are_the_legal_captures_and_promotions_in_order() {
        let (mut positions, mut tactical) = (0, 0);
        for fen in suite_fens() {
            for pos in &with_children(fen) {
                let them = pos.color(pos.side_to_move().flip());
                let expected: Vec<Move> = legal_moves(pos)
                    .iter()
                    .copied()
                    .filter(|mv| {
                        let en_passant = pos.en_passant() == Some(mv.to())
                            && pos.piece_on(mv.from()) == Some(Piece::Pawn);
                        mv.promotion().is_some() || them.contains(mv.to()) || en_passant
                    })
                    .collect();
                assert_eq!(tactical_moves(pos).as_slice(), expected, "{}", pos.fen());
                positions += 1;
                tactical += expected.len();
            }
        }
        assert!(
            positions > 5_000 && tactical > 10_000,
            "{positions} positions, {tactical} moves"
        );
    }

    #[test]
    fn move_list_holds_what_was_pushed_and_ignores_overflow() {
        let mut list = MoveList::new();
        assert!(list.is_empty());
        let all: Vec<Move> = (0..300u32)
            .map(|i| {
                let from = Square::new((i % 64) as u8);
                let to = Square::new(((i / 64 + 1 + i % 64) % 64) as u8);
                Move::new(from, to, None)
            })
            .collect();
        for &mv in &all {
            list.push(mv);
        }
        assert_eq!(list.len(), 256);
        assert_eq!(list.as_slice(), &all[..256]);
        let copy = list.clone();
        list.as_mut_slice().reverse();
        assert_eq!(list.first(), all.get(255));
        assert_eq!(copy.as_slice(), &all[..256]);
    }

    #[test]
    fn batch_iterator_and_loop_agree_and_size_hint_is_exact() {
        // White pawns on b7 (capture or push to promote) and a knight.
        let pos = Position::from_fen("r3k3/1P6/8/8/8/8/8/1N2K3 w - - 0 1").unwrap();
        let mut promotions = 0;
        generate(&pos, |batch| {
            let mut looped = Vec::new();
            batch.for_each_move(|mv| looped.push(mv));
            let mut iter = batch.moves();
            let mut iterated = Vec::new();
            while let Some(mv) = iter.next() {
                assert_eq!(iter.size_hint().0, looped.len() - iterated.len() - 1);
                iterated.push(mv);
            }
            assert_eq!(looped, iterated);
            assert_eq!(batch.len(), looped.len());
            promotions += looped.iter().filter(|mv| mv.promotion().is_some()).count();
            false
        });
        // b7-b8 and b7xa8, four pieces each.
        assert_eq!(promotions, 8);
    }
}
