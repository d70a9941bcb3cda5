//! Tables of the PEXT/PDEP backend: the PEXT layout (relevant masks,
//! per-square offsets), but each attack set is stored compressed to the
//! squares of its empty-board rays, `pext(attacks, rays)`, as a `u16`
//! (a rook sees at most 14 squares, a bishop 13). `PDEP` with the same
//! rays expands it back at run time.

use crate::geometry::{BISHOP_DIRECTIONS, ROOK_DIRECTIONS, relevant_mask, slider_attacks, subset};
use crate::{array_u64, magics::pext};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// `PEXT_PDEP_{ROOK,BISHOP}_{MASKS,OFFSETS}` and `PEXT_PDEP_ATTACKS`.
pub fn tables() -> TokenStream {
    let mut attacks: Vec<u16> = Vec::new();
    let mut masks = [Vec::new(), Vec::new()];
    let mut offsets = [Vec::new(), Vec::new()];
    for (slider, directions) in [ROOK_DIRECTIONS, BISHOP_DIRECTIONS].iter().enumerate() {
        for square in 0..64 {
            let mask = relevant_mask(square, directions);
            let rays = slider_attacks(square, 0, directions);
            offsets[slider].push(Literal::u32_unsuffixed(attacks.len() as u32));
            for index in 0..1usize << mask.count_ones() {
                let occupied = subset(mask, index);
                debug_assert_eq!(pext(occupied, mask), index as u64);
                let compressed = pext(slider_attacks(square, occupied, directions), rays);
                attacks.push(u16::try_from(compressed).expect("at most 16 ray squares"));
            }
            masks[slider].push(mask);
        }
    }
    let [rook_masks, bishop_masks] = masks.map(array_u64);
    let [rook_offsets, bishop_offsets] = offsets;
    let len = Literal::usize_unsuffixed(attacks.len());
    let attacks = attacks.into_iter().map(Literal::u16_unsuffixed);
    quote! {
        #[doc = "PEXT/PDEP: relevant occupancy mask per square (rook)."]
        pub const PEXT_PDEP_ROOK_MASKS: [u64; 64] = #rook_masks;
        #[doc = "PEXT/PDEP: start of each square's block in `PEXT_PDEP_ATTACKS` (rook)."]
        pub const PEXT_PDEP_ROOK_OFFSETS: [u32; 64] = [#(#rook_offsets),*];
        #[doc = "PEXT/PDEP: relevant occupancy mask per square (bishop)."]
        pub const PEXT_PDEP_BISHOP_MASKS: [u64; 64] = #bishop_masks;
        #[doc = "PEXT/PDEP: start of each square's block in `PEXT_PDEP_ATTACKS` (bishop)."]
        pub const PEXT_PDEP_BISHOP_OFFSETS: [u32; 64] = [#(#bishop_offsets),*];
        #[doc = "PEXT/PDEP: rook blocks then bishop blocks; each entry is the attack set compressed onto the square's empty-board rays (`pext(attacks, rays)`)."]
        pub static PEXT_PDEP_ATTACKS: [u16; #len] = [#(#attacks),*];
    }
}
