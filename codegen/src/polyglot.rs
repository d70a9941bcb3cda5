//! The Polyglot opening-book keys: the 781 published "Random64" numbers of
//! the Polyglot book format (Fabien Letouzey), kept as data in
//! `codegen/data/polyglot_random64.txt` and emitted as Rust tables in the
//! engine's own indexing.
//!
//! Polyglot orders its numbers as 768 piece keys (`64 * kind + square`,
//! `kind = 2 * piece + 1` for White and `2 * piece` for Black, pieces pawn
//! to king), 4 castling keys (white short, white long, black short, black
//! long), 8 en-passant keys by file and one key for White to move. The
//! piece keys are re-indexed here to `[color * 6 + piece][square]` (White =
//! 0), the order of Quince's own Zobrist table.

use crate::array_u64;
use proc_macro2::TokenStream;
use quote::quote;

/// How many numbers the format defines.
pub const COUNT: usize = 781;

/// The data file, compiled into the generator.
const DATA: &str = include_str!("../data/polyglot_random64.txt");

/// Parses the data file: one hexadecimal number per line; blank lines and
/// lines starting with `#` are ignored. Exactly [`COUNT`] numbers.
pub fn parse(text: &str) -> Result<Vec<u64>, String> {
    let mut numbers = Vec::with_capacity(COUNT);
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let digits = line.trim_start_matches("0x");
        let number = u64::from_str_radix(digits, 16).map_err(|e| {
            format!(
                "polyglot_random64.txt line {}: '{line}' is not a 64-bit hex number ({e})",
                index + 1
            )
        })?;
        numbers.push(number);
    }
    if numbers.len() != COUNT {
        return Err(format!(
            "polyglot_random64.txt holds {} numbers; the Polyglot format has {COUNT}",
            numbers.len()
        ));
    }
    Ok(numbers)
}

/// The committed numbers, parsed.
pub fn numbers() -> Result<Vec<u64>, String> {
    parse(DATA)
}

/// The Polyglot key tables as Rust source.
pub fn tables() -> Result<TokenStream, String> {
    let random = numbers()?;
    let pieces = (0..12).map(|index| {
        let (color, piece) = (index / 6, index % 6);
        let kind = 2 * piece + usize::from(color == 0);
        array_u64(random[64 * kind..64 * kind + 64].iter().copied())
    });
    let castling = array_u64(random[768..772].iter().copied());
    let en_passant = array_u64(random[772..780].iter().copied());
    let white = crate::hex(random[780]);
    Ok(quote! {
        #[doc = "Polyglot piece keys per `[color * 6 + piece][square]` (White = 0, pawn = 0): Polyglot's Random64 numbers 0..768, re-indexed."]
        pub static POLYGLOT_PIECES: [[u64; 64]; 12] = [#(#pieces),*];
        #[doc = "Polyglot castling keys: white short, white long, black short, black long (Random64 768..772)."]
        pub const POLYGLOT_CASTLING: [u64; 4] = #castling;
        #[doc = "Polyglot en-passant keys by file a..h (Random64 772..780)."]
        pub const POLYGLOT_EN_PASSANT: [u64; 8] = #en_passant;
        #[doc = "Polyglot key XORed in when White is to move (Random64 780)."]
        pub const POLYGLOT_WHITE_TO_MOVE: u64 = #white;
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_data_parses() {
        let numbers = numbers().unwrap();
        assert_eq!(numbers[0], 0x9d39_247e_3377_6d41);
        assert_eq!(numbers[780], 0xf8d6_26aa_af27_8509);
    }

    #[test]
    fn bad_data_is_an_error() {
        assert!(
            parse("# nothing\n")
                .unwrap_err()
                .contains("holds 0 numbers")
        );
        assert!(parse("xyz\n").unwrap_err().contains("line 1"));
    }
}
