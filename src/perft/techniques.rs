//! Perft with every compiled sliding-attack technique, from one build.
//!
//! The library's generator uses one technique, chosen by Cargo feature
//! ([`crate::sliders::Active`]). The lab asks a different question (which
//! technique is fastest *inside* this generator, on this CPU), and one
//! build per technique made every added technique cost another cargo
//! build. So the legal generator and its perft are generic over the
//! technique ([`LegalWith`]), and this table instantiates them for every
//! technique the build compiles (all of them with `all-sliders`), each
//! behind one function pointer called once per perft: the hot loops are
//! monomorphised per technique exactly as the feature build's are.
//!
//! ```
//! use quince::{Position, perft::techniques};
//! let pos = Position::startpos();
//! for technique in techniques::TECHNIQUES {
//!     assert_eq!((technique.bulk)(&pos, 3), 8902, "{}", technique.name);
//! }
//! ```

use super::strategy::{CopyMake, LegalWith, Strategy};
use crate::position::Position;
use crate::sliders::Slider;

/// One compiled technique's perft entry points.
#[derive(Clone, Copy, Debug)]
pub struct Technique {
    /// The technique's feature name (`Slider::NAME`).
    pub name: &'static str,
    /// Bulk perft (legal generation, copy-make), as [`crate::perft::perft`].
    pub bulk: fn(&Position, u32) -> u64,
    /// Full-make perft, as [`crate::perft::perft_full`].
    pub full: fn(&Position, u32) -> u64,
}

fn bulk<A: Slider>(pos: &Position, depth: u32) -> u64 {
    LegalWith::<A>::perft::<CopyMake>(&mut pos.clone(), depth)
}

fn full<A: Slider>(pos: &Position, depth: u32) -> u64 {
    LegalWith::<A>::perft_full::<CopyMake>(&mut pos.clone(), depth)
}

macro_rules! technique_table {
    ($($name:literal => $module:ident :: $ty:ident,)*) => {
        /// Every technique compiled into this build, in the order of
        /// `sliders::every_technique!`.
        pub const TECHNIQUES: &[Technique] = &[
            $(
                #[cfg(quince_compiled = $name)]
                Technique {
                    name: $name,
                    bulk: bulk::<crate::sliders::$ty>,
                    full: full::<crate::sliders::$ty>,
                },
            )*
        ];
    };
}

crate::sliders::every_technique!(technique_table);

/// The compiled technique named `name`, if any.
pub fn find(name: &str) -> Option<&'static Technique> {
    TECHNIQUES.iter().find(|t| t.name == name)
}
