//! Rays of the Bob-Mike backend (the classical approach as improved by
//! Daniel Infuehr), indexed by bit-scan results directly: 65 rows each,
//! the last one empty, so "no blocker" (a scan of zero gives 64) needs no
//! sentinel bit, and the downward rays are stored in reverse square order
//! so a leading-zero count indexes them without `63 - x`.

use crate::array_u64;
use crate::geometry::slider_attacks;
use proc_macro2::TokenStream;
use quote::quote;

/// Directions towards higher squares: north, north-east, east, north-west
/// (the rook's at 0 and 2, the bishop's at 1 and 3).
pub const UP: [(i32, i32); 4] = [(0, 1), (1, 1), (1, 0), (-1, 1)];
/// Their opposites in the same order: south, south-west, west, south-east.
pub const DOWN: [(i32, i32); 4] = [(0, -1), (-1, -1), (-1, 0), (1, -1)];

/// `BOB_MIKE_UP[square]` and `BOB_MIKE_DOWN[63 - square]`, row 64 empty.
pub fn tables() -> TokenStream {
    let rows = |dirs: [(i32, i32); 4], square_of: fn(usize) -> usize| {
        (0..65).map(move |i| {
            array_u64(dirs.iter().map(|&d| {
                if i == 64 {
                    0
                } else {
                    slider_attacks(square_of(i), 0, &[d])
                }
            }))
        })
    };
    let up = rows(UP, |i| i);
    let down = rows(DOWN, |i| 63 - i);
    quote! {
        #[doc = "Bob-Mike: a 32-byte row of four rays, 32-byte aligned so that a row is one cache line's half."]
        #[repr(C, align(32))]
        pub struct BobMikeRays(pub [u64; 4]);
        #[doc = "Bob-Mike: empty-board rays north, north-east, east, north-west from square `i` (row 64: none), indexed by the slider's square or a blocker's trailing-zero count."]
        pub static BOB_MIKE_UP: [BobMikeRays; 65] = [#(BobMikeRays(#up)),*];
        #[doc = "Bob-Mike: empty-board rays south, south-west, west, south-east from square `63 - i` (row 64: none), indexed by `63 - square` or a blocker's leading-zero count."]
        pub static BOB_MIKE_DOWN: [BobMikeRays; 65] = [#(BobMikeRays(#down)),*];
    }
}
