//! The slow reference checker shared by `tests/properties.rs` and
//! `tests/differential.rs`.
//!
//! [`SlowPosition`] is a move generator written from the rules of chess on a
//! plain 64-cell array, with its own ray-walking attack test. It is slow and
//! simple on purpose: it uses none of the engine's bitboards, attack tables,
//! sliders, masks, pins or incremental state, so a bug in that fast machinery
//! cannot be repeated here, and every rule can be checked by reading it.
//! [`assert_matches_reference`] holds the engine to it.
//!
//! The assertions below it are the per-position checks both test files make:
//! every legality strategy and make style finds the same moves
//! ([`assert_strategies_agree`]), the FEN round trip ([`assert_fen_round_trip`])
//! and the position's internal consistency ([`assert_consistent`]).

use quince::movegen::legal_moves;
use quince::perft::{CopyMake, KingCapture, Legal, MakeStyle, Pseudo, Strategy, Unmake};
use quince::position::CastleSide;
use quince::{Color, Move, Piece, Position, Square};

// ---------------------------------------------------------------------------
// The slow reference model.

/// One square: empty, or a piece of a colour.
pub type Cell = Option<(Color, Piece)>;

/// A move as (from, to, promotion), castling as the king taking its rook.
pub type SlowMove = (usize, usize, Option<Piece>);

/// A position as plain data, read from the engine's position once and then
/// evolved only by the slow rules below.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlowPosition {
    pub board: [Cell; 64],
    pub side: Color,
    /// Squares of the rooks that still have castling rights.
    pub castling: Vec<usize>,
    pub ep: Option<usize>,
    pub halfmove: u32,
    pub fullmove: u32,
}

fn file_of(sq: usize) -> i32 {
    (sq % 8) as i32
}

fn rank_of(sq: usize) -> i32 {
    (sq / 8) as i32
}

fn at(file: i32, rank: i32) -> Option<usize> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as usize)
}

fn forward(color: Color) -> i32 {
    if color == Color::White { 1 } else { -1 }
}

fn back_rank(color: Color) -> i32 {
    if color == Color::White { 0 } else { 7 }
}

const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

/// Whether the piece on `from` attacks `target` on `board` (walking rays).
fn attacks(board: &[Cell; 64], from: usize, target: usize) -> bool {
    let Some((color, piece)) = board[from] else {
        return false;
    };
    let (df, dr) = (
        file_of(target) - file_of(from),
        rank_of(target) - rank_of(from),
    );
    if (df, dr) == (0, 0) {
        return false;
    }
    let slides = match piece {
        Piece::Pawn => return dr == forward(color) && df.abs() == 1,
        Piece::Knight => return KNIGHT.contains(&(df, dr)),
        Piece::King => return KING.contains(&(df, dr)),
        Piece::Rook => df == 0 || dr == 0,
        Piece::Bishop => df.abs() == dr.abs(),
        Piece::Queen => df == 0 || dr == 0 || df.abs() == dr.abs(),
    };
    if !slides {
        return false;
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let (mut f, mut r) = (file_of(from) + sf, rank_of(from) + sr);
    while (f, r) != (file_of(target), rank_of(target)) {
        if board[(r * 8 + f) as usize].is_some() {
            return false;
        }
        f += sf;
        r += sr;
    }
    true
}

/// Whether any piece of `by` attacks `target` on `board`.
pub fn attacked(board: &[Cell; 64], target: usize, by: Color) -> bool {
    (0..64)
        .any(|from| matches!(board[from], Some((c, _)) if c == by) && attacks(board, from, target))
}

/// The square of `color`'s king on `board`.
pub fn king_square(board: &[Cell; 64], color: Color) -> usize {
    (0..64)
        .find(|&sq| board[sq] == Some((color, Piece::King)))
        .expect("a king")
}

/// The inclusive run of squares between two squares of one rank.
fn span(a: usize, b: usize) -> std::ops::RangeInclusive<usize> {
    a.min(b)..=a.max(b)
}

/// Castling: king and rook destinations for a king on `king` and a rook on `rook`.
fn castle_targets(color: Color, king: usize, rook: usize) -> (usize, usize) {
    let rank = back_rank(color);
    let (king_file, rook_file) = if rook > king { (6, 5) } else { (2, 3) };
    (at(king_file, rank).unwrap(), at(rook_file, rank).unwrap())
}

impl SlowPosition {
    /// Reads the engine's position into plain data.
    pub fn of(pos: &Position) -> SlowPosition {
        let mut board = [None; 64];
        for sq in Square::all() {
            board[sq.index()] = pos.piece_at(sq);
        }
        let mut castling = Vec::new();
        for color in Color::ALL {
            for side in [CastleSide::Short, CastleSide::Long] {
                if let Some(rook) = pos.castling_rook(color, side) {
                    castling.push(rook.index());
                }
            }
        }
        castling.sort_unstable();
        SlowPosition {
            board,
            side: pos.side_to_move(),
            castling,
            ep: pos.en_passant().map(Square::index),
            halfmove: pos.halfmove_clock(),
            fullmove: pos.fullmove_number(),
        }
    }

    fn color_at(&self, sq: usize) -> Option<Color> {
        self.board[sq].map(|(c, _)| c)
    }

    /// Plays a move given as (from, to, promotion), castling as king takes rook.
    pub fn make(&self, from: usize, to: usize, promotion: Option<Piece>) -> SlowPosition {
        let mut next = self.clone();
        let us = self.side;
        let (_, piece) = self.board[from].expect("a piece to move");
        next.ep = None;
        next.halfmove += 1;
        if piece == Piece::King && self.color_at(to) == Some(us) {
            let (king_to, rook_to) = castle_targets(us, from, to);
            next.board[from] = None;
            next.board[to] = None;
            next.board[king_to] = Some((us, Piece::King));
            next.board[rook_to] = Some((us, Piece::Rook));
            next.castling.retain(|&r| rank_of(r) != back_rank(us));
        } else {
            if self.board[to].is_some() {
                next.halfmove = 0;
                next.castling.retain(|&r| r != to);
            } else if piece == Piece::Pawn && file_of(from) != file_of(to) {
                // En passant: the captured pawn stands beside the mover.
                next.board[at(file_of(to), rank_of(from)).unwrap()] = None;
            }
            next.board[from] = None;
            next.board[to] = Some((us, promotion.unwrap_or(piece)));
            match piece {
                Piece::Pawn => {
                    next.halfmove = 0;
                    if (rank_of(to) - rank_of(from)).abs() == 2 {
                        let passed = at(file_of(from), (rank_of(from) + rank_of(to)) / 2).unwrap();
                        // Recorded only when an enemy pawn could capture there.
                        let capturer = [-1, 1].into_iter().any(|df| {
                            at(file_of(to) + df, rank_of(to))
                                .is_some_and(|sq| next.board[sq] == Some((us.flip(), Piece::Pawn)))
                        });
                        if capturer {
                            next.ep = Some(passed);
                        }
                    }
                }
                Piece::King => next.castling.retain(|&r| rank_of(r) != back_rank(us)),
                Piece::Rook => next.castling.retain(|&r| r != from),
                _ => {}
            }
        }
        if us == Color::Black {
            next.fullmove += 1;
        }
        next.side = us.flip();
        next
    }

    /// All moves by the movement rules, before the king-safety test.
    pub fn pseudo_moves(&self) -> Vec<SlowMove> {
        let us = self.side;
        let mut out = Vec::new();
        for from in 0..64 {
            let Some((color, piece)) = self.board[from] else {
                continue;
            };
            if color != us {
                continue;
            }
            let (f, r) = (file_of(from), rank_of(from));
            let mut targets = Vec::new();
            match piece {
                Piece::Pawn => {
                    let step = forward(us);
                    if let Some(one) = at(f, r + step).filter(|&sq| self.board[sq].is_none()) {
                        targets.push(one);
                        let start = if us == Color::White { 1 } else { 6 };
                        if r == start
                            && let Some(two) =
                                at(f, r + 2 * step).filter(|&sq| self.board[sq].is_none())
                        {
                            targets.push(two);
                        }
                    }
                    for df in [-1, 1] {
                        if let Some(sq) = at(f + df, r + step)
                            && (self.color_at(sq) == Some(us.flip()) || self.ep == Some(sq))
                        {
                            targets.push(sq);
                        }
                    }
                }
                Piece::Knight | Piece::King => {
                    let deltas = if piece == Piece::Knight { KNIGHT } else { KING };
                    for (df, dr) in deltas {
                        if let Some(sq) =
                            at(f + df, r + dr).filter(|&sq| self.color_at(sq) != Some(us))
                        {
                            targets.push(sq);
                        }
                    }
                }
                _ => {
                    let dirs: Vec<(i32, i32)> = match piece {
                        Piece::Rook => ROOK_DIRS.to_vec(),
                        Piece::Bishop => BISHOP_DIRS.to_vec(),
                        _ => ROOK_DIRS.iter().chain(&BISHOP_DIRS).copied().collect(),
                    };
                    for (df, dr) in dirs {
                        let (mut tf, mut tr) = (f + df, r + dr);
                        while let Some(sq) = at(tf, tr) {
                            if self.color_at(sq) != Some(us) {
                                targets.push(sq);
                            }
                            if self.board[sq].is_some() {
                                break;
                            }
                            tf += df;
                            tr += dr;
                        }
                    }
                }
            }
            for to in targets {
                if piece == Piece::Pawn && (rank_of(to) == 0 || rank_of(to) == 7) {
                    for promo in [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight] {
                        out.push((from, to, Some(promo)));
                    }
                } else {
                    out.push((from, to, None));
                }
            }
        }
        out.extend(self.castling_moves());
        out
    }

    /// Castling by the rules: the right is held, every square the king and
    /// the rook cross or land on is empty (but for themselves), and no square
    /// from the king's to its destination is attacked, judged with king and
    /// rook lifted off the board.
    fn castling_moves(&self) -> Vec<SlowMove> {
        let us = self.side;
        let king = king_square(&self.board, us);
        let mut out = Vec::new();
        for &rook in self
            .castling
            .iter()
            .filter(|&&r| rank_of(r) == back_rank(us))
        {
            assert_eq!(
                self.board[rook],
                Some((us, Piece::Rook)),
                "castling right without its rook"
            );
            assert_eq!(
                rank_of(king),
                back_rank(us),
                "castling right with the king off its back rank"
            );
            let (king_to, rook_to) = castle_targets(us, king, rook);
            let mut lifted = self.board;
            lifted[king] = None;
            lifted[rook] = None;
            let clear = span(king, king_to)
                .chain(span(rook, rook_to))
                .all(|sq| lifted[sq].is_none());
            let safe = span(king, king_to).all(|sq| !attacked(&lifted, sq, us.flip()));
            if clear && safe {
                out.push((king, rook, None));
            }
        }
        out
    }

    /// The legal moves: pseudo-legal moves after which the own king is safe.
    pub fn legal_moves(&self) -> Vec<SlowMove> {
        let us = self.side;
        self.pseudo_moves()
            .into_iter()
            .filter(|&(from, to, promo)| {
                let next = self.make(from, to, promo);
                !attacked(&next.board, king_square(&next.board, us), us.flip())
            })
            .collect()
    }
}

/// The engine's move for a reference move.
pub fn as_move((from, to, promo): SlowMove) -> Move {
    Move::new(Square::new(from as u8), Square::new(to as u8), promo)
}

/// The engine's legal moves are exactly the reference's; the `pseudo` and
/// `king-capture` strategies find them too and count them in perft(1); and
/// each move, made by the engine, leaves the own king unattacked (by the
/// reference's attack test) and gives the same position as the reference's
/// make (pieces, rights, e.p., clocks).
pub fn assert_matches_reference(pos: &Position) {
    let slow = SlowPosition::of(pos);
    let mut expected: Vec<Move> = slow.legal_moves().into_iter().map(as_move).collect();
    let mut generated: Vec<Move> = legal_moves(pos).to_vec();
    expected.sort_by_key(|m| m.bits());
    generated.sort_by_key(|m| m.bits());
    if expected != generated {
        let missing: Vec<&Move> = expected.iter().filter(|m| !generated.contains(m)).collect();
        let extra: Vec<&Move> = generated.iter().filter(|m| !expected.contains(m)).collect();
        panic!(
            "{}: slow reference disagrees; missing {missing:?}, extra (illegal) {extra:?}",
            pos.fen()
        );
    }
    // Two of the other strategies (`assert_strategies_agree` runs all six, at
    // several times the cost: the differential test does that).
    let bits: Vec<u16> = generated.iter().map(|m| m.bits()).collect();
    let mut scratch = pos.clone();
    assert_strategy_agrees::<Pseudo, Unmake>(&mut scratch, &bits, None);
    assert_strategy_agrees::<KingCapture, CopyMake>(&mut scratch, &bits, None);
    let us = pos.side_to_move();
    for mv in generated {
        let after = SlowPosition::of(&pos.play_unchecked(mv));
        // The independent check: the own king is not attacked afterwards.
        assert!(
            !attacked(&after.board, king_square(&after.board, us), us.flip()),
            "{}: {mv:?} leaves the king attacked",
            pos.fen()
        );
        let slow_after = slow.make(mv.from().index(), mv.to().index(), mv.promotion());
        assert_eq!(
            after,
            slow_after,
            "{}: {mv:?} makes a different position",
            pos.fen()
        );
    }
}

// ---------------------------------------------------------------------------
// Per-position checks shared by the property and differential tests.

/// Every legality strategy (`legal`, `pseudo`, `king-capture`) with both make
/// styles (`unmake`, `copy`) finds the `expected` legal moves (their `bits()`,
/// sorted), perft(1) bulk and full counts them, perft(2) equals `perft2` when
/// given, and `q` is left unchanged.
pub fn assert_strategies_agree(q: &mut Position, expected: &[u16], perft2: Option<u64>) {
    assert_strategy_agrees::<Legal, Unmake>(q, expected, perft2);
    assert_strategy_agrees::<Legal, CopyMake>(q, expected, perft2);
    assert_strategy_agrees::<Pseudo, Unmake>(q, expected, perft2);
    assert_strategy_agrees::<Pseudo, CopyMake>(q, expected, perft2);
    assert_strategy_agrees::<KingCapture, Unmake>(q, expected, perft2);
    assert_strategy_agrees::<KingCapture, CopyMake>(q, expected, perft2);
}

/// One legality strategy and make style, as [`assert_strategies_agree`].
pub fn assert_strategy_agrees<S: Strategy, M: MakeStyle>(
    q: &mut Position,
    expected: &[u16],
    perft2: Option<u64>,
) {
    let before = q.clone();
    let what = || format!("{} / {} at {}", S::NAME, M::NAME, before.fen());
    let mut moves: Vec<u16> = S::legal_moves::<M>(q).iter().map(|mv| mv.bits()).collect();
    moves.sort_unstable();
    assert_eq!(moves, expected, "legal moves differ under {}", what());
    assert_eq!(
        S::perft::<M>(q, 1),
        expected.len() as u64,
        "perft(1) under {}",
        what()
    );
    assert_eq!(
        S::perft_full::<M>(q, 1),
        expected.len() as u64,
        "full perft(1) under {}",
        what()
    );
    if let Some(nodes) = perft2 {
        assert_eq!(S::perft::<M>(q, 2), nodes, "perft(2) under {}", what());
    }
    assert_eq!(*q, before, "the position changed under {}", what());
}

/// The FEN the position writes reads back (in its own castling mode) to an
/// equal position with the same key, and writes the same text again.
pub fn assert_fen_round_trip(pos: &Position) {
    let fen = pos.fen();
    let reread = Position::from_fen_with(&fen, pos.is_chess960())
        .unwrap_or_else(|e| panic!("own FEN {fen} refused: {e}"));
    assert_eq!(&reread, pos, "FEN {fen} reads back as another position");
    assert_eq!(reread.fen(), fen, "FEN is not a fixed point");
    assert_eq!(
        reread.key(),
        pos.key(),
        "FEN {fen} reads back with another key"
    );
}

/// The position's redundant state agrees (`is_consistent`) and its
/// incremental key equals the one computed from scratch; `what` says where
/// (`format_args!`, so nothing is formatted unless the check fails).
pub fn assert_consistent(pos: &Position, what: impl std::fmt::Display) {
    assert!(
        pos.is_consistent(),
        "{what}: inconsistent position at {}",
        pos.fen()
    );
    assert_eq!(
        pos.key(),
        pos.compute_key(),
        "{what}: incremental key differs from the recomputed one at {}",
        pos.fen()
    );
}
