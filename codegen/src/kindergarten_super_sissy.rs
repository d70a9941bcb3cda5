//! Tables of the kindergarten super SISSY backend: per square and per line
//! a 64-entry "sub set" of attack sets, indexed by the line's six inner
//! occupancy bits gathered kindergarten-style. Per-square tables hold only
//! that line's squares, so no line mask or shift back is needed at run
//! time.
//!
//! Every index formula is checked against the ray walker for every
//! occupancy of the line (the slider's own square included, which the
//! rank and file indices read): two occupancies with one index and
//! different attacks fail the build.

use crate::array_u64;
use crate::geometry::{
    anti_diagonal_mask, diagonal_mask, file_mask, rank_mask, slider_attacks, subset,
};
use crate::kindergarten::{file_index, line_index};
use proc_macro2::TokenStream;
use quote::quote;

/// Rank index: the six inner files of the slider's rank, by a shift.
pub const fn rank_index(square: usize, occupied: u64) -> usize {
    ((occupied >> ((square & 56) | 1)) & 63) as usize
}

/// One line's rows, `[square][index]`: `line` is what the index may read,
/// `index` the run-time formula.
fn per_square(
    line: fn(usize) -> u64,
    directions: &[(i32, i32)],
    index: impl Fn(usize, u64) -> usize,
) -> Vec<[u64; 64]> {
    (0..64)
        .map(|square| {
            let mut row = [None; 64];
            let reads = line(square);
            for i in 0..1usize << reads.count_ones() {
                let occupied = subset(reads, i);
                let attacks = slider_attacks(square, occupied, directions);
                let slot = &mut row[index(square, occupied)];
                assert!(
                    slot.is_none_or(|a| a == attacks),
                    "super SISSY index collides (square {square}, occupancy {occupied:#x})"
                );
                *slot = Some(attacks);
            }
            // Indices no occupancy produces (files a short diagonal lacks).
            row.map(|a| a.unwrap_or(0))
        })
        .collect()
}

/// `KGSSB[square][line][index]` (128 KiB), lines in the order rank, file,
/// diagonal, anti-diagonal: a square's four rows side by side, so one
/// base per square reaches all four (see the backend's header).
pub fn tables() -> TokenStream {
    let rank = per_square(|s| rank_mask(s) | 1 << s, &[(1, 0), (-1, 0)], rank_index);
    let file = per_square(
        |s| file_mask(s) | 1 << s,
        &[(0, 1), (0, -1)],
        |s, o| file_index(o >> (s & 7)),
    );
    let diagonal = per_square(diagonal_mask, &[(1, 1), (-1, -1)], |s, o| {
        line_index(o & diagonal_mask(s))
    });
    let anti = per_square(anti_diagonal_mask, &[(1, -1), (-1, 1)], |s, o| {
        line_index(o & anti_diagonal_mask(s))
    });
    let squares = (0..64).map(|s| {
        let lines = [rank[s], file[s], diagonal[s], anti[s]].map(array_u64);
        quote!([#(#lines),*])
    });
    quote! {
        #[doc = "Kindergarten super SISSY: attacks per `[square][line][index]`, lines rank (index `(occupied >> (rank * 8 + 1)) & 63`), file (the kindergarten c2-h7 multiply on the file shifted to the a-file), diagonal and anti-diagonal (the b-file multiply on the line's occupancy)."]
        pub static KGSSB: [[[u64; 64]; 4]; 64] = [#(#squares),*];
    }
}
