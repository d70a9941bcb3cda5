//! The table of the rotated backend that the shared rank lookup cannot
//! serve: once the board is transposed, a file's occupancy is one byte, and
//! its attacks must go back onto the file.

use crate::array_u64;
use crate::geometry::{slider_attacks, subset};
use proc_macro2::TokenStream;
use quote::quote;

/// `ROTATED_FILE_ATTACKS[rank][inner]`: a-file attacks of a slider on the
/// a-file at `rank`, for the occupancy of ranks 2-7 in `inner` (bit `i` is
/// rank `i + 2`, the order a transposed board's byte has).
pub fn tables() -> TokenStream {
    let rows = (0..8).map(|rank: usize| {
        array_u64((0..64).map(move |inner| {
            let occupied = subset(0x0001_0101_0101_0100, inner);
            slider_attacks(rank * 8, occupied, &[(0, 1), (0, -1)])
        }))
    });
    quote! {
        #[doc = "Rotated: a-file attacks of a slider on the a-file, indexed by `[rank][inner]` where bit `i` of `inner` is the occupancy of rank `i + 2`."]
        pub static ROTATED_FILE_ATTACKS: [[u64; 64]; 8] = [#(#rows),*];
    }
}
