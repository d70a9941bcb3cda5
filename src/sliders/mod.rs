//! Sliding-piece attacks: one trait, one file per backend.
//!
//! | backend | feature | idea |
//! | --- | --- | --- |
//! | [`Hq`] | `hq` | hyperbola quintessence: `o - 2s` subtraction on a line, byte-swapped for the reverse direction; ranks by lookup; a bishop's two diagonals in one SSE register (SSSE3) |
//! | `Magic` | `magic` | fancy magic bitboards: multiply the relevant occupancy by a magic number, shift, look up |
//! | `Pext` | `pext` | BMI2 `PEXT` gathers the relevant occupancy bits into a dense index |
//!
//! Move generation calls [`Active`], chosen at compile time with the priority
//! **pext > magic > hq** when several features are enabled (so
//! `--features pext` works even with the default `hq` on). [`ACTIVE`] names it.
//! Every compiled backend stays callable by name, so benches can compare them
//! side by side in one binary.

mod hq;
#[cfg(feature = "magic")]
mod magic;
#[cfg(feature = "pext")]
mod pext;

pub use hq::Hq;
#[cfg(feature = "magic")]
pub use magic::Magic;
#[cfg(feature = "pext")]
pub use pext::Pext;

use crate::types::{Bitboard, Square};

/// A way to compute rook and bishop attacks on a given occupancy.
pub trait Slider {
    /// The backend's name as printed in perft output and JSON (`slider`).
    const NAME: &'static str;

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

/// The backend move generation uses (pext > magic > hq).
#[cfg(feature = "pext")]
pub type Active = Pext;
/// The backend move generation uses (pext > magic > hq).
#[cfg(all(feature = "magic", not(feature = "pext")))]
pub type Active = Magic;
/// The backend move generation uses (pext > magic > hq).
#[cfg(not(any(feature = "magic", feature = "pext")))]
pub type Active = Hq;

/// The name of the active backend: `"hq"`, `"magic"` or `"pext"`.
pub const ACTIVE: &str = Active::NAME;

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

    fn check<S: Slider>() {
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
                    S::rook(square, occ),
                    walk(square, occ, &rook_dirs),
                    "{} rook {square}",
                    S::NAME
                );
                assert_eq!(
                    S::bishop(square, occ),
                    walk(square, occ, &bishop_dirs),
                    "{} bishop {square}",
                    S::NAME
                );
            }
        }
    }

    #[test]
    fn hq_matches_ray_walker() {
        check::<Hq>();
    }

    #[cfg(feature = "magic")]
    #[test]
    fn magic_matches_ray_walker() {
        check::<Magic>();
    }

    #[cfg(feature = "pext")]
    #[test]
    fn pext_matches_ray_walker() {
        check::<Pext>();
    }
}
