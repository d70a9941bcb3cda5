//! The table of the SISSY backend: for every square and every rank, the
//! queen's attacks when only that rank's byte of the occupancy is set.
//! Each entry is a superset of the true attacks (blockers elsewhere are
//! ignored), and a blocker on one rank cuts exactly the squares behind it,
//! so the AND of the eight entries is exact.

use crate::array_u64;
use crate::geometry::{BISHOP_DIRECTIONS, ROOK_DIRECTIONS, slider_attacks};
use proc_macro2::TokenStream;
use quote::quote;

/// `SISSY_QUEEN[square][rank][byte]` (1 MiB).
pub fn tables() -> TokenStream {
    let queen: Vec<(i32, i32)> = ROOK_DIRECTIONS
        .into_iter()
        .chain(BISHOP_DIRECTIONS)
        .collect();
    let squares = (0..64).map(|square| {
        let ranks = (0..8).map(|rank| {
            let queen = &queen;
            array_u64(
                (0..256u64).map(move |byte| slider_attacks(square, byte << (8 * rank), queen)),
            )
        });
        quote!([#(#ranks),*])
    });
    quote! {
        #[doc = "SISSY: queen attacks from `square` with only `rank`'s occupancy byte set, indexed by `[square][rank][byte]`."]
        pub static SISSY_QUEEN: [[[u64; 256]; 8]; 64] = [#(#squares),*];
    }
}
