//! Black magic bitboards: fixed-shift magics on the *complemented* mask,
//! `((occupied | !mask) * magic) >> shift`, with every square's block
//! overlapping the others' in one shared table.
//!
//! With the non-relevant bits all set, the products of a square's
//! occupancies crowd into a narrower range of indices than with plain
//! magics, so a block has a lowest used index well above zero; the block's
//! offset is then *negative* relative to the table (the "negative offset"
//! of the technique), and the unused entries inside a block are free for
//! other squares' entries. [`find`] searches magics that keep each block's
//! used span short and packs the blocks greedily into the holes left by
//! the others; the result is data (`black_magic_numbers.rs`) that [`verify`]
//! checks at build time, like the fancy magics.

use crate::geometry::{
    BISHOP_DIRECTIONS, ROOK_DIRECTIONS, SplitMix64, relevant_mask, slider_attacks, subset,
};
use crate::hex;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

include!("black_magic_numbers.rs");

/// The seed `find-black-magics` starts from.
pub const BLACK_MAGIC_SEED: u64 = 0x424C_4143_4B21_2121; // "BLACK!!!"

/// Index bits (rook, bishop): fixed, like plain magics.
pub const BITS: [u32; 2] = [12, 9];

/// A square's data: its mask and every (occupancy, attacks) pair.
struct Square {
    mask: u64,
    pairs: Vec<(u64, u64)>,
}

fn square(rook: bool, sq: usize) -> Square {
    let dirs = if rook {
        &ROOK_DIRECTIONS
    } else {
        &BISHOP_DIRECTIONS
    };
    let mask = relevant_mask(sq, dirs);
    let pairs = (0..1usize << mask.count_ones())
        .map(|i| {
            let occ = subset(mask, i);
            (occ, slider_attacks(sq, occ, dirs))
        })
        .collect();
    Square { mask, pairs }
}

/// The index of `occupied` for a square with `mask`.
pub const fn index(occupied: u64, mask: u64, magic: u64, bits: u32) -> usize {
    ((occupied | !mask).wrapping_mul(magic) >> (64 - bits)) as usize
}

/// A square's used (index, attacks) pairs, by increasing index.
type Entries = Vec<(usize, u64)>;

/// The square's entries, or `None` on a destructive collision.
fn entries(s: &Square, magic: u64, bits: u32) -> Option<Entries> {
    let mut slots = vec![None; 1 << bits];
    for &(occ, attacks) in &s.pairs {
        let i = index(occ, s.mask, magic, bits);
        match slots[i] {
            Some(a) if a != attacks => return None,
            _ => slots[i] = Some(attacks),
        }
    }
    Some(
        slots
            .into_iter()
            .enumerate()
            .filter_map(|(i, a)| a.map(|a| (i, a)))
            .collect(),
    )
}

/// The shared table of a set of magics and offsets, or an error naming the
/// first square whose entries collide or fall outside `len`.
fn build(
    magics: &[[u64; 64]; 2],
    offsets: &[[i32; 64]; 2],
    len: usize,
) -> Result<Vec<u64>, String> {
    let mut table: Vec<Option<u64>> = vec![None; len];
    for (k, rook) in [true, false].into_iter().enumerate() {
        for sq in 0..64 {
            let s = square(rook, sq);
            let name = if rook { "rook" } else { "bishop" };
            let list = entries(&s, magics[k][sq], BITS[k])
                .ok_or_else(|| format!("black magic {name} {sq}: destructive collision"))?;
            for (i, attacks) in list {
                let at = offsets[k][sq] as i64 + i as i64;
                let slot = usize::try_from(at)
                    .ok()
                    .and_then(|at| table.get_mut(at))
                    .ok_or_else(|| {
                        format!("black magic {name} {sq}: index {at} outside the table")
                    })?;
                match *slot {
                    Some(a) if a != attacks => {
                        return Err(format!(
                            "black magic {name} {sq}: overlaps another square at {at}"
                        ));
                    }
                    _ => *slot = Some(attacks),
                }
            }
        }
    }
    Ok(table.into_iter().map(|a| a.unwrap_or(0)).collect())
}

/// Checks the stored magics and offsets (a build fails with the message).
pub fn verify() -> Result<(), String> {
    build(
        &[ROOK_MAGICS, BISHOP_MAGICS],
        &[ROOK_OFFSETS, BISHOP_OFFSETS],
        TABLE_LEN,
    )
    .map(|_| ())
    .map_err(|e| {
        format!("{e}; run `cargo run --release -p quince-codegen --bin find-black-magics`")
    })
}

/// What [`find`] found.
pub struct Found {
    /// Magics per `[rook = 0, bishop = 1][square]`.
    pub magics: [[u64; 64]; 2],
    /// Table position of each square's index 0.
    pub offsets: [[i32; 64]; 2],
    /// Entries of the packed table.
    pub len: usize,
    /// Entries the squares use (distinct indices), summed.
    pub used: usize,
    /// Each square's span of indices (lowest to highest used), summed: the
    /// table's length had the blocks been laid end to end.
    pub spans: usize,
}

/// The lowest table position for `list`'s lowest entry at which every
/// entry lands on a free slot (0: no attack set is empty) or on an equal
/// attack set.
fn first_fit(table: &[u64], list: &Entries) -> usize {
    let low = list[0].0;
    (0..)
        .find(|&base| {
            list.iter().all(|&(i, a)| {
                let slot = table.get(base + i - low).copied().unwrap_or(0);
                slot == 0 || slot == a
            })
        })
        .expect("past the table's end everything fits")
}

/// Random collision-free sparse magics a square's climb starts from (the
/// one with the shortest span).
const START_CANDIDATES: usize = 400;

/// A square's magic with the shortest span of used indices that `steps`
/// of hill climbing found: from the best of [`START_CANDIDATES`] random
/// collision-free sparse magics, flip
/// one to three random bits and keep the result when it is still free of
/// collisions and spans no more indices.
fn climb(s: &Square, bits: u32, steps: usize, rng: &mut SplitMix64) -> (u64, Entries) {
    let span = |list: &Entries| list.last().unwrap().0 - list[0].0;
    // Start from the shortest span of a few hundred random sparse magics.
    let mut best: Option<(u64, Entries)> = None;
    let mut starts = 0;
    while starts < START_CANDIDATES {
        let magic = rng.next_u64() & rng.next_u64() & rng.next_u64();
        if let Some(list) = entries(s, magic, bits) {
            starts += 1;
            if best.as_ref().is_none_or(|b| span(&list) < span(&b.1)) {
                best = Some((magic, list));
            }
        }
    }
    let (mut magic, mut list) = best.expect("START_CANDIDATES > 0");
    for _ in 0..steps {
        let r = rng.next_u64();
        let mut flips = 1u64 << (r & 63);
        if r >> 6 & 1 == 1 {
            flips |= 1 << (r >> 8 & 63);
        }
        if r >> 7 & 1 == 1 {
            flips |= 1 << (r >> 14 & 63);
        }
        let candidate = magic ^ flips;
        if let Some(next) = entries(s, candidate, bits)
            && span(&next) <= span(&list)
        {
            (magic, list) = (candidate, next);
        }
    }
    (magic, list)
}

/// Searches magics (per square, `steps` of hill climbing towards a short
/// span of used indices) and packs their blocks, widest first, each at the
/// lowest position where it fits among those already placed.
pub fn find(seed: u64, steps: usize) -> Found {
    let mut rng = SplitMix64(seed);
    let mut magics = [[0u64; 64]; 2];
    let mut offsets = [[0i32; 64]; 2];
    let mut blocks: Vec<(usize, usize, Entries)> = Vec::new();
    for (k, rook) in [true, false].into_iter().enumerate() {
        for (sq, slot) in magics[k].iter_mut().enumerate() {
            let (magic, list) = climb(&square(rook, sq), BITS[k], steps, &mut rng);
            *slot = magic;
            blocks.push((k, sq, list));
        }
    }
    let span = |list: &Entries| list.last().unwrap().0 - list[0].0 + 1;
    let used = blocks.iter().map(|b| b.2.len()).sum();
    let spans = blocks.iter().map(|b| span(&b.2)).sum();
    blocks.sort_by_key(|b| std::cmp::Reverse(span(&b.2)));
    let mut table: Vec<u64> = Vec::new();
    for (k, sq, list) in blocks {
        let base = first_fit(&table, &list);
        let low = list[0].0;
        table.resize(table.len().max(base + span(&list)), 0);
        for &(i, a) in &list {
            table[base + i - low] = a;
        }
        offsets[k][sq] = (base as i64 - low as i64) as i32;
    }
    Found {
        magics,
        offsets,
        len: table.len(),
        used,
        spans,
    }
}

/// Renders the found data as `black_magic_numbers.rs`.
pub fn render(found: &Found, seed: u64, tries: usize) -> String {
    let Found {
        magics,
        offsets,
        len,
        used,
        spans,
    } = found;
    let list = |values: &[u64; 64]| {
        values
            .iter()
            .map(|v| format!("    0x{v:016x},\n"))
            .collect::<String>()
    };
    let offs = |values: &[i32; 64]| {
        values
            .iter()
            .map(|v| format!("    {v},\n"))
            .collect::<String>()
    };
    format!(
        "// Black magics found by `cargo run --release -p quince-codegen --bin find-black-magics`\n\
         // from seed 0x{seed:016x}, {tries} hill-climbing steps per square.\n\
         // The squares use {used} entries; their spans sum to {spans}; packed: {len}.\n\
         // Data, not code: `verify` checks them at build time.\n\n\
         /// Entries of the shared black magic table.\n\
         pub const TABLE_LEN: usize = {len};\n\n\
         /// Rook black magics, one per square (a1 = 0).\n\
         pub const ROOK_MAGICS: [u64; 64] = [\n{}];\n\n\
         /// Bishop black magics, one per square.\n\
         pub const BISHOP_MAGICS: [u64; 64] = [\n{}];\n\n\
         /// Where each rook square's index 0 would be in the table (may be negative).\n\
         pub const ROOK_OFFSETS: [i32; 64] = [\n{}];\n\n\
         /// Where each bishop square's index 0 would be in the table.\n\
         pub const BISHOP_OFFSETS: [i32; 64] = [\n{}];\n",
        list(&magics[0]),
        list(&magics[1]),
        offs(&offsets[0]),
        offs(&offsets[1]),
    )
}

/// The black magic backend's tables.
pub fn tables() -> TokenStream {
    let table = build(
        &[ROOK_MAGICS, BISHOP_MAGICS],
        &[ROOK_OFFSETS, BISHOP_OFFSETS],
        TABLE_LEN,
    )
    .expect("verified by build.rs");
    let not_masks = |rook: bool| {
        let items = (0..64).map(move |sq| hex(!square(rook, sq).mask));
        quote!([#(#items),*])
    };
    let (rn, bn) = (not_masks(true), not_masks(false));
    let rm = ROOK_MAGICS.iter().map(|&m| hex(m));
    let bm = BISHOP_MAGICS.iter().map(|&m| hex(m));
    let ro = ROOK_OFFSETS
        .iter()
        .map(|&o| Literal::i64_unsuffixed(o as i64));
    let bo = BISHOP_OFFSETS
        .iter()
        .map(|&o| Literal::i64_unsuffixed(o as i64));
    let attacks = table.into_iter().map(hex);
    let len = Literal::usize_unsuffixed(TABLE_LEN);
    quote! {
        #[doc = "Black magic: the complement of each rook square's relevant mask."]
        pub const BLACK_ROOK_NOT_MASKS: [u64; 64] = #rn;
        #[doc = "Black magic: the complement of each bishop square's relevant mask."]
        pub const BLACK_BISHOP_NOT_MASKS: [u64; 64] = #bn;
        #[doc = "Black magic numbers (rook), verified at build time."]
        pub const BLACK_ROOK_MAGICS: [u64; 64] = [#(#rm),*];
        #[doc = "Black magic numbers (bishop), verified at build time."]
        pub const BLACK_BISHOP_MAGICS: [u64; 64] = [#(#bm),*];
        #[doc = "Black magic: table position of each rook square's index 0 (may be negative)."]
        pub const BLACK_ROOK_OFFSETS: [i32; 64] = [#(#ro),*];
        #[doc = "Black magic: table position of each bishop square's index 0 (may be negative)."]
        pub const BLACK_BISHOP_OFFSETS: [i32; 64] = [#(#bo),*];
        #[doc = "Black magic: the shared, overlapping attack table."]
        pub static BLACK_MAGIC_ATTACKS: [u64; #len] = [#(#attacks),*];
    }
}
