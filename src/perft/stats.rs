//! The perft statistics table: counts over the *leaf moves* (the moves
//! played at the last ply) of captures, e.p., castles, promotions, checks,
//! discovered checks, double checks and checkmates, with the convention that
//! reproduces chessprogramming.org's published tables:
//!
//! * a discovered check has exactly one checker, which is not a piece that
//!   moved (for castling both king and rook moved; for a promotion the new
//!   piece; a check uncovered by removing the pawn taken e.p. is discovered);
//! * double checks and discovered checks exclude checkmates.

use super::strategy::{Job, MakeStyle, Strategy, dispatch};
use crate::position::{CastleSide, Position};
use crate::types::{Bitboard, Move, Piece, Square};
use std::ops::AddAssign;

/// One row of the statistics table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Leaf moves (the perft count).
    pub nodes: u64,
    /// Leaf moves that capture, en passant included.
    pub captures: u64,
    /// Leaf moves that capture en passant.
    pub en_passant: u64,
    /// Leaf moves that castle.
    pub castles: u64,
    /// Leaf moves that promote.
    pub promotions: u64,
    /// Leaf moves that give check, checkmates included.
    pub checks: u64,
    /// Discovered checks that are not mate (see the module notes).
    pub discovery_checks: u64,
    /// Checks by two pieces that are not mate.
    pub double_checks: u64,
    /// Leaf moves that checkmate.
    pub checkmates: u64,
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.nodes += o.nodes;
        self.captures += o.captures;
        self.en_passant += o.en_passant;
        self.castles += o.castles;
        self.promotions += o.promotions;
        self.checks += o.checks;
        self.discovery_checks += o.discovery_checks;
        self.double_checks += o.double_checks;
        self.checkmates += o.checkmates;
    }
}

impl Stats {
    /// Column headers in the seed's order (chessprogramming.org's).
    pub const HEADERS: [&'static str; 10] = [
        "Depth",
        "Nodes",
        "Captures",
        "E.p.",
        "Castles",
        "Promotions",
        "Checks",
        "Discovery Checks",
        "Double Checks",
        "Checkmates",
    ];

    /// The values in column order (without the depth).
    pub fn values(&self) -> [u64; 9] {
        [
            self.nodes,
            self.captures,
            self.en_passant,
            self.castles,
            self.promotions,
            self.checks,
            self.discovery_checks,
            self.double_checks,
            self.checkmates,
        ]
    }
}

/// The statistics of perft(`depth`) under strategy `S` and make style `M`.
pub fn perft_stats<S: Strategy, M: MakeStyle>(pos: &mut Position, depth: u32) -> Stats {
    if depth == 0 {
        return Stats {
            nodes: 1,
            ..Stats::default()
        };
    }
    let moves = S::legal_moves::<M>(pos);
    let mut total = Stats::default();
    for &mv in moves.iter() {
        total += if depth == 1 {
            classify::<S, M>(pos, mv)
        } else {
            M::with_child(pos, mv, |child| perft_stats::<S, M>(child, depth - 1))
        };
    }
    total
}

/// The statistics of one legal leaf move.
fn classify<S: Strategy, M: MakeStyle>(pos: &mut Position, mv: Move) -> Stats {
    let us = pos.side_to_move();
    let piece = pos.piece_on(mv.from());
    let castle = piece == Some(Piece::King) && pos.color(us).contains(mv.to());
    let en_passant = piece == Some(Piece::Pawn) && Some(mv.to()) == pos.en_passant();
    let capture = en_passant || (!castle && pos.piece_on(mv.to()).is_some());
    let moved = if castle {
        let side = if mv.to() > mv.from() {
            CastleSide::Short
        } else {
            CastleSide::Long
        };
        let rank = mv.from().rank();
        Bitboard::from_square(Square::from_coords(side.king_target(), rank))
            | Bitboard::from_square(Square::from_coords(side.rook_target(), rank))
    } else {
        Bitboard::from_square(mv.to())
    };
    M::with_child(pos, mv, |child| {
        let checkers = child.check_info().checkers;
        let check = checkers.is_nonempty();
        let mate = check && S::legal_moves::<M>(child).is_empty();
        Stats {
            nodes: 1,
            captures: u64::from(capture),
            en_passant: u64::from(en_passant),
            castles: u64::from(castle),
            promotions: u64::from(mv.promotion().is_some()),
            checks: u64::from(check),
            discovery_checks: u64::from(
                !mate && checkers.len() == 1 && (checkers & moved).is_empty(),
            ),
            double_checks: u64::from(!mate && checkers.len() == 2),
            checkmates: u64::from(mate),
        }
    })
}

struct StatsByName<'a> {
    pos: &'a mut Position,
    depth: u32,
}

impl Job for StatsByName<'_> {
    type Output = Stats;
    fn run<S: Strategy, M: MakeStyle>(self) -> Stats {
        perft_stats::<S, M>(self.pos, self.depth)
    }
}

/// Statistics for a strategy and make style chosen by name; `None` if unknown.
pub fn perft_stats_by_name(
    pos: &mut Position,
    depth: u32,
    strategy: &str,
    make: &str,
) -> Option<Stats> {
    dispatch(strategy, make, StatsByName { pos, depth })
}

/// Renders rows `(depth, stats)` as a Markdown table in the seed's columns.
pub fn markdown_table(rows: &[(u32, Stats)]) -> String {
    let mut out = format!("| {} |\n", Stats::HEADERS.join(" | "));
    out.push_str(&format!("|{}\n", " ---: |".repeat(Stats::HEADERS.len())));
    for (depth, stats) in rows {
        let cells: Vec<String> = stats.values().iter().map(u64::to_string).collect();
        out.push_str(&format!("| {depth} | {} |\n", cells.join(" | ")));
    }
    out
}
