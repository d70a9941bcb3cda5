//! Tables of the split-PEXT backend: one PEXT per line instead of one per
//! piece, so each table is indexed by at most six bits.
//!
//! * Files: `pext(occupied, inner file)` numbers ranks 2-7 upwards; a file
//!   slider's attacks do not depend on the file, so one `[rank][index]`
//!   table on the a-file serves all eight files (shifted at run time).
//! * Diagonals and anti-diagonals: per square a dense block of
//!   `2^(inner squares)` attack sets, packed end to end with offsets (a
//!   short diagonal has a tiny block), 13 KiB for both directions.
//! * Ranks need no PEXT: the shared `RANK_ATTACKS` lookup.

use crate::array_u64;
use crate::geometry::{relevant_mask, slider_attacks, subset};
use crate::magics::pext;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

const FILE: [(i32, i32); 2] = [(0, 1), (0, -1)];
const DIAGONAL: [(i32, i32); 2] = [(1, 1), (-1, -1)];
const ANTI_DIAGONAL: [(i32, i32); 2] = [(1, -1), (-1, 1)];

/// `SPLIT_PEXT_*`: file masks and a-file table, diagonal masks, offsets and
/// the packed diagonal blocks.
pub fn tables() -> TokenStream {
    let file_masks = array_u64((0..64).map(|s| relevant_mask(s, &FILE)));
    let a_file = (0..8).map(|rank| {
        let square = rank * 8;
        let mask = relevant_mask(square, &FILE);
        array_u64((0..64).map(move |index| {
            // Indices past the mask's bits never occur (rank 1 and 8
            // sliders have five inner squares): repeat a valid entry.
            let occupied = subset(mask, index % (1 << mask.count_ones()));
            slider_attacks(square, occupied, &FILE)
        }))
    });
    let mut blocks = Vec::new();
    let mut masks = [Vec::new(), Vec::new()];
    let mut offsets = [Vec::new(), Vec::new()];
    for (line, directions) in [DIAGONAL, ANTI_DIAGONAL].iter().enumerate() {
        for square in 0..64 {
            let mask = relevant_mask(square, directions);
            offsets[line].push(Literal::u16_unsuffixed(blocks.len() as u16));
            for index in 0..1usize << mask.count_ones() {
                let occupied = subset(mask, index);
                assert_eq!(pext(occupied, mask), index as u64);
                blocks.push(slider_attacks(square, occupied, directions));
            }
            masks[line].push(mask);
        }
    }
    let [diagonal_masks, anti_masks] = masks.map(array_u64);
    let [diagonal_offsets, anti_offsets] = offsets;
    let len = Literal::usize_unsuffixed(blocks.len());
    let blocks = array_u64(blocks);
    quote! {
        #[doc = "Split PEXT: the file through each square without it and without ranks 1 and 8 (the PEXT mask)."]
        pub const SPLIT_PEXT_FILE_MASKS: [u64; 64] = #file_masks;
        #[doc = "Split PEXT: a-file attacks of a slider on the a-file, indexed by `[rank][pext index]` (bit `i` is rank `i + 2`, skipping the slider's own)."]
        pub static SPLIT_PEXT_A_FILE: [[u64; 64]; 8] = [#(#a_file),*];
        #[doc = "Split PEXT: the a1-h8 diagonal through each square without it and without the board's edge (the PEXT mask)."]
        pub const SPLIT_PEXT_DIAGONAL_MASKS: [u64; 64] = #diagonal_masks;
        #[doc = "Split PEXT: the h1-a8 anti-diagonal through each square without it and without the board's edge (the PEXT mask)."]
        pub const SPLIT_PEXT_ANTI_DIAGONAL_MASKS: [u64; 64] = #anti_masks;
        #[doc = "Split PEXT: start of each square's diagonal block in `SPLIT_PEXT_LINES`."]
        pub const SPLIT_PEXT_DIAGONAL_OFFSETS: [u16; 64] = [#(#diagonal_offsets),*];
        #[doc = "Split PEXT: start of each square's anti-diagonal block in `SPLIT_PEXT_LINES`."]
        pub const SPLIT_PEXT_ANTI_DIAGONAL_OFFSETS: [u16; 64] = [#(#anti_offsets),*];
        #[doc = "Split PEXT: diagonal blocks then anti-diagonal blocks, one attack set per PEXT index."]
        pub static SPLIT_PEXT_LINES: [u64; #len] = #blocks;
    }
}
