//! Line masks of the Galois-field backend, laid out so that one vector load
//! fetches the lines it works on: `[file, rank, diagonal, anti-diagonal]`
//! per square (the rook's pair first, the bishop's second).

use crate::array_u64;
use crate::geometry::{anti_diagonal_mask, diagonal_mask, file_mask, rank_mask};
use proc_macro2::TokenStream;
use quote::quote;

/// `GALOIS_LINES[square]`.
pub fn tables() -> TokenStream {
    let rows = (0..64).map(|s| {
        array_u64([
            file_mask(s),
            rank_mask(s),
            diagonal_mask(s),
            anti_diagonal_mask(s),
        ])
    });
    quote! {
        #[doc = "Galois field: the four lines through each square (without it), 64-byte aligned so that a square's row never straddles two cache lines."]
        #[repr(C, align(64))]
        pub struct GaloisLines(pub [[u64; 4]; 64]);
        #[doc = "Galois field: the four lines through each square, without it, as `[file, rank, a1-h8 diagonal, h1-a8 anti-diagonal]`."]
        pub static GALOIS_LINES: GaloisLines = GaloisLines([#(#rows),*]);
    }
}
