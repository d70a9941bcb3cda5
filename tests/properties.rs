//! Property tests (`proptest`) over positions reached by arbitrary legal
//! move sequences from the shared suites, and over random piece placements.
//!
//! * make/unmake restores the position bit for bit (`==` on every field, key
//!   and FEN) after any legal sequence, with unmakes interleaved;
//! * FEN write-then-read is the identity on every accepted position, and the
//!   written FEN is a fixed point;
//! * every generated move is legal by an independent slow check: a move
//!   generator written here from the rules, on a plain 64-square array, with
//!   its own ray-walking attack test (none of the engine's attack tables,
//!   sliders or masks). Its legal moves must equal the engine's, and making a
//!   move must give the same position in both (pieces, rights, e.p., clocks).
//!   The `pseudo` and `king-capture` legality strategies must find the same moves.

mod common;

use proptest::prelude::*;
use quince::movegen::legal_moves;
use quince::perft::Strategy as _;
use quince::perft::{CopyMake, KingCapture, Pseudo, Unmake};
use quince::position::CastleSide;
use quince::{Color, Move, Piece, Position, Square};

// ---------------------------------------------------------------------------
// The slow model.

type Cell = Option<(Color, Piece)>;

/// A position as plain data, read from the engine's position once and then
/// evolved only by the slow rules below.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Slow {
    board: [Cell; 64],
    side: Color,
    /// Squares of the rooks that still have castling rights.
    castling: Vec<usize>,
    ep: Option<usize>,
    halfmove: u32,
    fullmove: u32,
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

fn attacked(board: &[Cell; 64], target: usize, by: Color) -> bool {
    (0..64)
        .any(|from| matches!(board[from], Some((c, _)) if c == by) && attacks(board, from, target))
}

fn king_square(board: &[Cell; 64], color: Color) -> usize {
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

impl Slow {
    fn of(pos: &Position) -> Slow {
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
        Slow {
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
    fn make(&self, from: usize, to: usize, promotion: Option<Piece>) -> Slow {
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
    fn pseudo_moves(&self) -> Vec<(usize, usize, Option<Piece>)> {
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
    fn castling_moves(&self) -> Vec<(usize, usize, Option<Piece>)> {
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
    fn legal_moves(&self) -> Vec<(usize, usize, Option<Piece>)> {
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

fn as_move((from, to, promo): (usize, usize, Option<Piece>)) -> Move {
    Move::new(Square::new(from as u8), Square::new(to as u8), promo)
}

// ---------------------------------------------------------------------------
// Start positions and strategies.

fn starts() -> Vec<(String, bool)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
    let mut out = Vec::new();
    for (file, chess960) in [
        ("standard.epd", false),
        ("suite.epd", false),
        ("chess960.epd", true),
    ] {
        let text = std::fs::read_to_string(format!("{dir}{file}")).expect("suite file");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            out.push((
                line.split(';').next().unwrap_or("").trim().to_string(),
                chess960,
            ));
        }
    }
    out
}

fn start_position(index: usize, chess960: bool) -> Position {
    let starts = starts();
    let (fen, file_is_960) = &starts[index % starts.len()];
    Position::from_fen_with(fen, *file_is_960 || chess960).expect("suite FEN")
}

/// Number of suite positions (the strategies pick an index below it).
fn start_count() -> usize {
    starts().len()
}

/// A random piece placement with random state fields, as FEN text. Most are
/// refused; the accepted ones are positions no game from the suites reaches.
fn random_setup() -> impl Strategy<Value = String> {
    let cell = prop_oneof![
        24 => Just('.'),
        1 => prop::sample::select(vec!['P', 'N', 'B', 'R', 'Q', 'p', 'n', 'b', 'r', 'q']),
    ];
    (
        prop::collection::vec(cell, 64),
        0usize..64,
        0usize..64,
        any::<bool>(),
        prop_oneof![
            3 => Just(String::from("-")),
            1 => prop::sample::subsequence(
                vec!['K', 'Q', 'k', 'q', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
                1..4
            )
            .prop_map(|v| v.into_iter().collect()),
        ],
        prop_oneof![3 => Just(None), 1 => (0usize..8).prop_map(Some)],
        0u32..120,
        1u32..300,
    )
        .prop_map(|(mut cells, white_king, black_king, white, castling, ep_file, half, full)| {
            cells[white_king] = 'K';
            cells[black_king] = 'k';
            let board = common::placement(&cells);
            let ep = match ep_file {
                Some(file) => format!("{}{}", (b'a' + file as u8) as char, if white { 6 } else { 3 }),
                None => "-".to_string(),
            };
            format!("{board} {} {castling} {ep} {half} {full}", if white { 'w' } else { 'b' })
        })
}

/// Plays `choices` from `pos`: each picks a legal move, or (one time in six,
/// when a move was made) unmakes the last one. Calls `visit` at every position.
fn walk(pos: &mut Position, choices: &[u16], mut visit: impl FnMut(&mut Position)) {
    let mut stack: Vec<(Move, quince::position::Undo, Position)> = Vec::new();
    visit(pos);
    for &choice in choices {
        if choice % 6 == 5 && !stack.is_empty() {
            let (mv, undo, before) = stack.pop().unwrap();
            pos.unmake(mv, undo);
            assert_eq!(*pos, before, "unmake of {mv} does not restore the position");
        } else {
            let moves = legal_moves(pos);
            if moves.is_empty() {
                continue;
            }
            let mv = moves[choice as usize % moves.len()];
            let before = pos.clone();
            let undo = pos.make(mv);
            stack.push((mv, undo, before));
        }
        visit(pos);
    }
    // Unwind everything: each unmake must restore the exact position.
    while let Some((mv, undo, before)) = stack.pop() {
        pos.unmake(mv, undo);
        assert_eq!(*pos, before, "unmake of {mv} does not restore the position");
        assert_eq!(pos.fen(), before.fen());
        assert_eq!(pos.key(), before.key());
    }
}

fn assert_fen_round_trip(pos: &Position) {
    let fen = pos.fen();
    let reread = Position::from_fen_with(&fen, pos.is_chess960())
        .unwrap_or_else(|e| panic!("own FEN {fen} refused: {e}"));
    assert_eq!(&reread, pos, "FEN {fen} reads back as another position");
    assert_eq!(reread.fen(), fen, "FEN is not a fixed point");
    assert_eq!(reread.key(), pos.key());
}

fn assert_matches_slow_model(pos: &Position) {
    let slow = Slow::of(pos);
    let mut expected: Vec<Move> = slow.legal_moves().into_iter().map(as_move).collect();
    let mut generated: Vec<Move> = legal_moves(pos).to_vec();
    expected.sort_by_key(|m| m.bits());
    generated.sort_by_key(|m| m.bits());
    if expected != generated {
        let missing: Vec<&Move> = expected.iter().filter(|m| !generated.contains(m)).collect();
        let extra: Vec<&Move> = generated.iter().filter(|m| !expected.contains(m)).collect();
        panic!(
            "{}: slow model disagrees; missing {missing:?}, extra (illegal) {extra:?}",
            pos.fen()
        );
    }
    // The other legality strategies must find the same moves.
    let mut scratch = pos.clone();
    for (name, mut list) in [
        (
            "pseudo",
            Pseudo::legal_moves::<Unmake>(&mut scratch).to_vec(),
        ),
        (
            "king-capture",
            KingCapture::legal_moves::<CopyMake>(&mut scratch).to_vec(),
        ),
    ] {
        list.sort_by_key(|m| m.bits());
        assert_eq!(list, generated, "{}: strategy {name} disagrees", pos.fen());
    }
    assert_eq!(&scratch, pos);
    let us = pos.side_to_move();
    for mv in generated {
        let after = pos.play(mv);
        // The independent check: the own king is not attacked afterwards.
        let board = Slow::of(&after).board;
        assert!(
            !attacked(&board, king_square(&board, us), us.flip()),
            "{}: {mv} leaves the king attacked",
            pos.fen()
        );
        let slow_after = slow.make(mv.from().index(), mv.to().index(), mv.promotion());
        assert_eq!(
            Slow::of(&after),
            slow_after,
            "{}: {mv} makes a different position",
            pos.fen()
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// make/unmake restores the position bit for bit after any legal sequence.
    #[test]
    fn make_unmake_restores(start in 0..start_count(), chess960 in any::<bool>(),
                            choices in prop::collection::vec(any::<u16>(), 0..200)) {
        let mut pos = start_position(start, chess960);
        let original = pos.clone();
        walk(&mut pos, &choices, |p| {
            assert!(p.is_consistent(), "inconsistent at {}", p.fen());
            assert_eq!(p.key(), p.compute_key());
        });
        prop_assert_eq!(pos, original);
    }

    /// FEN write-then-read is the identity on every reached position.
    #[test]
    fn fen_round_trip_on_reached_positions(start in 0..start_count(), chess960 in any::<bool>(),
                                           choices in prop::collection::vec(any::<u16>(), 0..200)) {
        let mut pos = start_position(start, chess960);
        walk(&mut pos, &choices, |p| assert_fen_round_trip(p));
    }

    /// FEN write-then-read is the identity on every random placement the
    /// reader accepts, and such positions pass the slow legality model too.
    #[test]
    fn fen_round_trip_on_random_setups(fen in random_setup(), chess960 in any::<bool>()) {
        if let Ok(pos) = Position::from_fen_with(&fen, chess960) {
            prop_assert!(pos.is_consistent());
            assert_fen_round_trip(&pos);
            assert_matches_slow_model(&pos);
        }
    }

    /// Every generated move is legal by the slow model, and none is missing.
    #[test]
    fn generated_moves_are_legal(start in 0..start_count(), chess960 in any::<bool>(),
                                 choices in prop::collection::vec(any::<u16>(), 0..120)) {
        let mut pos = start_position(start, chess960);
        walk(&mut pos, &choices, |p| assert_matches_slow_model(p));
    }
}

/// The slow model agrees with the engine on every suite position (this also
/// covers mates, stalemates and the Chess960 castling edge cases directly).
#[test]
fn slow_model_agrees_on_every_suite_position() {
    for index in 0..start_count() {
        let pos = start_position(index, false);
        assert_matches_slow_model(&pos);
        assert_fen_round_trip(&pos);
    }
}

/// The random placements are not all refused: enough of them reach the
/// checks above for the property to mean something.
#[test]
fn random_setups_are_often_accepted() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = random_setup();
    let total = 2000;
    let accepted = (0..total)
        .filter(|_| {
            let fen = strategy.new_tree(&mut runner).expect("a value").current();
            Position::from_fen(&fen).is_ok()
        })
        .count();
    assert!(
        accepted * 10 > total,
        "only {accepted} of {total} random setups were accepted"
    );
}
