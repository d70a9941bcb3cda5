//! Fancy magic bitboards: `((occupied & mask) * magic) >> shift` is a
//! collision-free index into the square's block of a shared attack table.
//! Magics, masks, shifts and the table are generated at build time
//! (`codegen/src/magics.rs`); the magic numbers are verified there.
//!
//! Why its batch rate trails the reference's (the atlas's gap list, AMD
//! Zen 5: 0.45x in batch, about even one lookup at a time): in batch
//! mode LLVM vectorises `quince lookups`' loop into AVX-512 gathers and
//! `vpmullq` (in the `-C target-cpu=native` build, `objdump -d` of
//! `sliders::lookups::queens` for this technique: 40 `vpgatherqq` and 10
//! `vpmullq` per unrolled iteration), which on that CPU run at about half
//! the rate of the scalar lookups; the reference's clang leaves its magic
//! loop scalar (its default and its vectoriser-off builds measure the
//! same). The gap is the compiler's choice in the harness, not the
//! lookup: a move generator asks for lookups one at a time.
//!
//! Why it ran more instructions per grouped lookup than the reference's
//! own code in the same inputs (21.4 against 17.3 in the atlas records of
//! 2026-11-29/30): the listings (`objdump -d` of `queens_grouped` for this
//! technique and of the reference driver's loop) show the same lookup,
//! instruction for instruction (per slider: load the mask, AND, multiply
//! by the magic, load the shift, shift, load the block's start, load the
//! attacks), plus one AND that keeps the square's index below 64
//! ([`Square::index`], in place of a bounds check). The rest was the
//! loop: `-funroll-loops` wrote the reference driver's twelve lookups per
//! occupancy out, while Quince's stays rolled. With the driver's loops
//! kept rolled (`tools/cmg-instructions.cpp` since 2026-11-30) the
//! reference's code counts 19.6 (callgrind, `-march=x86-64-v3`).

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Fancy magic bitboards (841 KiB table shared by rooks and bishops).
pub struct Magic;

/// One square's magic for one slider, what a lookup reads side by side
/// in one 64-byte slot: mask, magic, the square's own block of
/// [`g::MAGIC_ATTACKS`] and the shift.
///
/// Why one slot: the generated tables keep masks, magics, shifts and
/// offsets in four arrays, so a lookup touched four cache lines for them
/// before the attack table; with them packed, it touches one. It bought
/// about a tenth more isolated lookups per second (`quince lookups
/// --technique magic`, one at a time and grouped, three runs of each
/// build alternating, AMD Zen 5).
///
/// Why the block and not an offset into the shared table: an offset is
/// an `add` per slider before the attack read, which the reference
/// comparison (Gigantua/Chess_Movegen, a pointer in its slot) does not
/// pay. The block is a slice cut at compile time; only its start is read
/// at run time. A slice is 16 bytes, so the slot is 40 and aligned to a
/// whole line (8 KiB for both sliders, in L1).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Entry {
    mask: u64,
    magic: u64,
    block: &'static [u64],
    shift: u32,
}

/// The entries of one slider, cut from the generated arrays and table at
/// compile time (no runtime initialisation). A block is `2^(64 - shift)`
/// words, the most a shifted product can index; the cut fails the build
/// if one would run past the table, which is what [`lookup`]'s unchecked
/// read relies on.
const fn entries(
    masks: &[u64; 64],
    magics: &[u64; 64],
    shifts: &[u8; 64],
    offsets: &[u32; 64],
    table: &'static [u64],
) -> [Entry; 64] {
    let mut out = [Entry {
        mask: 0,
        magic: 0,
        block: &[],
        shift: 0,
    }; 64];
    let mut i = 0;
    while i < 64 {
        let (_, rest) = table.split_at(offsets[i] as usize);
        let (block, _) = rest.split_at(1 << (64 - shifts[i] as u32));
        out[i] = Entry {
            mask: masks[i],
            magic: magics[i],
            block,
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
    &g::MAGIC_ATTACKS,
);
static BISHOP: [Entry; 64] = entries(
    &g::MAGIC_BISHOP_MASKS,
    &g::MAGIC_BISHOP_NUMBERS,
    &g::MAGIC_BISHOP_SHIFTS,
    &g::MAGIC_BISHOP_OFFSETS,
    &g::MAGIC_ATTACKS,
);

/// The attack set for `occupied` in `entry`'s block.
#[inline(always)]
fn lookup(occupied: Bitboard, entry: &Entry) -> Bitboard {
    let index = ((occupied.0 & entry.mask).wrapping_mul(entry.magic) >> entry.shift) as usize;
    // SAFETY: the shifted product is below `2^(64 - shift)`, the block's
    // length ([`entries`] cut it to that length, at compile time).
    // Skipping the bounds check saves a compare and a branch per lookup,
    // measurably fewer instructions per node in bulk perft (callgrind;
    // `reports/archive/speed-2026-11-23-morning.md`).
    Bitboard(unsafe { *entry.block.get_unchecked(index) })
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
