//! Tables of the split-PEXT backend: one PEXT per line instead of one per
//! piece, so each table is indexed by at most six bits.
//!
//! Per square, four 64-entry tables of whole attack sets, one per line
//! (rank, file, diagonal, anti-diagonal): `SPLIT_PEXT[square][line][index]`,
//! 128 KiB. The rank's index is a shift (its inner squares are
//! contiguous), the others' a PEXT of the line's inner squares. Entries
//! past a line's index range (a short diagonal has fewer than six inner
//! squares) never occur and repeat valid ones.

use crate::array_u64;
use crate::geometry::{relevant_mask, slider_attacks, subset};
use crate::magics::pext;
use proc_macro2::TokenStream;
use quote::quote;

/// The four lines in the order of the table's middle index.
pub const LINES: [[(i32, i32); 2]; 4] = [
    [(1, 0), (-1, 0)],
    [(0, 1), (0, -1)],
    [(1, 1), (-1, -1)],
    [(1, -1), (-1, 1)],
];

/// `SPLIT_PEXT_MASKS[line][square]` (the PEXT masks: file, diagonal,
/// anti-diagonal; the rank needs none) and `SPLIT_PEXT[square][line][index]`.
pub fn tables() -> TokenStream {
    let squares = (0..64).map(|square| {
        let lines = LINES.iter().enumerate().map(move |(line, directions)| {
            let mask = relevant_mask(square, directions);
            let bits = mask.count_ones();
            array_u64((0..64usize).map(move |index| {
                let occupied = if line == 0 {
                    // The rank's index is its inner squares shifted down:
                    // bits 1..=6 of the rank byte, the square's own among
                    // them (it blocks nothing), all 64 values possible.
                    ((index as u64) << 1) << (8 * (square / 8))
                } else {
                    let index = index % (1 << bits);
                    let occupied = subset(mask, index);
                    assert_eq!(pext(occupied, mask), index as u64);
                    occupied
                };
                slider_attacks(square, occupied, directions)
            }))
        });
        quote!([#(#lines),*])
    });
    let masks = LINES[1..]
        .iter()
        .map(|directions| array_u64((0..64).map(|square| relevant_mask(square, directions))));
    quote! {
        #[doc = "Split PEXT: the PEXT mask of each square's file, diagonal and anti-diagonal (inner squares, without the square), `[line - 1][square]`."]
        pub const SPLIT_PEXT_MASKS: [[u64; 64]; 3] = [#(#masks),*];
        #[doc = "Split PEXT: each square's attacks along one line, `[square][line][index]`, lines rank, file, diagonal, anti-diagonal."]
        pub static SPLIT_PEXT: [[[u64; 64]; 4]; 64] = [#(#squares),*];
    }
}
