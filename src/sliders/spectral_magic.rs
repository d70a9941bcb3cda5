//! Spectral magic bitboards (Daniel Inführ, talkchess topic 79005,
//! <https://www.talkchess.com/forum3/viewtopic.php?f=7&t=79005&start=160>;
//! "Spectral Magic Switched" in Gigantua's Chess_Movegen): a black-magic
//! style index whose magic has only three set bits, so the hash is three
//! left shifts and two additions instead of a multiplication.
//!
//! As with black magics the occupancy is OR-ed with the *complement* of
//! the relevant mask: the irrelevant bits are all set, so a square's
//! products vary only through its relevant squares and its indices crowd
//! into part of the range. Eighteen index bits (`>> 46`) leave room for
//! three-bit magics to separate every occupancy that matters; the squares'
//! sparse blocks then share one table at small offsets. The shifts and
//! offsets are the published set, checked at build time: `codegen` places
//! every occupancy of every square and fails the build on a conflict
//! (`codegen/src/spectral_magics.rs`).
//!
//! Tables: 274,645 entries (2.1 MiB) plus 2 KiB of per-square entries:
//! L3 (beyond a 1-2 MiB L2). The emitted array is longer, 327,679 entries,
//! padded with zeros that no index reaches (below). Instructions: none
//! special (shifts and adds; no multiply at all).
//!
//! Why per-square entries and the padding: with the masks, shifts and
//! offsets in six arrays and a bounds check on every read, a grouped
//! queen lookup ran 43.5 instructions where the reference's own code in
//! the same inputs ran 31.6 (callgrind;
//! `reports/data/atlas-intel-emerald-rapids-family-6-model-207-2026-11-30-8ecb2febb426.json`).
//! One 16-byte entry per square and piece (mask, offset, shifts) is one
//! base for all of them, and 16-bit offsets into a table padded to every
//! offset plus eighteen hash bits let the compiler drop the check. What
//! it bought, counted with callgrind on builds before and after
//! (`-C target-cpu=x86-64-v3`, release): 35.4 instructions per grouped
//! lookup (35.0 one at a time, from 44.0), and bulk perft(5) of Kiwipete
//! with this technique 1.154 to 1.085 billion instructions (6 % fewer).
//! The rest of the gap is the reference's switch: its shifts are
//! immediates in code, where these are loaded from the entry.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Spectral magic bitboards: a three-shift hash into one overlapping table.
pub struct SpectralMagic;

/// One square's hash for one piece kind, read from one 16-byte slot.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Line {
    not_mask: u64,
    offset: u16,
    shifts: [u8; 3],
}

/// Every square's rook and bishop hashes side by side (32 bytes), cut from
/// the generated tables at compile time.
static ENTRIES: [[Line; 2]; 64] = {
    let empty = Line {
        not_mask: 0,
        offset: 0,
        shifts: [0; 3],
    };
    let mut out = [[empty; 2]; 64];
    let mut s = 0;
    while s < 64 {
        out[s] = [
            Line {
                not_mask: g::SPECTRAL_ROOK_NOT_MASKS[s],
                offset: g::SPECTRAL_ROOK_OFFSETS[s],
                shifts: g::SPECTRAL_ROOK_SHIFTS[s],
            },
            Line {
                not_mask: g::SPECTRAL_BISHOP_NOT_MASKS[s],
                offset: g::SPECTRAL_BISHOP_OFFSETS[s],
                shifts: g::SPECTRAL_BISHOP_SHIFTS[s],
            },
        ];
        s += 1;
    }
    out
};
const ROOK: usize = 0;
const BISHOP: usize = 1;

#[inline(always)]
fn lookup(occupied: u64, line: &Line) -> Bitboard {
    let (m, shifts) = (occupied | line.not_mask, line.shifts);
    // Shift amounts are below 64 (checked by codegen's use of them), and
    // `& 63` lets the compiler emit plain shifts.
    let hash = (m << (shifts[0] & 63))
        .wrapping_add(m << (shifts[1] & 63))
        .wrapping_add(m << (shifts[2] & 63));
    // In bounds by the types: a 16-bit offset plus an 18-bit hash is below
    // the padded table's length, so no check is compiled.
    Bitboard(g::SPECTRAL_ATTACKS[usize::from(line.offset) + (hash >> 46) as usize])
}

impl Slider for SpectralMagic {
    const NAME: &'static str = "spectral-magic";
    /// The entries indices reach, not the padding past them (see the
    /// header).
    const TABLE_BYTES: usize =
        g::SPECTRAL_ATTACKS_USED * size_of::<u64>() + size_of_val(&ENTRIES);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        lookup(occupied.0, &ENTRIES[square.index()][ROOK])
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        lookup(occupied.0, &ENTRIES[square.index()][BISHOP])
    }
}
