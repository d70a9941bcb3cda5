//! The table of the genetic obstruction-difference backend: one row of six
//! masks per square (48 bytes), so a lookup touches one row only. The four
//! lines keep the slider's square: two lines through it are combined by
//! XOR, which cancels that square without a mask of its own.

use crate::array_u64;
use crate::geometry::{anti_diagonal_mask, diagonal_mask, file_mask, rank_mask};
use proc_macro2::TokenStream;
use quote::quote;

/// Row layout of `GENETIC_OBSTRUCTION[square]`: squares below the slider,
/// squares above it, then rank, file, diagonal and anti-diagonal through
/// it (each with the slider's square).
pub fn row(square: usize) -> [u64; 6] {
    let own = 1u64 << square;
    [
        own - 1,
        !(own | (own - 1)),
        rank_mask(square) | own,
        file_mask(square) | own,
        diagonal_mask(square) | own,
        anti_diagonal_mask(square) | own,
    ]
}

/// `GENETIC_OBSTRUCTION[square]`.
pub fn tables() -> TokenStream {
    let rows = (0..64).map(|square| array_u64(row(square)));
    quote! {
        #[doc = "Genetic obstruction difference: per square `[below, above, rank, file, diagonal, anti-diagonal]`, the four lines with the square itself."]
        pub static GENETIC_OBSTRUCTION: [[u64; 6]; 64] = [#(#rows),*];
    }
}
