//! Rays of the Bob-Mike backend (the classical approach as improved by
//! Daniel Infuehr), indexed by bit-scan results directly: 65 rows each,
//! the last one empty, so "no blocker" (a scan of zero gives 64) needs no
//! sentinel bit, and the downward rays are stored a second time in
//! reverse square order so a leading-zero count indexes them without
//! `63 - x`.

use crate::array_u64;
use crate::geometry::slider_attacks;
use proc_macro2::TokenStream;
use quote::quote;

/// Directions towards higher squares: north, north-east, east, north-west
/// (the rook's at 0 and 2, the bishop's at 1 and 3).
pub const UP: [(i32, i32); 4] = [(0, 1), (1, 1), (1, 0), (-1, 1)];
/// Their opposites in the same order: south, south-west, west, south-east.
pub const DOWN: [(i32, i32); 4] = [(0, -1), (-1, -1), (-1, 0), (1, -1)];

/// `BOB_MIKE_RAYS[square]` (all eight rays of a square, up the board
/// first), `BOB_MIKE_DOWN[63 - square]` and the queen's lines; rows 64
/// are empty.
pub fn tables() -> TokenStream {
    let ray = |square: usize, direction: (i32, i32)| slider_attacks(square, 0, &[direction]);
    let rays = (0..65).map(|i| {
        array_u64(
            UP.iter()
                .chain(DOWN.iter())
                .map(|&d| if i == 64 { 0 } else { ray(i, d) }),
        )
    });
    let down = (0..65).map(|i| {
        array_u64(
            DOWN.iter()
                .map(|&d| if i == 64 { 0 } else { ray(63 - i, d) }),
        )
    });
    let queen_lines = array_u64((0..64).map(|s| {
        UP.iter()
            .chain(DOWN.iter())
            .fold(0, |lines, &d| lines | ray(s, d))
    }));
    quote! {
        #[doc = "Bob-Mike: a 64-byte row of eight rays, aligned to a cache line, so that a slider's rays are one line."]
        #[repr(C, align(64))]
        pub struct BobMikeRow(pub [u64; 8]);
        #[doc = "Bob-Mike: a 32-byte row of four rays, 32-byte aligned so that a row is one cache line's half."]
        #[repr(C, align(32))]
        pub struct BobMikeRays(pub [u64; 4]);
        #[doc = "Bob-Mike: empty-board rays from square `i` (row 64: none) north, north-east, east, north-west, then south, south-west, west, south-east; indexed by the slider's square (all eight) or a blocker's trailing-zero count (the first four)."]
        pub static BOB_MIKE_RAYS: [BobMikeRow; 65] = [#(BobMikeRow(#rays)),*];
        #[doc = "Bob-Mike: empty-board rays south, south-west, west, south-east from square `63 - i` (row 64: none), indexed by a blocker's leading-zero count."]
        pub static BOB_MIKE_DOWN: [BobMikeRays; 65] = [#(BobMikeRays(#down)),*];
        #[doc = "Bob-Mike: a queen's attacks on an empty board from each square, what its eight beyond-the-blocker rays are cut from."]
        pub static BOB_MIKE_QUEEN_LINES: [u64; 64] = #queen_lines;
    }
}
