//! Rays for the classical and obstruction-difference backends: the squares
//! a slider sees in one direction on an empty board.

use crate::array_u64;
use crate::geometry::slider_attacks;
use proc_macro2::TokenStream;
use quote::quote;

/// The eight directions as (file step, rank step). The first four point to
/// higher square indices (their first blocker is the lowest set bit), the
/// last four are their opposites in the same order (first blocker: highest
/// set bit), so direction `d` and `d + 4` make one line.
pub const RAY_DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),   // north: the file, upwards
    (1, 1),   // north-east: the a1-h8 diagonal, upwards
    (1, 0),   // east: the rank, rightwards
    (-1, 1),  // north-west: the h1-a8 anti-diagonal, upwards
    (0, -1),  // south
    (-1, -1), // south-west
    (-1, 0),  // west
    (1, -1),  // south-east
];

/// The ray from `square` in direction `d` (an index into [`RAY_DIRECTIONS`]).
pub fn ray(d: usize, square: usize) -> u64 {
    slider_attacks(square, 0, &[RAY_DIRECTIONS[d]])
}

/// `RAYS[direction][square]`, and the same rays per square and line for
/// obstruction difference (`OBSTRUCTION_LINES`).
pub fn tables() -> TokenStream {
    let rows = (0..8).map(|d| array_u64((0..64).map(|s| ray(d, s))));
    let squares = (0..64).map(|s| {
        let lines = (0..4).map(|up| array_u64([ray(up, s), ray(up + 4, s)]));
        quote!(ObstructionLines([#(#lines),*]))
    });
    quote! {
        #[doc = "Empty-board rays, indexed by `[direction][square]`. Directions 0-3 (north, north-east, east, north-west) point to higher squares, 4-7 are their opposites in the same order (south, south-west, west, south-east)."]
        pub static RAYS: [[u64; 64]; 8] = [#(#rows),*];
        #[doc = "One square's four lines (file, diagonal, rank, anti-diagonal), each its upper and lower ray: 64 bytes, one cache line."]
        #[repr(C, align(64))]
        pub struct ObstructionLines(pub [[u64; 2]; 4]);
        #[doc = "Obstruction difference's rays by square: `OBSTRUCTION_LINES[square].0[line] = [upper, lower]`, a lookup's rays on one cache line."]
        pub static OBSTRUCTION_LINES: [ObstructionLines; 64] = [#(#squares),*];
    }
}
