//! Spectral magic bitboards: a black-magic style index (`occupied |
//! !mask`, a fixed shift, blocks overlapping in one table) whose magic has
//! only three set bits, so the hash is three left shifts and two adds, no
//! multiply: `((m << a) + (m << b) + (m << c)) >> 46`, eighteen index bits.
//!
//! The shifts and offsets are Daniel Inführ's published set
//! (`spectral_magic_numbers.rs`); [`verify`] places every occupancy of
//! every square at its offset and fails the build on any conflict, and
//! [`tables`] emits the filled table (2.1 MiB: only when the backend is
//! compiled).

use crate::array_u64;
use crate::geometry::{BISHOP_DIRECTIONS, ROOK_DIRECTIONS, relevant_mask, slider_attacks, subset};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

include!("spectral_magic_numbers.rs");

/// The fixed right shift: 64 minus eighteen index bits.
pub const SHIFT: u32 = 46;

/// The index of `occupied` for a square with relevant `mask` and `shifts`.
pub const fn index(occupied: u64, mask: u64, shifts: [u8; 3]) -> usize {
    let m = occupied | !mask;
    ((m << shifts[0])
        .wrapping_add(m << shifts[1])
        .wrapping_add(m << shifts[2])
        >> SHIFT) as usize
}

/// The filled shared table, or a message naming the first conflict.
fn fill() -> Result<Vec<u64>, String> {
    let mut table: Vec<Option<u64>> = vec![None; TABLE_LEN];
    for (name, dirs, shifts, offsets) in [
        ("rook", &ROOK_DIRECTIONS, &ROOK_SHIFTS, &ROOK_OFFSETS),
        (
            "bishop",
            &BISHOP_DIRECTIONS,
            &BISHOP_SHIFTS,
            &BISHOP_OFFSETS,
        ),
    ] {
        for square in 0..64 {
            let mask = relevant_mask(square, dirs);
            for i in 0..1usize << mask.count_ones() {
                let occ = subset(mask, i);
                let attacks = slider_attacks(square, occ, dirs);
                let at = offsets[square] as usize + index(occ, mask, shifts[square]);
                let slot = table.get_mut(at).ok_or(format!(
                    "spectral magic: {name} square {square} reads past the table"
                ))?;
                match *slot {
                    Some(a) if a != attacks => {
                        return Err(format!(
                            "spectral magic: {name} square {square} collides at entry {at}"
                        ));
                    }
                    _ => *slot = Some(attacks),
                }
            }
        }
    }
    Ok(table.into_iter().map(|a| a.unwrap_or(0)).collect())
}

/// Checks the published shifts and offsets (see the module docs).
pub fn verify() -> Result<(), String> {
    fill().map(|_| ())
}

/// The emitted table's length: every index a 16-bit offset plus eighteen
/// hash bits can form. Why pad past [`TABLE_LEN`]: with the offsets
/// `u16` and this length, the compiler proves every read in bounds and
/// drops the check (two instructions a line); the padding is zeros no
/// index reaches, left out of the backend's stated table bytes.
pub const PADDED_LEN: usize = u16::MAX as usize + (1 << (64 - SHIFT));

/// `SPECTRAL_ATTACKS` (padded to [`PADDED_LEN`]), and per square the
/// complemented masks, shifts and offsets.
pub fn tables() -> TokenStream {
    let mut table = fill().unwrap_or_else(|message| panic!("{message}"));
    table.resize(PADDED_LEN, 0);
    let len = Literal::usize_unsuffixed(table.len());
    let used = Literal::usize_unsuffixed(TABLE_LEN);
    let attacks = array_u64(table);
    let not_masks = |dirs: &[(i32, i32)]| array_u64((0..64).map(|s| !relevant_mask(s, dirs)));
    let shifts = |rows: &[[u8; 3]; 64]| {
        let rows = rows.iter().map(|r| {
            let items = r.iter().map(|&s| Literal::u8_unsuffixed(s));
            quote!([#(#items),*])
        });
        quote!([#(#rows),*])
    };
    let offsets = |o: &[u32; 64]| {
        let items = o.iter().map(|&v| {
            let v = u16::try_from(v).expect("spectral magic: an offset beyond 16 bits");
            Literal::u16_unsuffixed(v)
        });
        quote!([#(#items),*])
    };
    let (rm, bm) = (not_masks(&ROOK_DIRECTIONS), not_masks(&BISHOP_DIRECTIONS));
    let (rs, bs) = (shifts(&ROOK_SHIFTS), shifts(&BISHOP_SHIFTS));
    let (ro, bo) = (offsets(&ROOK_OFFSETS), offsets(&BISHOP_OFFSETS));
    quote! {
        #[doc = "Spectral magic: the shared attack table (blocks overlap), padded with zeros that no index reaches to every 16-bit offset plus 18-bit hash."]
        pub static SPECTRAL_ATTACKS: [u64; #len] = #attacks;
        #[doc = "Spectral magic: the entries of `SPECTRAL_ATTACKS` that indices reach (the rest is padding)."]
        pub const SPECTRAL_ATTACKS_USED: usize = #used;
        #[doc = "Spectral magic: complement of the rook's relevant mask, by square."]
        pub const SPECTRAL_ROOK_NOT_MASKS: [u64; 64] = #rm;
        #[doc = "Spectral magic: complement of the bishop's relevant mask, by square."]
        pub const SPECTRAL_BISHOP_NOT_MASKS: [u64; 64] = #bm;
        #[doc = "Spectral magic: the rook's three left shifts, by square."]
        pub const SPECTRAL_ROOK_SHIFTS: [[u8; 3]; 64] = #rs;
        #[doc = "Spectral magic: the bishop's three left shifts, by square."]
        pub const SPECTRAL_BISHOP_SHIFTS: [[u8; 3]; 64] = #bs;
        #[doc = "Spectral magic: the offset of each rook block in the table."]
        pub const SPECTRAL_ROOK_OFFSETS: [u16; 64] = #ro;
        #[doc = "Spectral magic: the offset of each bishop block in the table."]
        pub const SPECTRAL_BISHOP_OFFSETS: [u16; 64] = #bo;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn published_set_verifies() {
        super::verify().unwrap();
    }
}
