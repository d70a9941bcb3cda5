//! Tables of the folding-hash backend: per square and line (rank, file,
//! diagonal, anti-diagonal) a relevant mask, a 32-bit multiplier and an
//! offset into one shared table of line attacks.
//!
//! The index of a line occupancy `o` (the occupancy masked with the line's
//! relevant squares) is `(fold(o) * multiplier) >> 26`, in 32-bit
//! arithmetic: six bits. `fold` XORs the low half with the high half
//! rotated by one, which keeps every line's squares apart (a file's halves
//! land on opposite parities; a diagonal or anti-diagonal would need `9k`
//! or `7k` to equal 31), so the fold itself loses nothing.
//!
//! Multipliers are searched here from [`FOLDING_SEED`] (about 250,000
//! candidates in all, tens of milliseconds): for each line the first
//! [`CANDIDATES`] multipliers without a destructive collision, keeping the
//! one whose used indices span least. The 256 blocks of 64 slots are then
//! packed greedily into one table, each at the first offset where its used
//! slots agree with what is there: 8,229 entries instead of 16,384. Every
//! occupancy of every line is placed, and so checked, on the way.

use crate::geometry::{SplitMix64, relevant_mask, slider_attacks, subset};
use crate::{array_u64, hex};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// The seed of the multiplier search (reproducible).
pub const FOLDING_SEED: u64 = 0x464F_4C44_494E_4721; // "FOLDING!"
/// Collision-free multipliers tried per line before keeping the best.
pub const CANDIDATES: usize = 16;
/// The four lines in table order, each as its two directions.
pub const LINES: [[(i32, i32); 2]; 4] = [
    [(1, 0), (-1, 0)],
    [(0, 1), (0, -1)],
    [(1, 1), (-1, -1)],
    [(1, -1), (-1, 1)],
];

/// Folds a line occupancy into 32 bits without merging any of its squares.
pub const fn fold(occupied_on_line: u64) -> u32 {
    (occupied_on_line as u32) ^ ((occupied_on_line >> 32) as u32).rotate_left(1)
}

/// The six-bit index of a folded line occupancy.
pub const fn index(occupied_on_line: u64, multiplier: u32) -> usize {
    (fold(occupied_on_line).wrapping_mul(multiplier) >> 26) as usize
}

/// One line's block of 64 slots (`None`: no occupancy lands there).
type Block = [Option<u64>; 64];

/// The block of `pairs` (occupancy, attacks) under `multiplier`, or `None`
/// on a destructive collision.
fn block(pairs: &[(u64, u64)], multiplier: u32) -> Option<Block> {
    let mut slots = [None; 64];
    for &(occ, attacks) in pairs {
        let slot = &mut slots[index(occ, multiplier)];
        match *slot {
            Some(a) if a != attacks => return None,
            _ => *slot = Some(attacks),
        }
    }
    Some(slots)
}

/// From the first used slot to the last.
fn span(block: &Block) -> usize {
    let first = block.iter().position(Option::is_some).unwrap_or(0);
    let last = block.iter().rposition(Option::is_some).unwrap_or(0);
    last - first
}

/// Per line: mask, multiplier, block.
fn search() -> Vec<(u64, u32, Block)> {
    let mut rng = SplitMix64(FOLDING_SEED);
    let mut lines = Vec::with_capacity(256);
    for square in 0..64 {
        for directions in &LINES {
            let mask = relevant_mask(square, directions);
            let pairs: Vec<(u64, u64)> = (0..1usize << mask.count_ones())
                .map(|i| {
                    let occ = subset(mask, i);
                    (occ, slider_attacks(square, occ, directions))
                })
                .collect();
            let mut best: Option<(u32, Block)> = None;
            let mut found = 0;
            while found < CANDIDATES {
                let multiplier = (rng.next_u64() & rng.next_u64()) as u32;
                if let Some(b) = block(&pairs, multiplier) {
                    found += 1;
                    if best.as_ref().is_none_or(|(_, kept)| span(&b) < span(kept)) {
                        best = Some((multiplier, b));
                    }
                }
            }
            let (multiplier, b) = best.expect("a multiplier was found");
            lines.push((mask, multiplier, b));
        }
    }
    lines
}

/// Packs the blocks, fullest first, each at the first offset where it
/// agrees with the table; returns the offsets (in line order) and table.
fn pack(blocks: &[&Block]) -> (Vec<u32>, Vec<u64>) {
    let mut order: Vec<usize> = (0..blocks.len()).collect();
    order.sort_by_key(|&b| std::cmp::Reverse(blocks[b].iter().flatten().count()));
    let mut table: Vec<Option<u64>> = Vec::new();
    let mut offsets = vec![0u32; blocks.len()];
    for b in order {
        let fits = |offset: usize| {
            blocks[b].iter().enumerate().all(|(i, slot)| {
                match (slot, table.get(offset + i).copied().flatten()) {
                    (Some(a), Some(there)) => *a == there,
                    _ => true,
                }
            })
        };
        let offset = (0..)
            .find(|&o| fits(o))
            .expect("an offset past the end fits");
        if table.len() < offset + 64 {
            table.resize(offset + 64, None);
        }
        for (i, slot) in blocks[b].iter().enumerate() {
            if slot.is_some() {
                table[offset + i] = *slot;
            }
        }
        offsets[b] = offset as u32;
    }
    // Every block keeps its whole 64 slots, the unused tail too: then a
    // block's end is inside the table by construction, which is what the
    // lookup's unchecked read checks at compile time (at most 63 entries
    // more than trimming the tail would leave).
    (offsets, table.into_iter().map(|a| a.unwrap_or(0)).collect())
}

/// `FOLDING_LINES[square][line] = [mask, multiplier | offset << 32]` and
/// `FOLDING_ATTACKS`.
pub fn tables() -> TokenStream {
    let lines = search();
    let blocks: Vec<&Block> = lines.iter().map(|(_, _, b)| b).collect();
    let (offsets, table) = pack(&blocks);
    // Every occupancy reads back its own attacks (the packing kept them).
    for (line, (mask, multiplier, b)) in lines.iter().enumerate() {
        for (i, slot) in b.iter().enumerate() {
            if let Some(a) = slot {
                assert_eq!(table[offsets[line] as usize + i], *a, "folding line {line}");
            }
        }
        assert!(mask.count_ones() <= 6);
        let _ = multiplier;
    }
    let squares = (0..64).map(|square| {
        let items = (0..4).map(|l| {
            let (mask, multiplier, _) = &lines[square * 4 + l];
            let word = u64::from(*multiplier) | u64::from(offsets[square * 4 + l]) << 32;
            let (m, w) = (hex(*mask), hex(word));
            quote!([#m, #w])
        });
        quote!([#(#items),*])
    });
    let len = Literal::usize_unsuffixed(table.len());
    let attacks = array_u64(table);
    quote! {
        #[doc = "Folding hash: per `[square][line]` (rank, file, diagonal, anti-diagonal) the relevant mask and `multiplier | offset << 32`."]
        pub static FOLDING_LINES: [[[u64; 2]; 4]; 64] = [#(#squares),*];
        #[doc = "Folding hash: attacks along one line, all lines' blocks packed into one table."]
        pub static FOLDING_ATTACKS: [u64; #len] = #attacks;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runtime formula over the packed table gives the ray walker's
    /// attacks for random occupancies of every square.
    #[test]
    fn lookups_match_the_ray_walker() {
        let lines = search();
        let blocks: Vec<&Block> = lines.iter().map(|(_, _, b)| b).collect();
        let (offsets, table) = pack(&blocks);
        assert!(table.len() < 9000, "{}", table.len());
        let mut rng = SplitMix64(3);
        for square in 0..64 {
            for _ in 0..300 {
                let occ = rng.next_u64() & rng.next_u64();
                for (l, directions) in LINES.iter().enumerate() {
                    let (mask, multiplier, _) = lines[square * 4 + l];
                    let got =
                        table[offsets[square * 4 + l] as usize + index(occ & mask, multiplier)];
                    assert_eq!(got, slider_attacks(square, occ, directions), "{square} {l}");
                }
            }
        }
    }
}
