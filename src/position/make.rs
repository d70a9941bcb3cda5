//! Making and unmaking moves. `make` updates everything incrementally
//! (bitboards, board array, rights, e.p., clocks, key) and returns an
//! [`Undo`] with what cannot be recomputed; `unmake` restores the position
//! bit for bit. [`Position::play`] is the copy-make alternative.

use super::castling::{CastleSide, back_rank};
use super::sliders_attack;
use super::zobrist::{BLACK_TO_MOVE, castling_key, en_passant_key, piece_key};
use super::{Castling, Position};
use crate::sliders::Active;
use crate::tables::{knight_attacks, pawn_attacks};
use crate::types::{Bitboard, Color, Move, Piece, Square};

/// What kind of move was made (decided once in `make`, reused by `unmake`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Normal,
    Castle,
    EnPassant,
}

/// The state `unmake` needs to restore a position.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: Option<Piece>,
    kind: Kind,
    side: Color,
    castling: Castling,
    en_passant: Option<Square>,
    halfmove: u32,
    key: u64,
}

/// King and rook destinations of a castling move whose rook stands on `rook`.
fn castle_targets(color: Color, king: Square, rook: Square) -> (Square, Square) {
    CastleSide::of(king, rook).destinations(back_rank(color))
}

impl Position {
    /// Plays a legal move in place, unchecked (as produced by move
    /// generation or [`Position::parse_uci`]); [`Position::unmake`] with the
    /// returned [`Undo`] takes it back. This is the fast path of search and
    /// perft: it trusts the caller. An illegal move leaves the position
    /// unspecified in a release build; a debug build checks the whole
    /// position after every make and unmake and panics on an inconsistent
    /// one, which makes it orders of magnitude slower than a release build
    /// (a library user can keep the check out of a debug build with
    /// `[profile.dev.package.quince] opt-level = 3` and
    /// `debug-assertions = false`). For moves from outside, use the checked
    /// [`Position::play`] or [`Position::try_play`].
    // Always inlined: measured when copy-make still went through `make`
    // (its `Undo` was dead there and its stores vanished, fewer
    // instructions per node under callgrind). Copy-make now calls `apply`
    // directly; make/unmake callers keep the inlining.
    #[inline(always)]
    pub fn make(&mut self, mv: Move) -> Undo {
        let piece = self.mover(mv);
        let undo = self.undo_record(mv, piece);
        self.apply::<true>(&undo, mv, piece);
        undo
    }

    /// Runs `f` on the child after `mv`, a move of `piece`, with only what
    /// move generation reads brought up to date: bitboards, side to move,
    /// castling rights, e.p. square. The key, the board array and the
    /// clocks keep the parent's values, so the child is fit for
    /// [`crate::movegen::count_legal`] and nothing else.
    ///
    /// Bulk perft makes one such child per move at the parents of the
    /// leaves (nearly every make), and only counts its moves. Skipping the
    /// key, board-array and clock updates takes that work off nearly every
    /// make of bulk perft, a clear cut in its instructions per node
    /// (callgrind; `reports/archive/speed-2026-11-22-night.md`). The mover
    /// comes from the generator's batch, not a board read.
    #[inline(always)]
    pub(crate) fn with_counting_child<R>(
        &self,
        mv: Move,
        piece: Piece,
        f: impl FnOnce(&Position) -> R,
    ) -> R {
        let undo = self.undo_record(mv, piece);
        let mut child = self.clone();
        child.apply::<false>(&undo, mv, piece);
        f(&child)
    }

    /// Whether `mv` (legal here) puts the opponent in check: what making
    /// the move and asking [`Position::in_check`] would say (a test holds
    /// the two equal). The search asks it for moves it may prune unmade.
    ///
    /// Answered from the parent's bitboards: the piece that arrives on
    /// `to` may attack the king itself, and our sliders may see it through
    /// the squares the move empties (`from`, an e.p. victim). It used to
    /// make a counting child ([`Position::with_counting_child`]), which
    /// copies the whole position first; castling, rare and moving two
    /// pieces, still does.
    #[inline]
    pub(crate) fn gives_check(&self, mv: Move) -> bool {
        let piece = self.mover(mv);
        let (us, from, to) = (self.side, mv.from(), mv.to());
        if piece == Piece::King && self.color(us).contains(to) {
            return self.with_counting_child(mv, piece, Position::in_check);
        }
        let king = self.king(us.flip());
        let (from_bit, to_bit) = (Bitboard::from_square(from), Bitboard::from_square(to));
        let mut occupied = (self.occupied() & !from_bit) | to_bit;
        if piece == Piece::Pawn && self.en_passant == Some(to) {
            occupied &= !Bitboard::from_square(Square::from_coords(to.file(), from.rank()));
        }
        let arrives = mv.promotion().unwrap_or(piece);
        let ours = self.color(us) & !from_bit;
        let mut straight = (self.pieces(Piece::Rook) | self.pieces(Piece::Queen)) & ours;
        let mut diagonal = (self.pieces(Piece::Bishop) | self.pieces(Piece::Queen)) & ours;
        // The arriving piece's own attack, then every slider's (the
        // arriving one among them if it is one).
        let direct = match arrives {
            Piece::Pawn => pawn_attacks(us, to).contains(king),
            Piece::Knight => knight_attacks(to).contains(king),
            Piece::Bishop => {
                diagonal |= to_bit;
                false
            }
            Piece::Rook => {
                straight |= to_bit;
                false
            }
            Piece::Queen => {
                diagonal |= to_bit;
                straight |= to_bit;
                false
            }
            Piece::King => false,
        };
        direct || sliders_attack::<Active>(king, occupied, straight, diagonal)
    }

    /// The kind of piece `mv` moves; a pawn if `from` is empty, which only
    /// an illegal move can ask (see [`Position::make`]).
    #[inline(always)]
    fn mover(&self, mv: Move) -> Piece {
        self.board[mv.from().index()].unwrap_or(Piece::Pawn)
    }

    /// What `unmake` will need, read before `mv` (a move of `piece`) is
    /// made, and all the small state `apply` reads.
    ///
    /// Why first, and from the parent: in copy-make the child was just
    /// written with wide vector stores, and a narrow load of a small field
    /// (a byte of the board array, the side, the e.p. square) from it waits
    /// for those stores to reach the cache instead of taking the value in
    /// flight. Reading them from the parent avoids the stall: a gain in
    /// wall-clock time, not in instructions (criterion, `make/quince-copy`;
    /// `reports/archive/speed-2026-11-23.md`). Whole bitboards are fine to
    /// update in place.
    #[inline(always)]
    fn undo_record(&self, mv: Move, piece: Piece) -> Undo {
        let to = mv.to();
        let castles = piece == Piece::King && self.color(self.side).contains(to);
        let captured = if castles {
            None
        } else {
            self.board[to.index()]
        };
        let kind = if castles {
            Kind::Castle
        } else if captured.is_none() && piece == Piece::Pawn && self.en_passant == Some(to) {
            Kind::EnPassant
        } else {
            Kind::Normal
        };
        Undo {
            captured,
            kind,
            side: self.side,
            castling: self.castling,
            en_passant: self.en_passant,
            halfmove: self.halfmove,
            key: self.key,
        }
    }

    /// The one make: turns `self`, whose state before the move `parent`
    /// records ([`Position::undo_record`]), into the position after `mv`.
    /// `FULL` keeps the key, the board array and the clocks; without it
    /// they are left stale (see [`Position::with_counting_child`]). A
    /// compile-time flag, so each caller gets a copy without the branches.
    #[inline(always)]
    fn apply<const FULL: bool>(&mut self, parent: &Undo, mv: Move, piece: Piece) {
        let us = parent.side;
        let them = us.flip();
        let (from, to) = (mv.from(), mv.to());
        let mut key = parent.key ^ BLACK_TO_MOVE;
        if let Some(ep) = parent.en_passant {
            key ^= en_passant_key(ep);
        }
        let mut en_passant = None;
        let mut castling = parent.castling;
        let mut halfmove = parent.halfmove + 1;

        if parent.kind == Kind::Castle {
            // Castling, encoded as king takes own rook.
            let (king_to, rook_to) = castle_targets(us, from, to);
            self.remove::<FULL>(us, Piece::Rook, to);
            self.remove::<FULL>(us, Piece::King, from);
            self.put::<FULL>(us, Piece::King, king_to);
            self.put::<FULL>(us, Piece::Rook, rook_to);
            key ^= piece_key(us, Piece::King, from)
                ^ piece_key(us, Piece::King, king_to)
                ^ piece_key(us, Piece::Rook, to)
                ^ piece_key(us, Piece::Rook, rook_to);
            castling.clear(us);
        } else {
            // A plain move toggles both squares in each affected bitboard at
            // once (one XOR with `from | to` instead of a remove and a put).
            let to_bit = Bitboard::from_square(to);
            let from_to = Bitboard::from_square(from) | to_bit;
            if let Some(captured) = parent.captured {
                self.pieces[captured.index()] ^= to_bit;
                self.colors[them.index()] ^= to_bit;
                key ^= piece_key(them, captured, to);
                halfmove = 0;
            } else if parent.kind == Kind::EnPassant {
                let victim = Square::from_coords(to.file(), from.rank());
                self.remove::<FULL>(them, Piece::Pawn, victim);
                key ^= piece_key(them, Piece::Pawn, victim);
            }
            self.pieces[piece.index()] ^= from_to;
            self.colors[us.index()] ^= from_to;
            if FULL {
                self.board[from.index()] = None;
                self.board[to.index()] = Some(piece);
            }
            key ^= piece_key(us, piece, from) ^ piece_key(us, piece, to);
            match piece {
                Piece::Pawn => {
                    halfmove = 0;
                    if let Some(promotion) = mv.promotion() {
                        self.pieces[Piece::Pawn.index()] ^= to_bit;
                        self.pieces[promotion.index()] ^= to_bit;
                        if FULL {
                            self.board[to.index()] = Some(promotion);
                        }
                        key ^= piece_key(us, Piece::Pawn, to) ^ piece_key(us, promotion, to);
                    } else if from.index() ^ to.index() == 16 {
                        en_passant = self.en_passant_after_double_push(us, from, to);
                        if let Some(square) = en_passant {
                            key ^= en_passant_key(square);
                        }
                    }
                }
                Piece::King => castling.clear(us),
                _ => {}
            }
            // A rook leaving its square or captured on it loses its right.
            castling.remove(from_to);
        }
        self.side = them;
        self.en_passant = en_passant;
        self.castling = castling;
        if FULL {
            // Rights are rarely lost: the two table loads of `castling_key`
            // on every make instead of behind this branch made full-make
            // perft of the start position slower in wall-clock time
            // (`reports/archive/speed-2026-11-23-intel.md`).
            let lost = parent.castling.squares() ^ castling.squares();
            if lost.is_nonempty() {
                key ^= castling_key(lost);
            }
            self.key = key;
            self.halfmove = halfmove;
            self.fullmove += us.index() as u32; // after Black's move
            debug_assert!(
                self.is_consistent(),
                "inconsistent after {mv:?} in {self:?}"
            );
        }
    }

    /// The e.p. square after `us` double-pushed from `from` to `to`, kept
    /// only if an enemy pawn could capture there (see the `en_passant`
    /// field).
    #[inline]
    pub(super) fn en_passant_after_double_push(
        &self,
        us: Color,
        from: Square,
        to: Square,
    ) -> Option<Square> {
        let passed = Square::new(((from.index() + to.index()) / 2) as u8);
        let capturers = pawn_attacks(us, passed) & self.colored(us.flip(), Piece::Pawn);
        capturers.is_nonempty().then_some(passed)
    }

    /// Takes back `mv`, which must be the last move made, with its `undo`.
    #[inline]
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        let us = undo.side;
        let them = us.flip();
        let (from, to) = (mv.from(), mv.to());
        match undo.kind {
            Kind::Castle => {
                let (king_to, rook_to) = castle_targets(us, from, to);
                self.remove::<true>(us, Piece::King, king_to);
                self.remove::<true>(us, Piece::Rook, rook_to);
                self.put::<true>(us, Piece::King, from);
                self.put::<true>(us, Piece::Rook, to);
            }
            Kind::EnPassant | Kind::Normal => {
                let to_bit = Bitboard::from_square(to);
                let from_to = Bitboard::from_square(from) | to_bit;
                let mut moved = self.board[to.index()].unwrap_or(Piece::Pawn);
                if mv.promotion().is_some() {
                    self.pieces[moved.index()] ^= to_bit;
                    self.pieces[Piece::Pawn.index()] ^= to_bit;
                    moved = Piece::Pawn;
                }
                self.pieces[moved.index()] ^= from_to;
                self.colors[us.index()] ^= from_to;
                self.board[from.index()] = Some(moved);
                self.board[to.index()] = None;
                if let Some(captured) = undo.captured {
                    self.put::<true>(them, captured, to);
                } else if undo.kind == Kind::EnPassant {
                    self.put::<true>(
                        them,
                        Piece::Pawn,
                        Square::from_coords(to.file(), from.rank()),
                    );
                }
            }
        }
        self.fullmove -= us.index() as u32;
        self.side = us;
        self.castling = undo.castling;
        self.en_passant = undo.en_passant;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
        debug_assert!(
            self.is_consistent(),
            "inconsistent after unmaking {mv:?} in {self:?}"
        );
    }

    /// Copy-make without returning the child: runs `f` on the position
    /// after `mv`, made in a copy of `self` that stays in the stack slot it
    /// was made in. Prefer it to [`Position::play`] in hot loops.
    ///
    /// Why: the child `play` returns is usually moved to another slot, and
    /// the move's 32-byte loads over `make`'s just-issued narrow stores
    /// cannot be forwarded from the store buffer, a stall per child (perf
    /// showed a large share of full-make perft's time on that one load;
    /// removing it sped up both full-make and bulk perft,
    /// `reports/archive/speed-2026-11-22-evening.md`).
    /// `inline(always)` keeps the child in place.
    ///
    /// ```
    /// use quince::Position;
    /// let pos = Position::startpos();
    /// let e4 = pos.parse_uci("e2e4").unwrap();
    /// let black_to_move = pos.with_move(e4, |child| child.side_to_move());
    /// assert_eq!(black_to_move, quince::Color::Black);
    /// ```
    #[inline(always)]
    pub fn with_move<R>(&self, mv: Move, f: impl FnOnce(&mut Position) -> R) -> R {
        let piece = self.mover(mv);
        let undo = self.undo_record(mv, piece);
        let mut child = self.clone();
        child.apply::<true>(&undo, mv, piece);
        f(&mut child)
    }

    /// Copy-make without a legality check: the position after `mv`, leaving
    /// `self` untouched. For moves the generator produced; an illegal move
    /// gives an unspecified position. [`Position::play`] is the checked
    /// version.
    #[inline]
    pub fn play_unchecked(&self, mv: Move) -> Position {
        let piece = self.mover(mv);
        let undo = self.undo_record(mv, piece);
        let mut next = self.clone();
        next.apply::<true>(&undo, mv, piece);
        next
    }

    /// Passes the move (a null move): only for search and tests; the side to
    /// move must not be in check.
    pub fn make_null(&mut self) -> Option<Square> {
        let ep = self.en_passant.take();
        if let Some(square) = ep {
            self.key ^= en_passant_key(square);
        }
        self.side = self.side.flip();
        self.key ^= BLACK_TO_MOVE;
        ep
    }

    /// A null move as a game records it: [`Position::make_null`] with the
    /// move counters kept as for a move (the halfmove clock ticks, the
    /// fullmove number after Black's), as PGN numbers the moves after it.
    /// Returns what [`Position::unmake_null_counted`] needs.
    pub(crate) fn make_null_counted(&mut self) -> (Option<Square>, u32) {
        let halfmove = self.halfmove;
        self.halfmove += 1;
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        (self.make_null(), halfmove)
    }

    /// Takes back [`Position::make_null_counted`].
    pub(crate) fn unmake_null_counted(&mut self, (en_passant, halfmove): (Option<Square>, u32)) {
        self.unmake_null(en_passant);
        self.halfmove = halfmove;
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
    }

    /// Takes back a null move made with [`Position::make_null`].
    pub fn unmake_null(&mut self, ep: Option<Square>) {
        self.side = self.side.flip();
        self.key ^= BLACK_TO_MOVE;
        if let Some(square) = ep {
            self.key ^= en_passant_key(square);
        }
        self.en_passant = ep;
    }
}

#[cfg(test)]
mod tests {
    use crate::movegen::legal_moves;
    use crate::position::{suite_fens, with_children};

    /// `gives_check` agrees with making the move and asking `in_check`, on
    /// every move of positions with discovered checks, castling into check,
    /// e.p. and promotions, and on their children.
    #[test]
    fn gives_check_agrees_with_a_full_make() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "5k2/8/8/3pP3/8/8/8/1B2K2R w K d6 0 1",
            "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        ];
        let mut checks = 0;
        for fen in fens {
            for pos in &with_children(fen) {
                for &mv in legal_moves(pos).iter() {
                    let made = pos.play_unchecked(mv).in_check();
                    assert_eq!(pos.gives_check(mv), made, "{} {mv:?}", pos.fen());
                    checks += usize::from(made);
                }
            }
        }
        assert!(checks > 100, "only {checks} checking moves seen");
    }

    /// The same over every position of the perft suites (Chess960's
    /// castling included) and their children: gives_check answers from
    /// the parent's bitboards, so any case it misses would show here.
    #[test]
    fn gives_check_agrees_with_a_full_make_on_the_suites() {
        let (mut moves, mut checks) = (0, 0);
        for fen in suite_fens() {
            for pos in &with_children(fen) {
                for &mv in legal_moves(pos).iter() {
                    let made = pos.play_unchecked(mv).in_check();
                    assert_eq!(pos.gives_check(mv), made, "{} {mv:?}", pos.fen());
                    moves += 1;
                    checks += usize::from(made);
                }
            }
        }
        assert!(
            moves > 100_000 && checks > 1_000,
            "{moves} moves, {checks} checks"
        );
    }
}
