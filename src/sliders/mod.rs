//! Sliding-piece attacks: one trait, one file per technique.
//!
//! | backend (feature) | type | idea | tables |
//! | --- | --- | --- | --- |
//! | `hq` (default) | [`Hq`] | hyperbola quintessence: `o - 2s` on a line, byte-swapped for the other direction; ranks by lookup; both diagonals in one SSE register | 5 KiB |
//! | `magic` | `Magic` | fancy magic bitboards: `(occ & mask) * magic >> shift`, per-square blocks packed end to end | 844 KiB |
//! | `pext` | `Pext` | BMI2 `PEXT` gathers the relevant occupancy into a dense index (BMI2 targets only) | 843 KiB |
//! | `pext-emulated` | `PextEmulated` | the PEXT tables, indexed by a software PEXT (a loop over the mask's bits): no BMI2 needed | 843 KiB |
//! | `pext-pdep` | `PextPdep` | PEXT index into attack sets stored as `u16` on the square's rays, expanded by `PDEP` (BMI2 targets only) | 213 KiB |
//! | `split-pext` | `SplitPext` | one PEXT per file and diagonal into per-square 64-entry line tables, ranks by shift (BMI2 targets only) | 128 KiB |
//! | `sissy` | `Sissy` | SISSY: per square and rank byte, the queen's attacks with only that rank occupied; the AND of eight lookups | 1 MiB |
//! | `kindergarten-super-sissy` | `KindergartenSuperSissy` | kindergarten multiplies index per-square line tables that need no mask or shift | 129 KiB |
//! | `classical` | `Classical` | one ray per direction, cut at the first blocker found by a bit scan | 4 KiB |
//! | `obstruction` | `Obstruction` | obstruction difference: `upper ^ (upper - highest lower blocker)` per line | 4 KiB |
//! | `sbamg` | `Sbamg` | subtraction-based attack mask generation: `o ^ (o - 3cbn)`, one subtraction per line with the line's low end set | 2 KiB |
//! | `slide-arithmetic` | `SlideArithmetic` | per line, `blsmsk` of the blockers above XOR a shifted all-ones mask below the highest blocker below | 2 KiB |
//! | `leorik` | `Leorik` | Leorik's line masks: ranks and files by shifts, diagonals looked up, one below-mask shared by both lines | 1 KiB |
//! | `qbb` | `Qbb` | QBBEngine: edge sentinels make the first blocker each way a bit scan; two shifted lines cut the segment | none |
//! | `bitrotation` | `Bitrotation` | `(o - r) ^ rev(rev(o) - rev(r))` on four lines whose masks are computed from the square | none |
//! | `genetic-obstruction` | `GeneticObstruction` | machine-found obstruction difference: one 48-byte row per square, the slider's square cancelled by XOR | 3 KiB |
//! | `kindergarten` | `Kindergarten` | a multiply gathers a line's occupancy into 6 bits; small lookups | 9.5 KiB |
//! | `plain-magic` | `PlainMagic` | magic multiply with a fixed shift, one full-size block per square | 2.25 MiB |
//! | `black-magic` | `BlackMagic` | fixed-shift magics on the complemented mask, blocks overlapping in one table | 974 KiB |
//! | `exploding` | `Exploding` | exploding bitboards: one multiply moves a ring of attacked squares a step in all four directions; six rings | 3 KiB |
//! | `hypercube` | `HyperCube` | per-blocker index deltas summed into the PEXT-order index (rebuilt per call; the original keeps it incrementally) | 859 KiB |
//! | `folding-hash` | `FoldingHash` | per line: occupancy folded to 32 bits, a 32-bit multiply gives six index bits into one packed table | 68 KiB |
//! | `spectral-magic` | `SpectralMagic` | black-magic style index whose magic has three bits: three shifts and two adds, 18 index bits, blocks overlapping in one table | 2.1 MiB |
//! | `kogge-stone` | `KoggeStone` | parallel-prefix occluded fills, eight directions | none |
//! | `dumb7` | `Dumb7` | one-square-per-step fills, eight directions | none |
//! | `simd-fill` | `SimdFill` | Kogge-Stone with four directions in one AVX2 register (scalar lanes without AVX2) | none |
//! | `rotated` | `Rotated` | rotated-bitboard lookups on occupancies transposed and pseudo-rotated per call | 5.5 KiB |
//! | `hq-bitrev` | `HqBitrev` | hyperbola quintessence on all four lines with `reverse_bits` (no rank table) | 2 KiB |
//! | `galois-field` | `GaloisField` | hyperbola quintessence with GFNI bit reversal, both directions of two (queen: four) lines in one AVX-512/AVX2 register (AVX2, AVX-512F/BW, GFNI targets only) | 2 KiB |
//! | `avx512-fill` | `Avx512Fill` | Kogge-Stone by per-lane rotates: four directions in one AVX-512VL register, a queen's eight in one 512-bit register (AVX-512F/VL targets only) | none |
//! | `avx2-shift` | `Avx2Shift` | the slider's bit walks four rays one square per step, seven steps, in one AVX2 register (AVX2 targets only) | none |
//! | `switch` | `Switch` | a `match` on the square into straight-line per-square code testing each ray square's in-between mask | none |
//! | `bob-mike` | `BobMike` | classical rays indexed by bit scans directly (65-row tables, no sentinel), one XOR per piece | 5 KiB |
//!
//! Tables are each technique's [`Slider::TABLE_BYTES`] (attack tables,
//! masks, magics, offsets), as `quince lookups --list` prints them; each
//! file's header says who published the idea, where, and which
//! instructions it needs.
//!
//! **Instructions**: six techniques need target features, which `build.rs`
//! checks (the list is `codegen/src/techniques.rs`): `pext`, `pext-pdep` and `split-pext` need
//! BMI2; `galois-field` AVX2, AVX-512F/BW and GFNI; `avx512-fill`
//! AVX-512F/VL; `avx2-shift` AVX2. Build with
//! `RUSTFLAGS='-C target-cpu=native'` on a CPU that has them. The other
//! techniques run on any target (`simd-fill` uses AVX2 where the target
//! has it and scalar lanes otherwise).
//!
//! **Choosing one** (decided in `build.rs`, the one place): every backend
//! is a Cargo feature of the same name. `hq` is the default and yields to
//! any other backend feature, so `--features magic` selects magic with or
//! without `--no-default-features`; two non-default backends at once stop
//! the build with a `compile_error!` naming both. [`Active`] is the chosen
//! type and [`ACTIVE`] its name, printed in perft output and JSON
//! (`slider`).
//!
//! Only the chosen backend and `hq` (the reference and the default) are
//! compiled, so a build carries one backend's tables. The feature
//! `all-sliders` compiles every backend the target can run, without
//! changing [`Active`], so the benches, `quince perft --technique NAME` and
//! `quince lookups --technique NAME` compare them in one binary; the
//! compiled ones are listed in [`COMPILED`], the others, with the target
//! features they miss, in [`LEFT_OUT`]. Chosen alone on a target without
//! what it needs, a technique stops the build with a `compile_error!`
//! naming the missing features.

// The selection's verdict from build.rs: empty, or a `compile_error!`
// naming two conflicting backend features.
include!(concat!(env!("OUT_DIR"), "/slider_selection.rs"));

pub mod lookups;
#[allow(dead_code)] // only the fill backends use it
mod shifts;

/// The one list of techniques, in the order of the table above: feature
/// name, module (one file each), type. `$then` is a macro that receives
/// the list. Generic code that other crates time per technique (lookup
/// loops, perft) is instantiated here, into [`COMPILED`].
/// Adding a technique: its file, one line here, one in
/// `codegen/src/techniques.rs`, one feature in `Cargo.toml`.
macro_rules! every_technique {
    ($then:ident) => {
        $then! {
            "hq" => hq::Hq,
            "magic" => magic::Magic,
            "pext" => pext::Pext,
            "pext-emulated" => pext_emulated::PextEmulated,
            "pext-pdep" => pext_pdep::PextPdep,
            "split-pext" => split_pext::SplitPext,
            "sissy" => sissy::Sissy,
            "kindergarten-super-sissy" => kindergarten_super_sissy::KindergartenSuperSissy,
            "classical" => classical::Classical,
            "obstruction" => obstruction::Obstruction,
            "sbamg" => sbamg::Sbamg,
            "slide-arithmetic" => slide_arithmetic::SlideArithmetic,
            "leorik" => leorik::Leorik,
            "qbb" => qbb::Qbb,
            "bitrotation" => bitrotation::Bitrotation,
            "genetic-obstruction" => genetic_obstruction::GeneticObstruction,
            "kindergarten" => kindergarten::Kindergarten,
            "plain-magic" => plain_magic::PlainMagic,
            "black-magic" => black_magic::BlackMagic,
            "exploding" => exploding::Exploding,
            "hypercube" => hypercube::HyperCube,
            "folding-hash" => folding_hash::FoldingHash,
            "spectral-magic" => spectral_magic::SpectralMagic,
            "kogge-stone" => kogge_stone::KoggeStone,
            "dumb7" => dumb7::Dumb7,
            "simd-fill" => simd_fill::SimdFill,
            "rotated" => rotated::Rotated,
            "hq-bitrev" => hq_bitrev::HqBitrev,
            "galois-field" => galois_field::GaloisField,
            "avx512-fill" => avx512_fill::Avx512Fill,
            "avx2-shift" => avx2_shift::Avx2Shift,
            "switch" => switch::Switch,
            "bob-mike" => bob_mike::BobMike,
        }
    };
}

use crate::types::{Bitboard, Square};

/// A way to compute rook and bishop attacks on a given occupancy.
pub trait Slider {
    /// The backend's name as printed in perft output and JSON (`slider`).
    const NAME: &'static str;

    /// Bytes of the tables this backend reads (attack tables, masks,
    /// magics, offsets; 0 for the pure fills): what it asks of the caches.
    const TABLE_BYTES: usize;

    /// Squares a rook on `square` attacks with `occupied` blocking (first
    /// blocker included).
    fn rook(square: Square, occupied: Bitboard) -> Bitboard;

    /// Squares a bishop on `square` attacks with `occupied` blocking.
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard;

    /// Rook and bishop attacks together.
    #[inline]
    fn queen(square: Square, occupied: Bitboard) -> Bitboard {
        Self::rook(square, occupied) | Self::bishop(square, occupied)
    }
}

/// Declares each compiled technique's module, re-exports its type, and
/// declares [`Active`] for the selected backend and [`COMPILED`] for the
/// compiled ones, from [`every_technique!`]'s list.
macro_rules! declare_techniques {
    ($($name:literal => $module:ident :: $ty:ident,)*) => {
        $(
            #[cfg(quince_compiled = $name)]
            mod $module;
            #[cfg(quince_compiled = $name)]
            pub use $module::$ty;

            /// The backend move generation uses (see the module docs).
            #[cfg(quince_slider = $name)]
            pub type Active = $ty;
        )*

        /// Every compiled backend's name with its rook, bishop and queen
        /// functions and its isolated lookup loop (called through pointers:
        /// for tests and tools, not for speed).
        pub const COMPILED: &[Compiled] = &[
            $(
                #[cfg(quince_compiled = $name)]
                Compiled {
                    name: <$ty as Slider>::NAME,
                    table_bytes: <$ty as Slider>::TABLE_BYTES,
                    rook: <$ty as Slider>::rook,
                    bishop: <$ty as Slider>::bishop,
                    queen: <$ty as Slider>::queen,
                    queens: lookups::queens::<$ty>,
                    queens_one_at_a_time: lookups::queens_one_at_a_time::<$ty>,
                    queens_grouped: lookups::queens_grouped::<$ty>,
                },
            )*
        ];

        /// Every technique's feature name, compiled here or not (the
        /// build leaves out those whose target features are missing).
        pub const ALL_NAMES: &[&str] = &[$($name),*];
    };
}

every_technique!(declare_techniques);

/// The list, for other modules of the crate that instantiate generic code
/// per technique (perft's [`crate::perft::techniques`]).
pub(crate) use every_technique;

/// A compiled backend, callable by name (see [`COMPILED`]).
#[derive(Clone, Copy, Debug)]
pub struct Compiled {
    /// The backend's name ([`Slider::NAME`]).
    pub name: &'static str,
    /// Its table bytes ([`Slider::TABLE_BYTES`]).
    pub table_bytes: usize,
    /// Its rook attacks.
    pub rook: fn(Square, Bitboard) -> Bitboard,
    /// Its bishop attacks.
    pub bishop: fn(Square, Bitboard) -> Bitboard,
    /// Its queen attacks (its own where it overrides [`Slider::queen`]).
    pub queen: fn(Square, Bitboard) -> Bitboard,
    /// The isolated view: [`lookups::queens`] instantiated for it (one
    /// call through the pointer, the lookups inlined inside).
    pub queens: fn(&[(Square, Bitboard)], u64) -> u64,
    /// The same with lookups kept one at a time
    /// ([`lookups::queens_one_at_a_time`]).
    pub queens_one_at_a_time: fn(&[(Square, Bitboard)], u64) -> u64,
    /// Twelve lookups per occupancy ([`lookups::queens_grouped`]).
    pub queens_grouped: fn(&[lookups::Group], u64) -> u64,
}

/// The name of the active backend, e.g. `"hq"` or `"magic"`.
pub const ACTIVE: &str = Active::NAME;

/// Table bytes of the active backend ([`Slider::TABLE_BYTES`]).
pub const ACTIVE_TABLE_BYTES: usize = Active::TABLE_BYTES;

/// Rook attacks with the active backend.
#[inline]
pub fn rook_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    Active::rook(square, occupied)
}

/// Bishop attacks with the active backend.
#[inline]
pub fn bishop_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    Active::bishop(square, occupied)
}

#[cfg(test)]
mod tests {
    use super::*;
    use codegen_reference::*;

    /// An independent slow ray walker (not the build-time one).
    mod codegen_reference {
        use crate::types::{Bitboard, Square};
        pub fn walk(square: Square, occ: Bitboard, dirs: &[(i32, i32)]) -> Bitboard {
            let mut out = 0u64;
            for &(df, dr) in dirs {
                let (mut f, mut r) = (square.file().index() as i32, square.rank().index() as i32);
                loop {
                    f += df;
                    r += dr;
                    if !(0..8).contains(&f) || !(0..8).contains(&r) {
                        break;
                    }
                    let bit = 1u64 << (r * 8 + f);
                    out |= bit;
                    if occ.0 & bit != 0 {
                        break;
                    }
                }
            }
            Bitboard(out)
        }
    }

    fn check(backend: &Compiled) {
        let rook_dirs = [(0, 1), (1, 0), (0, -1), (-1, 0)];
        let bishop_dirs = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
        let mut state = 0x1234_5678_9ABC_DEF1u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut occupancies = vec![0, !0, 0xFF00_0000_0000_00FF, 0x8100_0000_0000_0081];
        for _ in 0..2000 {
            occupancies.push(next() & next()); // sparse
            occupancies.push(next()); // dense
        }
        for square in Square::all() {
            for &occ in &occupancies {
                let occ = Bitboard(occ);
                assert_eq!(
                    (backend.rook)(square, occ),
                    walk(square, occ, &rook_dirs),
                    "{} rook {square} {occ:?}",
                    backend.name
                );
                assert_eq!(
                    (backend.bishop)(square, occ),
                    walk(square, occ, &bishop_dirs),
                    "{} bishop {square} {occ:?}",
                    backend.name
                );
                assert_eq!(
                    (backend.queen)(square, occ),
                    walk(square, occ, &rook_dirs) | walk(square, occ, &bishop_dirs),
                    "{} queen {square} {occ:?}",
                    backend.name
                );
            }
        }
    }

    /// Every compiled backend (the active one and `hq` at least; all of
    /// them with `all-sliders`) against the ray walker: rook, bishop, and
    /// queen (which some techniques compute in one wider register).
    #[test]
    fn every_compiled_backend_matches_ray_walker() {
        assert!(COMPILED.iter().any(|b| b.name == ACTIVE));
        assert!(COMPILED.iter().any(|b| b.name == "hq"));
        for backend in COMPILED {
            check(backend);
        }
    }

    /// `all-sliders` compiles every technique the target can run, and
    /// [`LEFT_OUT`] names the others.
    #[cfg(feature = "all-sliders")]
    #[test]
    fn all_sliders_compiles_every_backend() {
        let names: Vec<_> = COMPILED.iter().map(|b| b.name).collect();
        for name in ALL_NAMES {
            let left_out = LEFT_OUT.iter().any(|(n, _)| n == name);
            assert_ne!(names.contains(name), left_out, "{name}: {names:?}");
        }
        assert_eq!(names.len() + LEFT_OUT.len(), ALL_NAMES.len());
        if cfg!(target_feature = "bmi2") {
            assert!(names.contains(&"pext"));
        }
    }

    /// The trait's generic path (what move generation calls) agrees with
    /// the pointers in `COMPILED` for the active backend.
    #[test]
    fn active_backend_is_the_selected_one() {
        let active = COMPILED.iter().find(|b| b.name == ACTIVE).unwrap();
        let occ = Bitboard(0x0042_0000_1800_2400);
        for square in Square::all() {
            assert_eq!(rook_attacks(square, occ), (active.rook)(square, occ));
            assert_eq!(bishop_attacks(square, occ), (active.bishop)(square, occ));
        }
    }
}
