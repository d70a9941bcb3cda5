//! The table of the Leorik backend: both diagonals through each square,
//! the square included (ranks and files are shifts of a constant, so only
//! the diagonals are looked up).

use crate::array_u64;
use crate::geometry::{anti_diagonal_mask, diagonal_mask};
use proc_macro2::TokenStream;
use quote::quote;

/// `LEORIK_DIAGONALS[square]`: `[a1-h8 diagonal, h1-a8 anti-diagonal]`.
pub fn tables() -> TokenStream {
    let rows = (0..64).map(|square| {
        array_u64([
            diagonal_mask(square) | 1 << square,
            anti_diagonal_mask(square) | 1 << square,
        ])
    });
    quote! {
        #[doc = "Leorik: the a1-h8 diagonal and the h1-a8 anti-diagonal through each square, the square included, indexed by `[square][0 or 1]`."]
        pub static LEORIK_DIAGONALS: [[u64; 2]; 64] = [#(#rows),*];
    }
}
