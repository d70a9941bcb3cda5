//! Tables of the HyperCube backend: for every slider square and every
//! other square, the bit that a piece on the other square contributes to
//! the slider's dense (PEXT-order) occupancy index. Summed over the
//! occupied relevant squares, these deltas give the index into the PEXT
//! attack table (`magics::pext_tables`, emitted with them).

use crate::geometry::{BISHOP_DIRECTIONS, ROOK_DIRECTIONS, relevant_mask};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// `delta[blocker]` for a slider on `square`: `1 << i` when `blocker` is
/// the `i`-th lowest relevant square, else 0.
pub fn deltas(square: usize, directions: &[(i32, i32)]) -> [u16; 64] {
    let mask = relevant_mask(square, directions);
    let mut row = [0u16; 64];
    for (blocker, slot) in row.iter_mut().enumerate() {
        if mask >> blocker & 1 == 1 {
            *slot = 1 << (mask & ((1u64 << blocker) - 1)).count_ones();
        }
    }
    row
}

fn table(directions: &[(i32, i32)]) -> TokenStream {
    let rows = (0..64).map(|square| {
        let items = deltas(square, directions)
            .into_iter()
            .map(Literal::u16_unsuffixed);
        quote!([#(#items),*])
    });
    quote!([#(#rows),*])
}

/// `HYPERCUBE_ROOK_DELTAS` and `HYPERCUBE_BISHOP_DELTAS`, `[slider][blocker]`.
pub fn tables() -> TokenStream {
    let (rook, bishop) = (table(&ROOK_DIRECTIONS), table(&BISHOP_DIRECTIONS));
    quote! {
        #[doc = "HyperCube: the index bit a piece on `blocker` adds to a rook on `square`'s configuration (PEXT order), `[square][blocker]`; 0 when it is not relevant."]
        pub static HYPERCUBE_ROOK_DELTAS: [[u16; 64]; 64] = #rook;
        #[doc = "HyperCube: the same for a bishop, `[square][blocker]`."]
        pub static HYPERCUBE_BISHOP_DELTAS: [[u16; 64]; 64] = #bishop;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::magics::pext;

    /// Summing the deltas of the occupied squares is PEXT of the occupancy.
    #[test]
    fn summed_deltas_are_pext() {
        let mut rng = crate::geometry::SplitMix64(7);
        for square in 0..64 {
            for directions in [&ROOK_DIRECTIONS, &BISHOP_DIRECTIONS] {
                let row = deltas(square, directions);
                let mask = relevant_mask(square, directions);
                for _ in 0..200 {
                    let occ = rng.next_u64();
                    let sum: u64 = (0..64)
                        .filter(|b| occ >> b & 1 == 1)
                        .map(|b| u64::from(row[b]))
                        .sum();
                    assert_eq!(sum, pext(occ, mask));
                }
            }
        }
    }
}
