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
//! * rays laid out `[square][direction]`, eight to a 64-byte row, so a
//!   slider's own rays are one cache line.
//!
//! Per direction that leaves an AND, a bit scan, a load and an OR, where
//! `classical` also ORs in the sentinel and, down the board, subtracts the
//! scan from 63; both are branchless.
//!
//! The layout follows the published one: a square's eight rays (four up
//! the board, then their opposites) in one 64-byte row, so one base
//! register serves every direction, and a queen lookup of its own, one
//! XOR against the queen's lines for all eight directions. Why: with the
//! rays up and down the board in two tables (the down one read at
//! `63 - square`) and the queen as rook | bishop, Quince's grouped queen
//! lookup ran 56.4 instructions where the reference's own code in the
//! same inputs ran 46.5 (callgrind;
//! `reports/data/atlas-intel-emerald-rapids-family-6-model-207-2026-11-30-f7a1f639798c.json`).
//! What it bought, counted with callgrind on builds before and after
//! (`-C target-cpu=x86-64-v3`, release): 54.4 instructions per grouped
//! lookup, and bulk perft(5) of Kiwipete 1.374 to 1.316 billion
//! instructions (4 % fewer; the generator asks for rooks and bishops,
//! which now share one row). The rest of the gap to the reference is
//! LLVM's scheduling: it hoists all eight ANDs ahead of the scans and
//! zeroes each scan's destination register first (a guard against the
//! bit scans' false output dependency on some Intel CPUs), where the
//! reference's build scans each ray in place.
//!
//! Published by Michael Sherwin and Daniel Infuehr as "Advanced Bob-Mike"
//! in Chess_Movegen (<https://github.com/Gigantua/Chess_Movegen>,
//! `Boblookup_advanced.hpp`;
//! <http://www.talkchess.com/forum3/viewtopic.php?f=7&t=79078&start=50#p924653>);
//! the classical approach: <https://www.chessprogramming.org/Classical_Approach>.
//!
//! Tables: `BOB_MIKE_RAYS` (65 rows of 64 bytes), `BOB_MIKE_DOWN` (65 rows
//! of 32 bytes), the queen's lines and the rook's and bishop's: about
//! 7.6 KiB, L1d. Needs TZCNT and LZCNT for speed, through
//! `u64::trailing_zeros`/`leading_zeros`, which are portable (a bit scan
//! plus a zero test on targets without them).

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// The classical approach, indexed by bit scans directly (about 5 KiB).
pub struct BobMike;

/// The squares beyond the first blocker on ray `d` (0..4) up the board
/// and on its opposite down the board, from the slider's eight `rays`.
#[inline(always)]
fn beyond(rays: &[u64; 8], occupied: u64, d: usize) -> u64 {
    // A scan of an empty ray gives 64: both tables' row 64 is empty.
    let above = g::BOB_MIKE_RAYS[(rays[d] & occupied).trailing_zeros() as usize].0[d];
    let below = g::BOB_MIKE_DOWN[(rays[4 + d] & occupied).leading_zeros() as usize].0[d];
    above | below
}

impl Slider for BobMike {
    const NAME: &'static str = "bob-mike";
    const TABLE_BYTES: usize = size_of_val(&g::BOB_MIKE_RAYS)
        + size_of_val(&g::BOB_MIKE_DOWN)
        + size_of_val(&g::BOB_MIKE_QUEEN_LINES)
        + size_of_val(&g::ROOK_RAYS)
        + size_of_val(&g::BISHOP_RAYS);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        let rays = &g::BOB_MIKE_RAYS[s].0;
        // North and east up the board, south and west down it.
        Bitboard(g::ROOK_RAYS[s] ^ (beyond(rays, occupied.0, 0) | beyond(rays, occupied.0, 2)))
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        let rays = &g::BOB_MIKE_RAYS[s].0;
        // North-east and north-west up the board, their opposites down it.
        Bitboard(g::BISHOP_RAYS[s] ^ (beyond(rays, occupied.0, 1) | beyond(rays, occupied.0, 3)))
    }

    /// All eight directions against the queen's lines: one row, one XOR.
    #[inline]
    fn queen(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        let rays = &g::BOB_MIKE_RAYS[s].0;
        let o = occupied.0;
        let hidden = beyond(rays, o, 0) | beyond(rays, o, 1) | beyond(rays, o, 2) | beyond(rays, o, 3);
        Bitboard(g::BOB_MIKE_QUEEN_LINES[s] ^ hidden)
    }
}
