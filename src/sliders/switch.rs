//! The switch lookup: per square, straight-line code that walks each ray
//! with no tables, the field's naive reference.
//!
//! A `match` on the square jumps to code made for that square alone: for
//! every square of every ray, "if nothing stands between the slider and
//! here, it is attacked", a test of the occupancy against a mask the
//! compiler folded to an immediate. The masks come from a `const fn`
//! evaluated per square and direction (const generics), so each of the 64
//! arms is a fixed sequence of AND/test/OR with no loop, no bit scan and
//! no memory access beyond the jump table the `match` compiles to.
//!
//! Published by Daniel Infuehr (dangi12012) as "Reference (Switch Lookup)"
//! in Chess_Movegen (<https://github.com/Gigantua/Chess_Movegen>,
//! `Switch.hpp`, generated there with the Espresso logic minimiser;
//! <http://www.talkchess.com/forum3/viewtopic.php?f=7&t=78235&p=907362#p907362>).
//!
//! Tables: none (the masks are immediates in the code; the `match`'s jump
//! table is code, not data the lab counts). Needs no special instructions.

use super::Slider;
use crate::types::{Bitboard, Square};

/// Per-square straight-line ray walks behind a `match` (no tables).
pub struct Switch;

/// The squares of the ray from `square` in direction (`df`, `dr`), nearest
/// first: each with the squares strictly between it and the slider (zero
/// bits past the ray's end, which the caller's ORs then drop).
const fn ray_steps(square: usize, df: i32, dr: i32) -> [(u64, u64); 7] {
    let mut steps = [(0, 0); 7];
    let (mut file, mut rank) = ((square % 8) as i32 + df, (square / 8) as i32 + dr);
    let (mut between, mut i) = (0u64, 0);
    while 0 <= file && file < 8 && 0 <= rank && rank < 8 {
        let bit = 1u64 << (rank * 8 + file);
        steps[i] = (bit, between);
        between |= bit;
        i += 1;
        file += df;
        rank += dr;
    }
    steps
}

/// Attacks along one ray of a slider on `SQ`: every square with nothing
/// in between. The masks are constants of this instance.
#[inline(always)]
fn ray<const SQ: usize, const DF: i32, const DR: i32>(occupied: u64) -> u64 {
    let steps = const { ray_steps(SQ, DF, DR) };
    let mut attacks = 0;
    let mut i = 0;
    while i < 7 {
        let (bit, between) = steps[i];
        if occupied & between == 0 {
            attacks |= bit;
        }
        i += 1;
    }
    attacks
}

#[inline(always)]
fn rook_on<const SQ: usize>(occupied: u64) -> u64 {
    ray::<SQ, 0, 1>(occupied)
        | ray::<SQ, 1, 0>(occupied)
        | ray::<SQ, 0, -1>(occupied)
        | ray::<SQ, -1, 0>(occupied)
}

#[inline(always)]
fn bishop_on<const SQ: usize>(occupied: u64) -> u64 {
    ray::<SQ, 1, 1>(occupied)
        | ray::<SQ, 1, -1>(occupied)
        | ray::<SQ, -1, -1>(occupied)
        | ray::<SQ, -1, 1>(occupied)
}

/// `match square { 0 => f::<0>(occupied), ..., 63 => f::<63>(occupied) }`.
macro_rules! by_square {
    ($f:ident, $square:expr, $occupied:expr) => {
        by_square!(@arms $f, $square, $occupied,
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59
            60 61 62 63)
    };
    (@arms $f:ident, $square:expr, $occupied:expr, $($n:literal)*) => {
        // `& 63` lets the compiler see the arms are exhaustive.
        match $square & 63 {
            $($n => $f::<$n>($occupied),)*
            _ => unreachable!("a square index is below 64"),
        }
    };
}

impl Slider for Switch {
    const NAME: &'static str = "switch";
    const TABLE_BYTES: usize = 0;

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        Bitboard(by_square!(rook_on, square.index(), occupied.0))
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        Bitboard(by_square!(bishop_on, square.index(), occupied.0))
    }

    /// One jump for both: the default (rook | bishop) dispatched on the
    /// square twice, two indirect jumps per queen. Measured on AMD Zen 5
    /// (three alternating runs): grouped lookups 53 to 109 MQueens/s
    /// (Chess_Movegen's switch: 76), one at a time 56 to 98; perft, which
    /// asks for rook and bishop apart, unchanged.
    #[inline]
    fn queen(square: Square, occupied: Bitboard) -> Bitboard {
        Bitboard(by_square!(queen_on, square.index(), occupied.0))
    }
}

#[inline(always)]
fn queen_on<const SQ: usize>(occupied: u64) -> u64 {
    rook_on::<SQ>(occupied) | bishop_on::<SQ>(occupied)
}
