//! Kogge-Stone parallel-prefix fills: no tables at all. For one direction,
//! the slider's bit is smeared over the empty squares in three steps of
//! doubling length (1, 2, 4 squares), each step also shrinking the set of
//! squares a fill may still cross; one more shift takes the fill onto the
//! first blocker. Sideways directions mask out the file a shift would wrap
//! onto. Eight directions, each about a dozen simple instructions, no
//! memory access: what a table lookup costs against pure arithmetic.

use super::Slider;
use super::shifts::{BISHOP_STEPS, ROOK_STEPS, shift};
use crate::types::{Bitboard, Square};

/// Kogge-Stone occluded fills in eight directions (no tables).
pub struct KoggeStone;

/// Attacks of the slider `from` (one bit) in the direction of `step`,
/// with `wrap` the squares a shift in that direction may land on.
#[inline(always)]
fn attacks(from: u64, empty: u64, step: i32, wrap: u64) -> u64 {
    let mut fill = from;
    let mut open = empty & wrap;
    fill |= open & shift(fill, step);
    open &= shift(open, step);
    fill |= open & shift(fill, 2 * step);
    open &= shift(open, 2 * step);
    fill |= open & shift(fill, 4 * step);
    shift(fill, step) & wrap
}

impl Slider for KoggeStone {
    const NAME: &'static str = "kogge-stone";
    const TABLE_BYTES: usize = 0;

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let (from, empty) = (1u64 << square.index(), !occupied.0);
        Bitboard(ROOK_STEPS.iter().fold(0, |acc, &(step, wrap)| {
            acc | attacks(from, empty, step, wrap)
        }))
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let (from, empty) = (1u64 << square.index(), !occupied.0);
        Bitboard(BISHOP_STEPS.iter().fold(0, |acc, &(step, wrap)| {
            acc | attacks(from, empty, step, wrap)
        }))
    }
}
