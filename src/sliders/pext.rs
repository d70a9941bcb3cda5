//! PEXT bitboards: BMI2's `PEXT` gathers the relevant occupancy bits into a
//! dense index, so no magic multiply is needed. Only fast where PEXT is fast
//! (Intel since Haswell, AMD since Zen 3).

#[cfg(not(target_feature = "bmi2"))]
compile_error!(
    "feature `pext` needs a target with BMI2: build with RUSTFLAGS='-C target-cpu=x86-64-v3' \
     (or '-C target-cpu=native' on a BMI2 machine), and set RUSTDOCFLAGS the same for doctests"
);

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::arch::x86_64::_pext_u64;
use core::mem::size_of_val;

/// PEXT-indexed attack tables (BMI2 only).
pub struct Pext;

/// Gathers the bits of `value` selected by `mask` into the low bits.
#[inline]
fn pext(value: u64, mask: u64) -> u64 {
    // SAFETY: this module compiles only when the target has BMI2 (see the
    // `compile_error!` above), so every CPU the binary may run on has PEXT.
    // The PEXT backend exists to measure exactly this instruction against
    // magic multiplication (see the benches), and there is no safe spelling.
    unsafe { _pext_u64(value, mask) }
}

/// One square's PEXT lookup for one slider: its relevant-occupancy mask
/// and its own block of [`g::PEXT_ATTACKS`], side by side in one 32-byte
/// slot.
///
/// Why the block and not an offset into the shared table: with an offset
/// (and masks and offsets in two arrays) a lookup loaded both and added
/// them before the attack read, an `add` per slider that the reference
/// comparison (Gigantua/Chess_Movegen, which keeps a pointer beside the
/// mask) does not pay; callgrind counted 14.6 instructions per grouped
/// queen lookup against its 9.4 (x86-64-v3), 10.6 after. The slice costs
/// nothing at run time: only its start is read.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Entry {
    mask: u64,
    block: &'static [u64],
}

/// The entries of one slider, cut from the generated masks, offsets and
/// table at compile time (no runtime initialisation). The cut fails the
/// build if a block would run past the table, which is what [`lookup`]'s
/// unchecked read relies on.
const fn entries(masks: &[u64; 64], offsets: &[u32; 64], table: &'static [u64]) -> [Entry; 64] {
    let mut out = [Entry { mask: 0, block: &[] }; 64];
    let mut i = 0;
    while i < 64 {
        let len = 1 << masks[i].count_ones();
        let (_, rest) = table.split_at(offsets[i] as usize);
        let (block, _) = rest.split_at(len);
        out[i] = Entry {
            mask: masks[i],
            block,
        };
        i += 1;
    }
    out
}

static ROOK: [Entry; 64] = entries(&g::PEXT_ROOK_MASKS, &g::PEXT_ROOK_OFFSETS, &g::PEXT_ATTACKS);
static BISHOP: [Entry; 64] =
    entries(&g::PEXT_BISHOP_MASKS, &g::PEXT_BISHOP_OFFSETS, &g::PEXT_ATTACKS);

/// The attack set stored for `occupied` in `entry`'s block.
#[inline(always)]
fn lookup(occupied: Bitboard, entry: &Entry) -> Bitboard {
    let index = pext(occupied.0, entry.mask) as usize;
    // SAFETY: PEXT returns at most as many bits as the mask has set, so
    // `index < 2^(mask bits)`, the block's length ([`entries`] cut it to
    // that length, at compile time). Skipping the bounds check saves a
    // compare and a branch per lookup, and a counted position does six to
    // ten lookups: measurably fewer instructions per node in bulk perft
    // (callgrind; `reports/archive/speed-2026-11-23-morning.md`).
    Bitboard(unsafe { *entry.block.get_unchecked(index) })
}

impl Slider for Pext {
    const NAME: &'static str = "pext";
    const TABLE_BYTES: usize = size_of_val(&g::PEXT_ATTACKS) + size_of_val(&ROOK) + size_of_val(&BISHOP);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        lookup(occupied, &ROOK[square.index()])
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        lookup(occupied, &BISHOP[square.index()])
    }
}
