//! Tables of the kindergarten backend: a line's occupancy is gathered into
//! six index bits by one multiplication, then looked up.
//!
//! * Ranks and diagonals: `(occupied & line) * B_FILE >> 58` collects the
//!   line's squares on files b-g, in file order (one square per file, so
//!   the partial products never overlap and nothing carries). The lookup
//!   [`fill_up`] gives the attacks along a rank for that file occupancy,
//!   copied onto every rank; masking with the line keeps the right squares.
//! * Files: the file is shifted onto the a-file, and `* C2H7 >> 58`
//!   gathers its ranks 2-7 (in reverse order); the `[rank][index]` table
//!   gives the a-file attacks, shifted back to the file.
//!
//! Both index formulas are checked here against the ray walker for every
//! square and every occupancy of the line, so a wrong constant fails the
//! build rather than a perft.

use crate::geometry::{
    anti_diagonal_mask, coords, diagonal_mask, file_mask, rank_attacks_8, rank_mask,
    slider_attacks, subset,
};
use crate::{array_u64, hex};
use proc_macro2::TokenStream;
use quote::quote;

/// The b-file: multiplying a one-square-per-file line by it moves files b-g
/// of the line into bits 58-63.
pub const B_FILE: u64 = 0x0202_0202_0202_0202;
/// The a-file.
pub const A_FILE: u64 = 0x0101_0101_0101_0101;
/// The c2-h7 diagonal: multiplying the a-file by it moves ranks 2-7 into
/// bits 58-63 (rank 7 lowest).
pub const C2H7: u64 = 0x0080_4020_1008_0400;

/// Index of a rank or diagonal occupancy (one square per file).
pub const fn line_index(occupied_on_line: u64) -> usize {
    (occupied_on_line.wrapping_mul(B_FILE) >> 58) as usize
}

/// Index of a file occupancy, given the occupancy shifted onto the a-file.
pub const fn file_index(occupied_on_a_file: u64) -> usize {
    ((occupied_on_a_file & A_FILE).wrapping_mul(C2H7) >> 58) as usize
}

/// Rank attacks of a slider on `file` for the six inner files of `index`,
/// copied onto all eight ranks.
pub fn fill_up(file: usize, index: usize) -> u64 {
    rank_attacks_8(file, (index as u8) << 1) as u64 * A_FILE
}

/// `[rank][index]`: a-file attacks of a slider on the a-file at `rank`.
fn a_file_attacks() -> Vec<[u64; 64]> {
    (0..8)
        .map(|rank| {
            let mut row = [u64::MAX; 64];
            for occ in 0..256usize {
                let occupied = subset(A_FILE, occ);
                let attacks = slider_attacks(rank * 8, occupied, &[(0, 1), (0, -1)]);
                let slot = &mut row[file_index(occupied)];
                assert!(
                    *slot == u64::MAX || *slot == attacks,
                    "kindergarten file index collides (rank {rank}, occupancy {occupied:#x})"
                );
                *slot = attacks;
            }
            assert!(row.iter().all(|&a| a != u64::MAX), "unused file index");
            row
        })
        .collect()
}

/// Checks both formulas against the ray walker for every square and every
/// occupancy of its lines (panics, failing the build, on a mismatch).
fn check(file_table: &[[u64; 64]]) {
    for square in 0..64 {
        let (file, rank) = coords(square);
        let (file, rank) = (file as usize, rank as usize);
        for (mask, dirs) in [
            (rank_mask(square), [(1, 0), (-1, 0)]),
            (diagonal_mask(square), [(1, 1), (-1, -1)]),
            (anti_diagonal_mask(square), [(1, -1), (-1, 1)]),
        ] {
            for i in 0..1usize << mask.count_ones() {
                let occ = subset(mask, i);
                let got = fill_up(file, line_index(occ)) & mask;
                assert_eq!(got, slider_attacks(square, occ, &dirs), "line {square}");
            }
        }
        let mask = file_mask(square);
        for i in 0..1usize << mask.count_ones() {
            let occ = subset(mask, i);
            let got = file_table[rank][file_index(occ >> file)] << file;
            assert_eq!(got, slider_attacks(square, occ, &[(0, 1), (0, -1)]));
        }
    }
}

/// `KINDERGARTEN_FILL_UP[file][index]` and `KINDERGARTEN_A_FILE[rank][index]`.
pub fn tables() -> TokenStream {
    let file_table = a_file_attacks();
    check(&file_table);
    let fill_rows = (0..8).map(|file| array_u64((0..64).map(|i| fill_up(file, i))));
    let file_rows = file_table.iter().map(|row| array_u64(row.iter().copied()));
    let (b_file, c2h7) = (hex(B_FILE), hex(C2H7));
    quote! {
        #[doc = "Kindergarten: rank attacks of a slider on `file` for the line index (files b-g of the line), copied onto every rank; indexed by `[file][index]`."]
        pub static KINDERGARTEN_FILL_UP: [[u64; 64]; 8] = [#(#fill_rows),*];
        #[doc = "Kindergarten: a-file attacks of a slider on the a-file, indexed by `[rank][index]` (index from the c2-h7 multiplication)."]
        pub static KINDERGARTEN_A_FILE: [[u64; 64]; 8] = [#(#file_rows),*];
        #[doc = "Kindergarten multiplier for ranks and diagonals (the b-file)."]
        pub const KINDERGARTEN_B_FILE: u64 = #b_file;
        #[doc = "Kindergarten multiplier for files (the c2-h7 diagonal)."]
        pub const KINDERGARTEN_C2H7: u64 = #c2h7;
    }
}
