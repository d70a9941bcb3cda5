//! Bob-Mike, advanced: Robert Hyatt's and Michael Sherwin's classical
//! approach as Daniel Infuehr reworked it, with bit-scan results used as
//! table indices directly.
//!
//! Per direction, the empty-board ray from the slider meets the occupancy;
//! its first blocker is the lowest set bit for rays up the board, the
//! highest for rays down it, and the ray continuing beyond the blocker is
//! what the slider does not see. The union of those "beyond" rays, XORed
//! out of the slider's full rook or bishop lines, leaves the attacks.
//!
//! How it differs from `classical` (which is the Hyatt/Sherwin form of
//! `Boblookup.hpp`: a sentinel bit ORed into every ray's occupancy so an
//! empty ray scans to a corner whose ray is empty, `63 - lzcnt` for the
//! rays down, an XOR per direction, rays laid out `[direction][square]`):
//! * no sentinel: the tables have a 65th, empty row, which a scan of an
//!   empty ray (64) indexes directly;
//! * the rays down the board are stored in reverse square order, so the
//!   leading-zero count is the index, without `63 - x`;
//! * one XOR per piece against the full lines (`ROOK_RAYS`/`BISHOP_RAYS`)
//!   instead of one per direction;
//! * rays laid out `[square][direction]`, four to a 32-byte row, so a
//!   slider's own rays up (or down) the board are one aligned load.
//!
//! Per direction that leaves an AND, a bit scan, a load and an OR, where
//! `classical` also ORs in the sentinel and, down the board, subtracts the
//! scan from 63; both are branchless.
//!
//! Published by Michael Sherwin and Daniel Infuehr as "Advanced Bob-Mike"
//! in Chess_Movegen (<https://github.com/Gigantua/Chess_Movegen>,
//! `Boblookup_advanced.hpp`;
//! <http://www.talkchess.com/forum3/viewtopic.php?f=7&t=79078&start=50#p924653>);
//! the classical approach: <https://www.chessprogramming.org/Classical_Approach>.
//!
//! Tables: `BOB_MIKE_UP` and `BOB_MIKE_DOWN` (65 rows of 32 bytes each)
//! plus the rook and bishop lines: about 5 KiB, L1d. Needs TZCNT and
//! LZCNT for speed, through `u64::trailing_zeros`/`leading_zeros`, which
//! are portable (a bit scan plus a zero test on targets without them).

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// The classical approach, indexed by bit scans directly (about 5 KiB).
pub struct BobMike;

/// The squares beyond the first blocker on the rays up the board `a` and
/// `b` (indices into a `BOB_MIKE_UP` row) and the rays down them.
#[inline(always)]
fn beyond(square: usize, occupied: u64, a: usize, b: usize) -> u64 {
    let up = &g::BOB_MIKE_UP[square].0;
    let down = &g::BOB_MIKE_DOWN[63 - square].0;
    // A scan of an empty ray gives 64: row 64 is empty.
    let above = |d: usize| g::BOB_MIKE_UP[(up[d] & occupied).trailing_zeros() as usize].0[d];
    let below = |d: usize| g::BOB_MIKE_DOWN[(down[d] & occupied).leading_zeros() as usize].0[d];
    above(a) | above(b) | below(a) | below(b)
}

impl Slider for BobMike {
    const NAME: &'static str = "bob-mike";
    const TABLE_BYTES: usize = size_of_val(&g::BOB_MIKE_UP)
        + size_of_val(&g::BOB_MIKE_DOWN)
        + size_of_val(&g::ROOK_RAYS)
        + size_of_val(&g::BISHOP_RAYS);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        // North and east up the board, south and west down it.
        Bitboard(g::ROOK_RAYS[s] ^ beyond(s, occupied.0, 0, 2))
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        // North-east and north-west up the board, their opposites down it.
        Bitboard(g::BISHOP_RAYS[s] ^ beyond(s, occupied.0, 1, 3))
    }
}
