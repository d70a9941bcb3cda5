//! Magic numbers and the slider attack tables for the magic and PEXT backends.
//!
//! Quince uses *fancy* magic bitboards: each square has its own index width
//! (the number of relevant occupancy bits) and its own offset into one shared
//! table, so the table is 107,648 entries (841 KiB) instead of the 2 MiB of
//! fixed-shift magics with 12-bit rook indices. The smaller table stays warmer
//! in cache, which matters more here than the one extra load of a per-square
//! shift.
//!
//! The magic numbers are data (`magic_numbers.rs`), never searched for during
//! a build: [`verify`] only checks them (a few milliseconds), and the
//! `find-magics` binary regenerates them reproducibly from [`MAGIC_SEED`].

use crate::geometry::{
    BISHOP_DIRECTIONS, ROOK_DIRECTIONS, SplitMix64, relevant_mask, slider_attacks, subset,
};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

include!("magic_numbers.rs");

/// The seed `find-magics` starts from; with it the search is reproducible.
pub const MAGIC_SEED: u64 = 0x4D41_4749_4353_2121; // "MAGICS!!"

/// Which slider: rook (orthogonal) or bishop (diagonal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slider {
    Rook,
    Bishop,
}

impl Slider {
    fn directions(self) -> &'static [(i32, i32); 4] {
        match self {
            Slider::Rook => &ROOK_DIRECTIONS,
            Slider::Bishop => &BISHOP_DIRECTIONS,
        }
    }
    fn magics(self) -> &'static [u64; 64] {
        match self {
            Slider::Rook => &ROOK_MAGICS,
            Slider::Bishop => &BISHOP_MAGICS,
        }
    }
}

/// Every (occupancy subset, attack set) pair of a slider on a square.
fn occupancies(slider: Slider, square: usize) -> (u64, Vec<(u64, u64)>) {
    let mask = relevant_mask(square, slider.directions());
    let pairs = (0..1usize << mask.count_ones())
        .map(|i| {
            let occ = subset(mask, i);
            (occ, slider_attacks(square, occ, slider.directions()))
        })
        .collect();
    (mask, pairs)
}

/// Fills the per-square magic table, or returns `None` on a destructive
/// collision (two occupancies with different attacks at one index).
fn fill(magic: u64, bits: u32, pairs: &[(u64, u64)]) -> Option<Vec<u64>> {
    let mut table = vec![0u64; 1 << bits];
    let mut used = vec![false; 1 << bits];
    for &(occ, attacks) in pairs {
        let index = (occ.wrapping_mul(magic) >> (64 - bits)) as usize;
        if used[index] && table[index] != attacks {
            return None;
        }
        used[index] = true;
        table[index] = attacks;
    }
    Some(table)
}

/// Searches magics for all 64 squares of one slider from a seed.
pub fn find(slider: Slider, seed: u64) -> [u64; 64] {
    let mut rng = SplitMix64(seed);
    let mut result = [0; 64];
    for (square, slot) in result.iter_mut().enumerate() {
        let (mask, pairs) = occupancies(slider, square);
        let bits = mask.count_ones();
        loop {
            // Sparse candidates (few set bits) succeed far more often.
            let magic = rng.next_u64() & rng.next_u64() & rng.next_u64();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            if fill(magic, bits, &pairs).is_some() {
                *slot = magic;
                break;
            }
        }
    }
    result
}

/// Checks the stored magics: every square's index function must be free of
/// destructive collisions. Returns a message naming the first bad square.
pub fn verify() -> Result<(), String> {
    for slider in [Slider::Rook, Slider::Bishop] {
        for square in 0..64 {
            let (mask, pairs) = occupancies(slider, square);
            if fill(slider.magics()[square], mask.count_ones(), &pairs).is_none() {
                return Err(format!(
                    "{slider:?} magic for square {square} has a destructive collision; \
                     run `cargo run -p quince-codegen --bin find-magics`"
                ));
            }
        }
    }
    Ok(())
}

/// Renders magic numbers as the `magic_numbers.rs` data file.
pub fn render_numbers(rook: &[u64; 64], bishop: &[u64; 64]) -> String {
    let list = |values: &[u64; 64]| {
        values
            .iter()
            .map(|v| format!("    0x{v:016x},\n"))
            .collect::<String>()
    };
    format!(
        "// Magic numbers found by `cargo run -p quince-codegen --bin find-magics`\n\
         // from seed 0x{MAGIC_SEED:016x}. Data, not code: `verify` checks them at build time.\n\n\
         /// Rook magic numbers, one per square (a1 = 0).\n\
         pub const ROOK_MAGICS: [u64; 64] = [\n{}];\n\n\
         /// Bishop magic numbers, one per square (a1 = 0).\n\
         pub const BISHOP_MAGICS: [u64; 64] = [\n{}];\n",
        list(rook),
        list(bishop)
    )
}

fn hex(value: u64) -> Literal {
    format!("0x{value:016x}").parse().expect("a hex literal")
}

/// Per-square data plus the shared attack table of one indexing scheme.
struct Layout {
    masks: Vec<u64>,
    offsets: Vec<u32>,
    attacks: Vec<u64>,
}

/// Lays out rook then bishop entries in one table; `index` maps (slider,
/// square, relevant mask, occupancy) to a position within that square's block.
fn layout(index: impl Fn(Slider, usize, u64, u64) -> usize) -> (Layout, Layout) {
    let mut attacks = Vec::new();
    let mut per_slider = Vec::new();
    for slider in [Slider::Rook, Slider::Bishop] {
        let mut masks = Vec::new();
        let mut offsets = Vec::new();
        for square in 0..64 {
            let (mask, pairs) = occupancies(slider, square);
            let bits = mask.count_ones();
            let offset = attacks.len();
            attacks.resize(offset + (1 << bits), 0);
            for (occ, att) in pairs {
                attacks[offset + index(slider, square, mask, occ)] = att;
            }
            masks.push(mask);
            offsets.push(offset as u32);
        }
        per_slider.push((masks, offsets));
    }
    let (bishop_masks, bishop_offsets) = per_slider.pop().unwrap();
    let (rook_masks, rook_offsets) = per_slider.pop().unwrap();
    (
        Layout {
            masks: rook_masks,
            offsets: rook_offsets,
            attacks: attacks.clone(),
        },
        Layout {
            masks: bishop_masks,
            offsets: bishop_offsets,
            attacks,
        },
    )
}

/// Software PEXT: gathers the bits of `value` selected by `mask` into the low bits.
pub fn pext(value: u64, mask: u64) -> u64 {
    let mut result = 0;
    let mut bits = mask;
    let mut i = 0;
    while bits != 0 {
        let low = bits & bits.wrapping_neg();
        if value & low != 0 {
            result |= 1 << i;
        }
        bits &= bits - 1;
        i += 1;
    }
    result
}

fn emit_layout(prefix: &str, rook: &Layout, bishop: &Layout, extra: TokenStream) -> TokenStream {
    let ident = |s: &str| quote::format_ident!("{}_{}", prefix, s);
    let (rm, ro, bm, bo, att) = (
        ident("ROOK_MASKS"),
        ident("ROOK_OFFSETS"),
        ident("BISHOP_MASKS"),
        ident("BISHOP_OFFSETS"),
        ident("ATTACKS"),
    );
    let rook_masks = rook.masks.iter().map(|&m| hex(m));
    let bishop_masks = bishop.masks.iter().map(|&m| hex(m));
    let rook_offsets = rook.offsets.iter().map(|&o| Literal::u32_unsuffixed(o));
    let bishop_offsets = bishop.offsets.iter().map(|&o| Literal::u32_unsuffixed(o));
    let attacks = rook.attacks.iter().map(|&a| hex(a));
    let len = Literal::usize_unsuffixed(rook.attacks.len());
    quote! {
        #[doc = "Relevant occupancy mask per square (rook)."]
        pub const #rm: [u64; 64] = [#(#rook_masks),*];
        #[doc = "Start of each square's block in the attack table (rook)."]
        pub const #ro: [u32; 64] = [#(#rook_offsets),*];
        #[doc = "Relevant occupancy mask per square (bishop)."]
        pub const #bm: [u64; 64] = [#(#bishop_masks),*];
        #[doc = "Start of each square's block in the attack table (bishop)."]
        pub const #bo: [u32; 64] = [#(#bishop_offsets),*];
        #[doc = "Rook blocks then bishop blocks, one attack set per index."]
        pub static #att: [u64; #len] = [#(#attacks),*];
        #extra
    }
}

/// The magic backend's tables: masks, magics, shifts, offsets, attacks.
pub fn magic_tables() -> TokenStream {
    let (rook, bishop) = layout(|slider, square, mask, occ| {
        let magic = slider.magics()[square];
        (occ.wrapping_mul(magic) >> (64 - mask.count_ones())) as usize
    });
    let shifts = |l: &Layout| {
        let s = l
            .masks
            .iter()
            .map(|m| Literal::u8_unsuffixed(64 - m.count_ones() as u8));
        quote!([#(#s),*])
    };
    let (rs, bs) = (shifts(&rook), shifts(&bishop));
    let rook_magics = ROOK_MAGICS.iter().map(|&m| hex(m));
    let bishop_magics = BISHOP_MAGICS.iter().map(|&m| hex(m));
    let extra = quote! {
        #[doc = "Rook magic numbers (from codegen's data, verified at build time)."]
        pub const MAGIC_ROOK_NUMBERS: [u64; 64] = [#(#rook_magics),*];
        #[doc = "Bishop magic numbers (from codegen's data, verified at build time)."]
        pub const MAGIC_BISHOP_NUMBERS: [u64; 64] = [#(#bishop_magics),*];
        #[doc = "Right shift per square: 64 minus the relevant bits (rook)."]
        pub const MAGIC_ROOK_SHIFTS: [u8; 64] = #rs;
        #[doc = "Right shift per square: 64 minus the relevant bits (bishop)."]
        pub const MAGIC_BISHOP_SHIFTS: [u8; 64] = #bs;
    };
    emit_layout("MAGIC", &rook, &bishop, extra)
}

/// The PEXT backend's tables: masks, offsets, attacks indexed by PEXT.
pub fn pext_tables() -> TokenStream {
    let (rook, bishop) = layout(|_, _, mask, occ| pext(occ, mask) as usize);
    emit_layout("PEXT", &rook, &bishop, TokenStream::new())
}

/// Index bits of the plain (fixed-shift) magic tables: every rook square
/// gets 2^12 entries and every bishop square 2^9, the most any square needs.
pub const PLAIN_BITS: [u32; 2] = [12, 9];

/// The plain magic backend's tables: one full-size block per square,
/// `[[u64; 4096]; 64]` for rooks and `[[u64; 512]; 64]` for bishops
/// (2.25 MiB in all), indexed with a fixed shift. It reuses the fancy magic
/// numbers: taking more of the product's top bits only splits indices
/// further, so a magic free of collisions at `n` bits is free of them at 12
/// (checked here anyway: a collision fails the build).
pub fn plain_magic_tables() -> TokenStream {
    let mut parts = Vec::new();
    for (slider, bits, name) in [
        (Slider::Rook, PLAIN_BITS[0], "ROOK"),
        (Slider::Bishop, PLAIN_BITS[1], "BISHOP"),
    ] {
        let mut masks = Vec::new();
        let rows = (0..64).map(|square| {
            let (mask, pairs) = occupancies(slider, square);
            masks.push(mask);
            let table = fill(slider.magics()[square], bits, &pairs).unwrap_or_else(|| {
                panic!("{slider:?} magic for square {square} collides at {bits} bits")
            });
            let items = table.into_iter().map(hex);
            quote!([#(#items),*])
        });
        let rows: Vec<_> = rows.collect();
        let magics = slider.magics().iter().map(|&m| hex(m));
        let masks = masks.into_iter().map(hex);
        let size = Literal::usize_unsuffixed(1 << bits);
        let shift = Literal::u32_unsuffixed(64 - bits);
        let (t, m, n, s) = (
            quote::format_ident!("PLAIN_{}_ATTACKS", name),
            quote::format_ident!("PLAIN_{}_MASKS", name),
            quote::format_ident!("PLAIN_{}_NUMBERS", name),
            quote::format_ident!("PLAIN_{}_SHIFT", name),
        );
        parts.push(quote! {
            #[doc = "Plain magic: one full-size block of attack sets per square, indexed by `[square][index]`."]
            pub static #t: [[u64; #size]; 64] = [#(#rows),*];
            #[doc = "Plain magic: relevant occupancy mask per square."]
            pub const #m: [u64; 64] = [#(#masks),*];
            #[doc = "Plain magic: the magic numbers (the fancy backend's, verified at the fixed width)."]
            pub const #n: [u64; 64] = [#(#magics),*];
            #[doc = "Plain magic: the fixed right shift (64 minus the index bits)."]
            pub const #s: u32 = #shift;
        });
    }
    quote!(#(#parts)*)
}
