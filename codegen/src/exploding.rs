//! Tables of the exploding-bitboards backend: each square's first ring,
//! the squares next to it on its lines, where the explosion starts.
//! Everything after the first ring is computed from the occupancy (see
//! `src/sliders/exploding.rs`), so these 1 KiB are all it reads besides
//! the line masks.

use crate::array_u64;
use crate::geometry::{BISHOP_DIRECTIONS, ROOK_DIRECTIONS, slider_attacks};
use proc_macro2::TokenStream;
use quote::quote;

/// The squares next to `square` along `directions` (a full board blocks
/// every ray after one step).
pub fn first_ring(square: usize, directions: &[(i32, i32)]) -> u64 {
    slider_attacks(square, !0, directions)
}

/// `EXPLODING_ROOK_RING` and `EXPLODING_BISHOP_RING`, indexed by square.
pub fn tables() -> TokenStream {
    let rook = array_u64((0..64).map(|s| first_ring(s, &ROOK_DIRECTIONS)));
    let bishop = array_u64((0..64).map(|s| first_ring(s, &BISHOP_DIRECTIONS)));
    quote! {
        #[doc = "Exploding bitboards: the rook's first ring (its orthogonal neighbours), by square."]
        pub const EXPLODING_ROOK_RING: [u64; 64] = #rook;
        #[doc = "Exploding bitboards: the bishop's first ring (its diagonal neighbours), by square."]
        pub const EXPLODING_BISHOP_RING: [u64; 64] = #bishop;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_have_two_to_four_squares() {
        for s in 0..64 {
            let (r, b) = (
                first_ring(s, &ROOK_DIRECTIONS),
                first_ring(s, &BISHOP_DIRECTIONS),
            );
            assert!((2..=4).contains(&r.count_ones()), "{s}");
            assert!((1..=4).contains(&b.count_ones()), "{s}");
        }
        assert_eq!(first_ring(0, &ROOK_DIRECTIONS), 0x102);
        assert_eq!(first_ring(27, &BISHOP_DIRECTIONS), 0x0014_0014_0000);
    }
}
