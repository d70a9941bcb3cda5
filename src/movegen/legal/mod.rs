//! Legal move generation with check and pin masks.
//!
//! 1. Find the checkers and pinned pieces in one scan from the king
//!    ([`Position::check_info`]); skipped when no enemy slider shares a line
//!    with the king.
//! 2. King moves: squares not attacked once the king has left (so a king
//!    cannot step back along a checking ray).
//! 3. In double check, stop. In single check, the other pieces may only
//!    capture the checker or block: `target = checker | between(king, checker)`.
//! 4. A pinned piece may only move along the line through its king and itself.
//! 5. En passant is rare and has the one pin the masks miss (both pawns
//!    leave the king's rank), so it is verified by recomputing slider attacks.
//! 6. Castling: rights present, squares empty, king path not attacked, with
//!    the castling rook lifted off the board (Chess960 corner cases); in
//!    `movegen/castling.rs`.
//!
//! Three entry points share these steps: [`generate`] hands out one batch
//! per piece, [`fill_list`] fills a move list (the same batches, but the
//! unpinned pawns a set per direction), and [`count`] only adds popcounts,
//! moving all unpinned pawns at once by shifting the whole pawn set
//! (perft's last ply). The first two are one generator, `generate_into`,
//! parameterised by where the moves go (and, for quiescence, by whether
//! only captures and promotions are wanted).
//!
//! The counter and the replies' settled count are in `counting`.
//!
//! A little over 500 lines on purpose: the generator and the steps it
//! shares with the counter (the context, the pawn sets, the king's and
//! e.p. moves) are one hot path, read and tuned together.

use super::castling::{castling_candidates, castling_targets};
use super::{MoveList, PieceMoves, promotion_rank};
use crate::position::{CheckInfo, Position};
use crate::sliders::{Active, Slider};
use crate::tables::{between, king_attacks, knight_attacks, line, pawn_attacks};
use crate::types::{Bitboard, Color, Piece, Square};

mod counting;

pub use counting::{count, count_with};
pub(crate) use counting::{count_unchecked_with_pins, settled_replies};

/// What every step needs, computed once per position.
pub(super) struct Context {
    pub(super) us: Color,
    pub(super) own: Bitboard,
    pub(super) enemy: Bitboard,
    pub(super) occupied: Bitboard,
    pub(super) king: Square,
    pub(super) checkers: Bitboard,
    pub(super) pinned: Bitboard,
    /// Where non-king pieces may go: anywhere not own when not in check,
    /// else the checker or a square between it and the king.
    pub(super) target: Bitboard,
}

impl Context {
    /// `us` must be the side to move; passing it lets a caller that knows
    /// it at compile time (see [`count`]) fold every colour branch away.
    #[inline]
    fn new(pos: &Position, us: Color) -> Context {
        Context::with_info(pos, us, pos.check_info_for(us))
    }

    /// [`Context::new`] with the checkers and pins already known.
    #[inline(always)]
    fn with_info(pos: &Position, us: Color, info: CheckInfo) -> Context {
        let own = pos.color(us);
        let king = pos.king(us);
        let target = match info.checkers.first() {
            Some(checker) => between(king, checker) | info.checkers,
            None => !own,
        };
        Context {
            us,
            own,
            enemy: pos.color(us.flip()),
            occupied: pos.occupied(),
            king,
            checkers: info.checkers,
            pinned: info.pinned,
            target,
        }
    }
}

/// Calls `visit` with every non-empty batch of legal moves. `visit` returns
/// `true` to stop early; `generate` then returns `true`.
#[inline]
pub fn generate<F: FnMut(PieceMoves) -> bool>(pos: &Position, visit: F) -> bool {
    generate_into::<Active, _>(pos, &mut Batches(visit))
}

/// Every legal move of `pos`, appended to `list`.
///
/// The batches of [`generate`], except that the unpinned pawns are listed a
/// set at a time (all single pushes, all double pushes, all captures each
/// way), as [`count`] counts them: a batch per pawn redid its set-up (a
/// shift, masks, the pin test, the promotion test, the visitor) for only
/// one or two moves (`reports/archive/speed-2026-11-23-day.md`).
#[inline]
pub fn fill_list(pos: &Position, list: &mut MoveList) {
    generate_into::<Active, _>(pos, list);
}

/// [`fill_list`] with the sliding attacks of technique `A` rather than
/// the active one: the lab times every technique inside this generator
/// from one build (`sliders::COMPILED`).
#[inline]
pub fn fill_list_with<A: Slider>(pos: &Position, list: &mut MoveList) {
    generate_into::<A, _>(pos, list);
}

/// Where [`generate_into`] puts the moves it finds.
pub(crate) trait Sink {
    /// Whether the unpinned pawns go to [`Sink::pawn_set`] as sets rather
    /// than to [`Sink::batch`] one pawn at a time.
    const PAWN_SETS: bool;
    /// One piece's moves; `true` stops the generation.
    fn batch(&mut self, batch: PieceMoves) -> bool;
    /// Pawn moves to `targets`, each from the square `offset` below it
    /// (see [`MoveList::push_pawn_set`]).
    fn pawn_set(&mut self, targets: Bitboard, offset: u8, promotes: bool);
}

/// A [`generate`] visitor as a [`Sink`].
struct Batches<F>(F);

impl<F: FnMut(PieceMoves) -> bool> Sink for Batches<F> {
    const PAWN_SETS: bool = false;
    #[inline(always)]
    fn batch(&mut self, batch: PieceMoves) -> bool {
        (self.0)(batch)
    }
    fn pawn_set(&mut self, _: Bitboard, _: u8, _: bool) {}
}

impl Sink for MoveList {
    const PAWN_SETS: bool = true;
    #[inline(always)]
    fn batch(&mut self, batch: PieceMoves) -> bool {
        self.push_batch(batch);
        false
    }
    #[inline(always)]
    fn pawn_set(&mut self, targets: Bitboard, offset: u8, promotes: bool) {
        self.push_pawn_set(targets, offset, promotes);
    }
}

/// The one legal generator behind [`generate`] and [`fill_list`] (and
/// perft's leaf parents).
///
/// One copy per side to move, as [`count`] has: with the colour a
/// compile-time constant, each pawn's shifts, start and promotion ranks and
/// attack table need no select on it.
#[inline(always)]
pub(crate) fn generate_into<A: Slider, S: Sink>(pos: &Position, sink: &mut S) -> bool {
    match pos.side_to_move() {
        Color::White => generate_for::<A, S, true, false>(pos, sink),
        Color::Black => generate_for::<A, S, false, false>(pos, sink),
    }
}

/// The legal captures (e.p. included) and promotions of `pos`, in the
/// order [`generate_into`] gives them, to `sink`: what quiescence searches
/// when not in check. Quiescence used to list every legal move and keep
/// these; most of a list is quiet moves, generated only to be dropped.
#[inline]
pub(crate) fn generate_tactical_into<S: Sink>(pos: &Position, sink: &mut S) -> bool {
    match pos.side_to_move() {
        Color::White => generate_for::<Active, S, true, true>(pos, sink),
        Color::Black => generate_for::<Active, S, false, true>(pos, sink),
    }
}

/// [`generate_into`] for the side to move given as a constant (`WHITE`);
/// with `TACTICAL`, captures and promotions only (a separate copy, so the
/// full generator that perft runs is unchanged).
#[inline(always)]
fn generate_for<A: Slider, S: Sink, const WHITE: bool, const TACTICAL: bool>(
    pos: &Position,
    sink: &mut S,
) -> bool {
    let us = if WHITE { Color::White } else { Color::Black };
    let cx = Context::new(pos, us);
    // Where knights and sliders may go: with `TACTICAL`, captures only.
    let target = if TACTICAL {
        cx.target & cx.enemy
    } else {
        cx.target
    };
    let emit = |sink: &mut S, piece, from, to: Bitboard, promotes| {
        to.is_nonempty()
            && sink.batch(PieceMoves {
                piece,
                from,
                to,
                promotes,
            })
    };
    let (king_steps, castles) = if TACTICAL {
        (king_captures::<A>(pos, &cx), Bitboard::EMPTY)
    } else {
        king_moves::<A>(pos, &cx)
    };
    if emit(sink, Piece::King, cx.king, king_steps, false) {
        return true;
    }
    if cx.checkers.has_several() {
        return false;
    }
    for from in pos.colored(us, Piece::Knight) & !cx.pinned {
        if emit(
            sink,
            Piece::Knight,
            from,
            knight_attacks(from) & target,
            false,
        ) {
            return true;
        }
    }
    // Queens move in both slider loops. The batch's piece comes from the
    // queen set, not a board read, so the compiler knows it is a slider:
    // bulk perft's make for each move of the batch (inlined here) loses
    // its pawn and king branches, a good share of the instructions per
    // child in these loops (full make unchanged: a move list does not
    // store the piece). A queen loop of its own with both lookups, the
    // piece a constant, measured about the same in bulk but more
    // instructions in full make, so it was not kept
    // (`reports/archive/speed-2026-11-23-zen5-late.md`).
    let queens = pos.colored(us, Piece::Queen);
    for from in pos.colored(us, Piece::Bishop) | queens {
        let piece = if queens.contains(from) {
            Piece::Queen
        } else {
            Piece::Bishop
        };
        let to = pin_mask(&cx, from) & A::bishop(from, cx.occupied) & target;
        if emit(sink, piece, from, to, false) {
            return true;
        }
    }
    for from in pos.colored(us, Piece::Rook) | queens {
        let piece = if queens.contains(from) {
            Piece::Queen
        } else {
            Piece::Rook
        };
        let to = pin_mask(&cx, from) & A::rook(from, cx.occupied) & target;
        if emit(sink, piece, from, to, false) {
            return true;
        }
    }
    let last = promotion_rank(us);
    let empty = !cx.occupied;
    let mut pawns = pos.colored(us, Piece::Pawn);
    if S::PAWN_SETS {
        pawn_sets::<S, TACTICAL>(&cx, pawns & !cx.pinned, sink);
        pawns &= cx.pinned;
    }
    for from in pawns {
        let one = forward(us, Bitboard::from_square(from)) & empty;
        let two = forward(us, one & third_rank(us)) & empty;
        // With `TACTICAL`, a push only when it promotes.
        let pushes = if !TACTICAL {
            one | two
        } else if last.contains(from) {
            one
        } else {
            Bitboard::EMPTY
        };
        let to = ((pawn_attacks(us, from) & cx.enemy) | pushes) & cx.target & pin_mask(&cx, from);
        if emit(sink, Piece::Pawn, from, to, last.contains(from)) {
            return true;
        }
    }
    for from in en_passant_capturers::<A>(pos, &cx) {
        if let Some(ep) = pos.en_passant()
            && emit(sink, Piece::Pawn, from, Bitboard::from_square(ep), false)
        {
            return true;
        }
    }
    emit(sink, Piece::King, cx.king, castles, false)
}

/// Where a set of unpinned pawns may legally go, one set per direction (no
/// e.p.); each target stands for one move (four on the back rank).
struct PawnTargets {
    one: Bitboard,
    two: Bitboard,
    west: Bitboard,
    east: Bitboard,
}

/// The [`PawnTargets`] of the unpinned pawns `free` of `us` (the side to
/// move, passed so that [`count`]'s constant colour folds the branches).
#[inline(always)]
fn pawn_targets(cx: &Context, us: Color, free: Bitboard) -> PawnTargets {
    let empty = !cx.occupied;
    let one = forward(us, free) & empty;
    let two = forward(us, one & third_rank(us)) & empty & cx.target;
    let (west, east) = pawn_captures(us, free);
    PawnTargets {
        one: one & cx.target,
        two,
        west: west & cx.enemy & cx.target,
        east: east & cx.enemy & cx.target,
    }
}

/// The moves of the unpinned pawns `free`, a set per direction (no e.p.).
#[inline(always)]
fn pawn_sets<S: Sink, const TACTICAL: bool>(cx: &Context, free: Bitboard, sink: &mut S) {
    let PawnTargets {
        mut one,
        mut two,
        west,
        east,
    } = pawn_targets(cx, cx.us, free);
    if TACTICAL {
        // Pushes only onto the back rank: promotions.
        one &= Bitboard::RANK_1 | Bitboard::RANK_8;
        two = Bitboard::EMPTY;
    }
    // `from = to - offset`, as a wrapping byte for Black's downward moves.
    let (one_off, two_off, west_off, east_off) = match cx.us {
        Color::White => (8u8, 16u8, 7u8, 9u8),
        Color::Black => (
            8u8.wrapping_neg(),
            16u8.wrapping_neg(),
            9u8.wrapping_neg(),
            7u8.wrapping_neg(),
        ),
    };
    let sets = [(one, one_off), (west, west_off), (east, east_off)];
    // Promotions split off only when a pawn is about to promote (rare).
    if (free & promotion_rank(cx.us)).is_empty() {
        for (targets, offset) in sets {
            sink.pawn_set(targets, offset, false);
        }
    } else {
        let back_rank = Bitboard::RANK_1 | Bitboard::RANK_8;
        for (targets, offset) in sets {
            sink.pawn_set(targets & !back_rank, offset, false);
            sink.pawn_set(targets & back_rank, offset, true);
        }
    }
    sink.pawn_set(two, two_off, false);
}

/// All squares when `from` is not pinned, else its pin line.
#[inline]
fn pin_mask(cx: &Context, from: Square) -> Bitboard {
    if cx.pinned.contains(from) {
        line(cx.king, from)
    } else {
        Bitboard::FULL
    }
}

/// One step towards the enemy's side.
#[inline]
pub(crate) fn forward(us: Color, set: Bitboard) -> Bitboard {
    match us {
        Color::White => set.north(),
        Color::Black => set.south(),
    }
}

/// The rank a pawn reaches after one push from its start square, from
/// where a second push is possible.
#[inline]
pub(crate) fn third_rank(us: Color) -> Bitboard {
    match us {
        Color::White => Bitboard::rank(2),
        Color::Black => Bitboard::rank(5),
    }
}

/// The squares a set of pawns attacks towards the a-file and the h-file.
#[inline]
pub(crate) fn pawn_captures(us: Color, pawns: Bitboard) -> (Bitboard, Bitboard) {
    let west = pawns & !Bitboard::FILE_A;
    let east = pawns & !Bitboard::FILE_H;
    match us {
        Color::White => (Bitboard(west.0 << 7), Bitboard(east.0 << 9)),
        Color::Black => (Bitboard(west.0 >> 9), Bitboard(east.0 >> 7)),
    }
}

/// Every square the enemy attacks with our king lifted off the board (so
/// the king cannot step back along a checking ray). One pass over the enemy
/// pieces answers all king steps and castling paths at once, instead of
/// one attack test per square.
#[inline(always)]
fn enemy_attacks<A: Slider>(pos: &Position, cx: &Context) -> Bitboard {
    let them = cx.us.flip();
    let queens = pos.colored(them, Piece::Queen);
    attacks_of::<A>(
        them,
        pos.colored(them, Piece::Pawn),
        pos.colored(them, Piece::Knight),
        pos.colored(them, Piece::Bishop) | queens,
        pos.colored(them, Piece::Rook) | queens,
        pos.king(them),
        cx.occupied ^ Bitboard::from_square(cx.king),
    )
}

/// Every square `color`'s pieces attack, the pieces given as sets (so a
/// caller may move one first), the sliders seeing through `occupied`.
#[inline(always)]
pub(crate) fn attacks_of<A: Slider>(
    color: Color,
    pawns: Bitboard,
    knights: Bitboard,
    diagonal: Bitboard,
    orthogonal: Bitboard,
    king: Square,
    occupied: Bitboard,
) -> Bitboard {
    let (west, east) = pawn_captures(color, pawns);
    let mut attacked = west | east | king_attacks(king);
    for knight in knights {
        attacked |= knight_attacks(knight);
    }
    for slider in diagonal {
        attacked |= A::bishop(slider, occupied);
    }
    for slider in orthogonal {
        attacked |= A::rook(slider, occupied);
    }
    attacked
}

/// King steps and castling moves (as rook squares), which both need the
/// enemy's attacks; those are computed only if some king move is possible
/// at all, which in most positions it is not.
#[inline(always)]
fn king_moves<A: Slider>(pos: &Position, cx: &Context) -> (Bitboard, Bitboard) {
    let steps = king_attacks(cx.king) & !cx.own;
    let castles = if cx.checkers.is_empty() {
        castling_candidates(pos, cx)
    } else {
        Bitboard::EMPTY
    };
    if (steps | castles).is_empty() {
        return (steps, castles);
    }
    // A lone step is cheaper to test by itself than by mapping every attack.
    if castles.is_empty() && !steps.has_several() {
        let lifted = cx.occupied ^ Bitboard::from_square(cx.king);
        let step = steps
            .first()
            .filter(|&to| !pos.is_attacked_with::<A>(to, cx.us.flip(), lifted));
        return (step.map(Bitboard::from_square).unwrap_or_default(), castles);
    }
    let attacked = enemy_attacks::<A>(pos, cx);
    (
        steps & !attacked,
        castling_targets::<A>(pos, cx, castles, attacked),
    )
}

/// The king's legal captures (for [`generate_tactical_into`]): each
/// capturable enemy piece next to it, kept if the square is not defended
/// with the king lifted off its own square (so a slider's x-ray counts).
#[inline]
fn king_captures<A: Slider>(pos: &Position, cx: &Context) -> Bitboard {
    let lifted = cx.occupied ^ Bitboard::from_square(cx.king);
    let mut captures = Bitboard::EMPTY;
    for to in king_attacks(cx.king) & cx.enemy {
        if !pos.is_attacked_with::<A>(to, cx.us.flip(), lifted) {
            captures |= Bitboard::from_square(to);
        }
    }
    captures
}

/// The pawns that may legally capture en passant.
#[inline]
fn en_passant_capturers<A: Slider>(pos: &Position, cx: &Context) -> Bitboard {
    let Some(ep) = pos.en_passant() else {
        return Bitboard::EMPTY;
    };
    let mut legal = Bitboard::EMPTY;
    for from in pawn_attacks(cx.us.flip(), ep) & pos.colored(cx.us, Piece::Pawn) {
        if en_passant_is_legal::<A>(pos, cx, from, ep) {
            legal |= Bitboard::from_square(from);
        }
    }
    legal
}

/// Plays the capture on a scratch occupancy and asks whether the king is
/// attacked afterwards. Handles every e.p. subtlety at once: pins along
/// ranks and diagonals, capturing the checking pawn, and blocking a check.
fn en_passant_is_legal<A: Slider>(pos: &Position, cx: &Context, from: Square, ep: Square) -> bool {
    let them = cx.enemy;
    let king = cx.king;
    let victim = Bitboard::from_square(Square::from_coords(ep.file(), from.rank()));
    let occupied = cx.occupied ^ Bitboard::from_square(from) ^ victim ^ Bitboard::from_square(ep);
    let rooks = (pos.pieces(Piece::Rook) | pos.pieces(Piece::Queen)) & them;
    let bishops = (pos.pieces(Piece::Bishop) | pos.pieces(Piece::Queen)) & them;
    let steppers = ((knight_attacks(king) & pos.pieces(Piece::Knight))
        | (pawn_attacks(cx.us, king) & pos.pieces(Piece::Pawn)))
        & them
        & !victim;
    steppers.is_empty()
        && (A::rook(king, occupied) & rooks).is_empty()
        && (A::bishop(king, occupied) & bishops).is_empty()
}
