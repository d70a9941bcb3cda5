//! The table of the SISSY backend: for every square and every rank, the
//! queen's attacks when only that rank's byte of the occupancy is set.
//! Each entry is a superset of the true attacks (blockers elsewhere are
//! ignored), and a blocker on one rank cuts exactly the squares behind it,
//! so the AND of the eight entries is exact.

use crate::array_u64;
use crate::geometry::{BISHOP_DIRECTIONS, ROOK_DIRECTIONS, slider_attacks};
use proc_macro2::TokenStream;
use quote::quote;

/// `SISSY_QUEEN[rank][byte][square]` (1 MiB): the square last, so that
/// the lookups of one occupancy for several squares (every piece of a
/// position) share cache lines: the 64 squares of one rank byte are 512
/// contiguous bytes.
pub fn tables() -> TokenStream {
    let queen: Vec<(i32, i32)> = ROOK_DIRECTIONS
        .into_iter()
        .chain(BISHOP_DIRECTIONS)
        .collect();
    let ranks = (0..8).map(|rank| {
        let queen = &queen;
        let bytes = (0..256u64).map(move |byte| {
            array_u64((0..64).map(move |square| slider_attacks(square, byte << (8 * rank), queen)))
        });
        quote!([#(#bytes),*])
    });
    quote! {
        #[doc = "SISSY: queen attacks from `square` with only `rank`'s occupancy byte set, indexed by `[rank][byte][square]`."]
        pub static SISSY_QUEEN: [[[u64; 64]; 256]; 8] = [#(#ranks),*];
    }
}
