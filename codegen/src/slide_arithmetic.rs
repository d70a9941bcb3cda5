//! The table of the slide-arithmetic backend: the four lines through each
//! square (without it), stored square by square so one 32-byte row holds
//! everything a queen lookup reads.

use crate::array_u64;
use crate::geometry::{anti_diagonal_mask, diagonal_mask, file_mask, rank_mask};
use proc_macro2::TokenStream;
use quote::quote;

/// The lines through `square` in the order of `SLIDE_LINES`' rows: file,
/// rank, diagonal, anti-diagonal.
pub fn lines(square: usize) -> [u64; 4] {
    [
        file_mask(square),
        rank_mask(square),
        diagonal_mask(square),
        anti_diagonal_mask(square),
    ]
}

/// `SLIDE_LINES[square]`.
pub fn tables() -> TokenStream {
    let rows = (0..64).map(|square| array_u64(lines(square)));
    quote! {
        #[doc = "Slide arithmetic: the file, rank, a1-h8 diagonal and h1-a8 anti-diagonal through each square, without it, indexed by `[square][line]`."]
        pub static SLIDE_LINES: [[u64; 4]; 64] = [#(#rows),*];
    }
}
