//! Build-time generator of Quince's lookup tables.
//!
//! `build.rs` calls [`emit`] and writes the result to `OUT_DIR/tables.rs`, which
//! `quince::tables` `include!`s. Everything here is pure geometry on `u64`
//! masks (see [`geometry`]): no engine types, so the tables can be checked
//! against independent references in the engine's own tests.

pub mod black_magics;
pub mod bob_mike;
pub mod exploding;
pub mod folding;
pub mod galois_field;
pub mod genetic_obstruction;
pub mod geometry;
pub mod hidden_layer;
pub mod hypercube;
pub mod kindergarten;
pub mod kindergarten_super_sissy;
pub mod leorik;
pub mod magics;
pub mod network;
pub mod pext_pdep;
pub mod polyglot;
pub mod rays;
pub mod rotated;
pub mod sissy;
pub mod slide_arithmetic;
pub mod spectral_magics;
pub mod split_pext;
pub mod techniques;

use geometry::*;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

/// Seed of the Zobrist keys: fixed, so that keys (and any stored hash) are
/// identical across builds and machines.
pub const ZOBRIST_SEED: u64 = 0x5155_494E_4345_2021; // "QUINCE !"

pub(crate) fn hex(value: u64) -> Literal {
    format!("0x{value:016x}").parse().expect("a hex literal")
}

pub(crate) fn array_u64(values: impl IntoIterator<Item = u64>) -> TokenStream {
    let items = values.into_iter().map(hex);
    quote!([#(#items),*])
}

fn table_64(name: &str, doc: &str, f: impl Fn(usize) -> u64) -> TokenStream {
    let ident = format_ident!("{}", name);
    let values = array_u64((0..64).map(f));
    quote! {
        #[doc = #doc]
        pub const #ident: [u64; 64] = #values;
    }
}

fn table_64x64(name: &str, doc: &str, f: impl Fn(usize, usize) -> u64) -> TokenStream {
    let ident = format_ident!("{}", name);
    let rows = (0..64).map(|a| array_u64((0..64).map(|b| f(a, b))));
    quote! {
        #[doc = #doc]
        pub static #ident: [[u64; 64]; 64] = [#(#rows),*];
    }
}

/// Leaper attacks, line masks, between/line tables and the rank lookup of
/// hyperbola quintessence.
fn geometry_tables() -> TokenStream {
    let knight = table_64(
        "KNIGHT_ATTACKS",
        "Squares a knight attacks from each square.",
        |s| leaper(s, &KNIGHT_STEPS),
    );
    let king = table_64(
        "KING_ATTACKS",
        "Squares a king attacks from each square.",
        |s| leaper(s, &KING_STEPS),
    );
    let white_pawn = array_u64((0..64).map(|s| pawn_attacks(0, s)));
    let black_pawn = array_u64((0..64).map(|s| pawn_attacks(1, s)));
    let rank = table_64(
        "RANK_MASKS",
        "The rank through each square, without the square.",
        rank_mask,
    );
    let file = table_64(
        "FILE_MASKS",
        "The file through each square, without the square.",
        file_mask,
    );
    let diagonal = table_64(
        "DIAGONAL_MASKS",
        "The a1-h8 diagonal through each square, without the square.",
        diagonal_mask,
    );
    let anti_diagonal = table_64(
        "ANTI_DIAGONAL_MASKS",
        "The h1-a8 anti-diagonal through each square, without the square.",
        anti_diagonal_mask,
    );
    let rook_rays = table_64(
        "ROOK_RAYS",
        "Rook attacks on an empty board: the rank and file through each square, without it.",
        |s| rank_mask(s) | file_mask(s),
    );
    let bishop_rays = table_64(
        "BISHOP_RAYS",
        "Bishop attacks on an empty board: both diagonals through each square, without it.",
        |s| diagonal_mask(s) | anti_diagonal_mask(s),
    );
    let between = table_64x64(
        "BETWEEN",
        "Squares strictly between two squares on a shared line (empty if none).",
        between,
    );
    let line = table_64x64(
        "LINE",
        "The full line through two squares, edge to edge (empty if none).",
        line,
    );
    // Rank attacks indexed by [file][inner six occupancy bits]: the two edge
    // squares never block anything beyond themselves.
    let rank_rows = (0..8).map(|file| {
        let items =
            (0..64).map(|inner: u8| Literal::u8_unsuffixed(rank_attacks_8(file, inner << 1)));
        quote!([#(#items),*])
    });
    // Indexed by the king's square (not file) so a lookup needs no shift.
    let castling_table = |f: fn(usize, usize) -> u64| {
        let rows = (0..64).map(move |king: usize| {
            let (file, rank) = (king % 8, king / 8);
            array_u64((0..8).map(move |rook| f(file, rook) << (8 * rank)))
        });
        quote!([#(#rows),*])
    };
    let castling_rows = castling_table(castling_empty);
    let castling_king_rows = castling_table(castling_king_path);
    quote! {
        #knight
        #king
        #[doc = "Squares a pawn attacks, indexed by `[color][square]` (white = 0)."]
        pub const PAWN_ATTACKS: [[u64; 64]; 2] = [#white_pawn, #black_pawn];
        #rank
        #file
        #diagonal
        #anti_diagonal
        #rook_rays
        #bishop_rays
        #between
        #line
        #[doc = "Rook attacks along one rank, indexed by `[file][(rank occupancy >> 1) & 63]`, as a bit set of files."]
        pub const RANK_ATTACKS: [[u8; 64]; 8] = [#(#rank_rows),*];
        #[doc = "The squares that must be empty to castle, indexed by `[king square][rook file]` (rook on the king's rank): both paths (crossed and destination squares) without the king's and the rook's own squares; zero when the files are equal."]
        pub static CASTLING_EMPTY: [[u64; 8]; 64] = #castling_rows;
        #[doc = "The squares a castling king crosses and lands on (which must not be attacked), indexed by `[king square][rook file]` like `CASTLING_EMPTY`."]
        pub static CASTLING_KING_PATH: [[u64; 8]; 64] = #castling_king_rows;
    }
}

/// Zobrist keys from [`ZOBRIST_SEED`].
fn zobrist_tables() -> TokenStream {
    let mut rng = SplitMix64(ZOBRIST_SEED);
    let pieces = (0..12).map(|_| array_u64((0..64).map(|_| rng.next_u64())).clone());
    let pieces: Vec<_> = pieces.collect();
    let castling_keys: Vec<u64> = (0..16).map(|_| rng.next_u64()).collect();
    let castling = array_u64(castling_keys.iter().copied());
    // Every set of rights on one back rank, keyed by the rank's byte of the
    // rights bitboard: the XOR of the keys of its rooks.
    let castling_sets = (0..2).map(|color| {
        array_u64((0..256usize).map(|set| {
            (0..8)
                .filter(|file| set >> file & 1 == 1)
                .fold(0, |key, file| key ^ castling_keys[color * 8 + file])
        }))
    });
    let en_passant = array_u64((0..8).map(|_| rng.next_u64()));
    let side = hex(rng.next_u64());
    quote! {
        #[doc = "Zobrist keys per `[color * 6 + piece][square]`."]
        pub static ZOBRIST_PIECES: [[u64; 64]; 12] = [#(#pieces),*];
        #[doc = "Zobrist keys per castling rook, indexed by `color * 8 + rook file`."]
        pub const ZOBRIST_CASTLING: [u64; 16] = #castling;
        #[doc = "The combined castling key of every set of rights on one back rank, indexed by `[color][rank byte of the rights bitboard]`."]
        pub static ZOBRIST_CASTLING_SETS: [[u64; 256]; 2] = [#(#castling_sets),*];
        #[doc = "Zobrist keys per e.p. file (hashed only when a capture there is possible)."]
        pub const ZOBRIST_EN_PASSANT: [u64; 8] = #en_passant;
        #[doc = "Zobrist key XORed in when Black is to move."]
        pub const ZOBRIST_BLACK_TO_MOVE: u64 = #side;
    }
}

/// Which optional tables to emit: the magic-style slider tables are large
/// (0.7-2.3 MiB each), so only the compiled backends' tables are generated.
/// The small ones (rays, kindergarten, rotated, slide arithmetic, Leorik,
/// genetic obstruction: 1-8 KiB each) always are.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    pub magic: bool,
    pub pext: bool,
    /// The u16 PEXT/PDEP tables (212 KiB).
    pub pext_pdep: bool,
    /// The split-PEXT line tables (128 KiB).
    pub split_pext: bool,
    /// The SISSY queen table (1 MiB).
    pub sissy: bool,
    /// The kindergarten super SISSY per-square tables (128 KiB).
    pub kindergarten_super_sissy: bool,
    pub plain_magic: bool,
    pub black_magic: bool,
    /// HyperCube's deltas, and the PEXT attack table it shares.
    pub hypercube: bool,
    /// The folding hash's packed line table (64 KiB, and a search).
    pub folding_hash: bool,
    /// Spectral magic's shared table (2.1 MiB).
    pub spectral_magic: bool,
}

/// All generated tables as token streams (unformatted).
pub fn tokens(options: Options) -> TokenStream {
    let geometry = geometry_tables();
    let zobrist = zobrist_tables();
    // The data file is committed and checked by codegen's own tests.
    let polyglot = polyglot::tables().unwrap_or_else(|message| panic!("{message}"));
    let rays = rays::tables();
    let kindergarten = kindergarten::tables();
    let rotated = rotated::tables();
    let slide_arithmetic = slide_arithmetic::tables();
    let leorik = leorik::tables();
    let genetic_obstruction = genetic_obstruction::tables();
    let galois_field = galois_field::tables();
    let bob_mike = bob_mike::tables();
    let magic = options.magic.then(magics::magic_tables);
    let pext = (options.pext || options.hypercube).then(magics::pext_tables);
    let hypercube = options.hypercube.then(hypercube::tables);
    let pext_pdep = options.pext_pdep.then(pext_pdep::tables);
    let split_pext = options.split_pext.then(split_pext::tables);
    let sissy = options.sissy.then(sissy::tables);
    let kgssb = options
        .kindergarten_super_sissy
        .then(kindergarten_super_sissy::tables);
    let plain = options.plain_magic.then(magics::plain_magic_tables);
    let black = options.black_magic.then(black_magics::tables);
    let exploding = exploding::tables();
    let folding = options.folding_hash.then(folding::tables);
    let spectral = options.spectral_magic.then(spectral_magics::tables);
    let sliders = quote!(
        #rays #kindergarten #rotated #slide_arithmetic #leorik #genetic_obstruction
        #galois_field #bob_mike #exploding
        #magic #pext #hypercube #pext_pdep #split_pext #sissy #kgssb #plain #black
        #folding #spectral
    );
    quote! {
        #geometry
        #zobrist
        #polyglot
        #sliders
    }
}

/// The generated Rust source, formatted with prettyplease so a person can read it.
pub fn emit(options: Options) -> String {
    let file: syn::File =
        syn::parse2(tokens(options)).expect("generated tokens parse as a Rust file");
    let header =
        "// @generated by quince-codegen (build.rs). Do not edit: change codegen/ instead.\n\n";
    format!("{header}{}", prettyplease::unparse(&file))
}
