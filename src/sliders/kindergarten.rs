//! Kindergarten bitboards: one multiplication gathers a line's occupancy
//! into six index bits, and a small table gives the attacks.
//!
//! A rank or diagonal has one square per file, so `(occupied & line) *
//! b-file >> 58` lines its squares on files b-g up in bits 0-5 (the
//! partial products never overlap, nothing carries). The attacks of a rank
//! slider for that occupancy, copied onto all eight ranks
//! (`KINDERGARTEN_FILL_UP`), masked with the line, are the attacks along
//! it. A file is shifted onto the a-file and multiplied by the c2-h7
//! diagonal instead, which turns it into a rank in the top byte; its table
//! (`KINDERGARTEN_A_FILE`) is shifted back to the file. Both constants are
//! checked by `codegen` against the ray walker for every square and line
//! occupancy, so a wrong one fails the build.
//!
//! Tables: 8 KiB of attacks and 4 KiB of per-square entries, versus
//! 841 KiB for fancy magics: one multiply per line, no per-square magic,
//! shift or offset.
//!
//! Why per-square entries: with the three line masks in three arrays and
//! the file's and rank's table rows computed from the square (`s & 7`,
//! `s >> 3`, scaled), a grouped queen lookup ran 48.4 instructions where
//! the reference's own code in the same inputs ran 36.8 (callgrind;
//! `reports/data/atlas-intel-emerald-rapids-family-6-model-207-2026-11-30-441f5e1aebe8.json`),
//! and the listing showed the table bases reloaded and registers shuffled
//! inside the loop. One 64-byte entry per square (the masks, both rows
//! and the file) is one base and no arithmetic on the square. What it
//! bought, counted with callgrind on builds before and after
//! (`-C target-cpu=x86-64-v3`, release): 36.4 instructions per grouped
//! lookup (36.0 one at a time, from 48.0), and bulk perft(5) of Kiwipete
//! 1.218 to 1.150 billion instructions (6 % fewer).

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Kindergarten bitboards (12 KiB of tables and entries).
pub struct Kindergarten;

/// One square's share of the tables, read side by side in one 64-byte
/// slot: the rank and both diagonals through it (without it), the rows of
/// [`g::KINDERGARTEN_FILL_UP`] for its file and [`g::KINDERGARTEN_A_FILE`]
/// for its rank, and its file.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Entry {
    rank: u64,
    diagonal: u64,
    anti_diagonal: u64,
    fill_up: &'static [u64; 64],
    a_file: &'static [u64; 64],
    file: u32,
}

/// Every square's entry, cut from the generated tables at compile time.
static ENTRIES: [Entry; 64] = {
    let mut out = [Entry {
        rank: 0,
        diagonal: 0,
        anti_diagonal: 0,
        fill_up: &g::KINDERGARTEN_FILL_UP[0],
        a_file: &g::KINDERGARTEN_A_FILE[0],
        file: 0,
    }; 64];
    let mut s = 0;
    while s < 64 {
        out[s] = Entry {
            rank: g::RANK_MASKS[s],
            diagonal: g::DIAGONAL_MASKS[s],
            anti_diagonal: g::ANTI_DIAGONAL_MASKS[s],
            fill_up: &g::KINDERGARTEN_FILL_UP[s & 7],
            a_file: &g::KINDERGARTEN_A_FILE[s >> 3],
            file: (s & 7) as u32,
        };
        s += 1;
    }
    out
};

/// Attacks along a rank or diagonal `line` (without the slider's square)
/// of the slider of `entry`.
#[inline(always)]
fn line_attacks(entry: &Entry, occupied: u64, line: u64) -> u64 {
    let index = ((occupied & line).wrapping_mul(g::KINDERGARTEN_B_FILE) >> 58) as usize;
    entry.fill_up[index] & line
}

/// Attacks along the file of the slider of `entry`.
#[inline(always)]
fn file_attacks(entry: &Entry, occupied: u64) -> u64 {
    const A_FILE: u64 = 0x0101_0101_0101_0101;
    let on_a_file = (occupied >> entry.file) & A_FILE;
    let index = (on_a_file.wrapping_mul(g::KINDERGARTEN_C2H7) >> 58) as usize;
    entry.a_file[index] << entry.file
}

impl Slider for Kindergarten {
    const NAME: &'static str = "kindergarten";
    const TABLE_BYTES: usize = size_of_val(&g::KINDERGARTEN_FILL_UP)
        + size_of_val(&g::KINDERGARTEN_A_FILE)
        + size_of_val(&ENTRIES);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let (entry, o) = (&ENTRIES[square.index()], occupied.0);
        Bitboard(file_attacks(entry, o) | line_attacks(entry, o, entry.rank))
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let (entry, o) = (&ENTRIES[square.index()], occupied.0);
        Bitboard(line_attacks(entry, o, entry.diagonal) | line_attacks(entry, o, entry.anti_diagonal))
    }
}
