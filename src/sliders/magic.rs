//! Fancy magic bitboards: `((occupied & mask) * magic) >> shift` is a
//! collision-free index into the square's block of a shared attack table.
//! Magics, masks, shifts and the table are generated at build time
//! (`codegen/src/magics.rs`); the magic numbers are verified there.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Fancy magic bitboards (841 KiB table shared by rooks and bishops).
pub struct Magic;

/// Every square's block of [`g::MAGIC_ATTACKS`] lies inside the table:
/// an index shifted right by `shift` is below `2^(64 - shift)`, and
/// `offset + 2^(64 - shift)` is at most the table's length. Checked when
/// the crate compiles, for [`lookup`]'s unchecked read.
const _: () = {
    let mut i = 0;
    while i < 64 {
        let rook_end =
            g::MAGIC_ROOK_OFFSETS[i] as usize + (1 << (64 - g::MAGIC_ROOK_SHIFTS[i] as u32));
        let bishop_end =
            g::MAGIC_BISHOP_OFFSETS[i] as usize + (1 << (64 - g::MAGIC_BISHOP_SHIFTS[i] as u32));
        assert!(rook_end <= g::MAGIC_ATTACKS.len() && bishop_end <= g::MAGIC_ATTACKS.len());
        i += 1;
    }
};

/// One square's magic for one slider, the four numbers a lookup reads
/// side by side in one 32-byte slot.
///
/// Why one slot: the generated tables keep masks, magics, shifts and
/// offsets in four arrays, so a lookup touched four cache lines for them
/// before the attack table; with them packed, it touches one. It bought
/// about a tenth more isolated lookups per second (`quince lookups
/// --technique magic`, one at a time and grouped, three runs of each
/// build alternating, AMD Zen 5); the same packing for black magic's
/// three arrays showed no gain beyond the runs' spread, so black magic
/// keeps them.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Entry {
    mask: u64,
    magic: u64,
    offset: u32,
    shift: u32,
}

/// The entries of one slider, built at compile time from the generated
/// arrays (no runtime initialisation).
const fn entries(masks: &[u64; 64], magics: &[u64; 64], shifts: &[u8; 64], offsets: &[u32; 64]) -> [Entry; 64] {
    let mut out = [Entry {
        mask: 0,
        magic: 0,
        offset: 0,
        shift: 0,
    }; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = Entry {
            mask: masks[i],
            magic: magics[i],
            offset: offsets[i],
            shift: shifts[i] as u32,
        };
        i += 1;
    }
    out
}

static ROOK: [Entry; 64] = entries(
    &g::MAGIC_ROOK_MASKS,
    &g::MAGIC_ROOK_NUMBERS,
    &g::MAGIC_ROOK_SHIFTS,
    &g::MAGIC_ROOK_OFFSETS,
);
static BISHOP: [Entry; 64] = entries(
    &g::MAGIC_BISHOP_MASKS,
    &g::MAGIC_BISHOP_NUMBERS,
    &g::MAGIC_BISHOP_SHIFTS,
    &g::MAGIC_BISHOP_OFFSETS,
);

/// The attack set for `occupied` in the block of [`g::MAGIC_ATTACKS`] that
/// `entry` names.
#[inline(always)]
fn lookup(occupied: Bitboard, entry: &Entry) -> Bitboard {
    let index =
        entry.offset as usize + ((occupied.0 & entry.mask).wrapping_mul(entry.magic) >> entry.shift) as usize;
    // SAFETY: the shifted product is below `2^(64 - shift)`, and the
    // constant check above proves every square's block of that size to be
    // within the table. Skipping the bounds check saves a compare and a
    // branch per lookup, measurably fewer instructions per node in bulk
    // perft (callgrind; `reports/archive/speed-2026-11-23-morning.md`).
    Bitboard(unsafe { *g::MAGIC_ATTACKS.get_unchecked(index) })
}

impl Slider for Magic {
    const NAME: &'static str = "magic";
    const TABLE_BYTES: usize =
        size_of_val(&g::MAGIC_ATTACKS) + size_of_val(&ROOK) + size_of_val(&BISHOP);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        lookup(occupied, &ROOK[square.index()])
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        lookup(occupied, &BISHOP[square.index()])
    }
}
