//! SISSY bitboards ("Split Index Sub Set Yielding"): the occupancy is split
//! into its eight rank bytes, and for each square and rank a table gives
//! the queen's attacks as if only that rank's byte were occupied.
//!
//! Each entry is a superset of the true attacks (blockers on other ranks
//! are ignored), and a blocker on a rank removes exactly the squares behind
//! it, which the true attacks lack too. So the AND of the eight entries is
//! the exact queen attack set, and masking it with the empty-board rook or
//! bishop rays (disjoint sets) gives each piece's attacks: one shared queen
//! table serves both.
//!
//! Published by Michael Sherwin (talkchess 2020,
//! <http://www.talkchess.com/forum3/viewtopic.php?f=7&t=73083>; see
//! <https://www.chessprogramming.org/SISSY_Bitboards>).
//!
//! Tables: `SISSY_QUEEN[rank][byte][square]`, 1 MiB (plus the 1 KiB of
//! rays): L2 on a CPU with 2 MiB of it, else L3. Each lookup touches eight
//! cache lines, so this backend is bound by memory, not arithmetic. The
//! square is the last index so that one position's pieces, which share
//! the occupancy, share those lines: the layout with the square first
//! (`[square][rank][byte]`, as Quince had it) touched eight fresh lines
//! per piece, and ran at 0.57x of Chess_Movegen's SISSY in the atlas's
//! grouped mode (twelve squares per occupancy) on AMD Zen 5. Measured
//! there, five alternating runs of each build: grouped lookups 211 to
//! 360 MQueens/s (0.95x of the reference's 381), one at a time 217 to
//! 338, and Kiwipete's bulk perft(5) 0.157 to 0.088 s (medians).
//!
//! Why a column of the flattened table: indexed `[rank][byte][square]`,
//! each read's address is the table, the square and the byte's row, three
//! terms where an x86 address holds two registers, so the compiler added
//! one of them again for every rank: a grouped queen lookup ran 48.4
//! instructions where the reference's own code in the same inputs ran
//! 34.3 (callgrind;
//! `reports/data/atlas-intel-emerald-rapids-family-6-model-207-2026-11-30-8ecb2febb426.json`).
//! Seen as one array from the square's entry on, the table and the
//! square are one base, computed once, and each rank is a shift, a mask
//! and a load. What it bought, counted with callgrind on builds before and
//! after (`-C target-cpu=x86-64-v3`, release): 37.4 instructions per
//! grouped lookup (37.0 one at a time, from 48.0), and bulk perft(5) of
//! Kiwipete with this technique 1.366 to 1.272 billion instructions (7 %
//! fewer).
//!
//! Instructions: none (shifts, loads, ANDs); every target runs it.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// SISSY bitboards: the AND of eight rank-byte lookups (1 MiB of tables).
pub struct Sissy;

/// Entries from a square's first entry to the last one its lookups read:
/// seven ranks and 255 bytes of rows past it.
const COLUMN_LEN: usize = 7 * 256 * 64 + 255 * 64 + 1;

/// Queen attacks from `square`: the AND over the eight ranks of the
/// attacks with only that rank's byte of `occupied`.
#[inline(always)]
fn queen_attacks(square: usize, occupied: u64) -> u64 {
    // The table seen from the square's entry on: one base for the eight
    // reads, each at `(rank * 256 + byte) * 64` entries past it, which the
    // compiler knows is below COLUMN_LEN (no bounds check).
    let column: &[u64; COLUMN_LEN] = g::SISSY_QUEEN.as_flattened().as_flattened()
        [square..square + COLUMN_LEN]
        .try_into()
        .expect("a square below 64 leaves a whole column");
    let mut attacks = !0;
    for rank in 0..8 {
        let byte = usize::from((occupied >> (rank * 8)) as u8);
        attacks &= column[(rank * 256 + byte) * 64];
    }
    attacks
}

impl Slider for Sissy {
    const NAME: &'static str = "sissy";
    const TABLE_BYTES: usize =
        size_of_val(&g::SISSY_QUEEN) + size_of_val(&g::ROOK_RAYS) + size_of_val(&g::BISHOP_RAYS);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        Bitboard(queen_attacks(s, occupied.0) & g::ROOK_RAYS[s])
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        Bitboard(queen_attacks(s, occupied.0) & g::BISHOP_RAYS[s])
    }

    /// The table holds queen attacks: one pass of eight lookups.
    #[inline]
    fn queen(square: Square, occupied: Bitboard) -> Bitboard {
        Bitboard(queen_attacks(square.index(), occupied.0))
    }
}
