//! Black magic bitboards (Volker Annuss's technique): fixed-shift magics
//! on the *complemented* relevant mask, `((occupied | !mask) * magic) >>
//! shift`, and one table in which the squares' blocks overlap.
//!
//! With the irrelevant bits all set, a square's indices crowd into part of
//! its 4,096 (rook) or 512 (bishop) slots; its block starts where its
//! lowest used index lands, so the stored offset of index 0 may be
//! negative, and other squares' entries fill the holes. The magics and
//! offsets are data found offline by `find-black-magics` and verified in
//! the build (`codegen/src/black_magics.rs`); how small the table gets
//! depends on how long that search ran. The committed set (three minutes
//! of hill climbing per the finder's default) uses 94,803 entries whose
//! spans sum to 134,430, packed into 124,397 (971 KiB): smaller than
//! plain magic's 2.25 MiB, still larger than fancy magic's 107,648 entries
//! (841 KiB). Long published searches pack black magics below fancy ones;
//! this one does not, and the lab measures it as it is. That is the
//! measured reason it trails Chess_Movegen's black magic in the atlas
//! (0.73x grouped on AMD Zen 5, while 1.6x in batch): the reference uses
//! a published set of 88,891 entries (694 KiB, its own table-size column
//! on that run), which leaves room in a 1 MiB L2 where this 971 KiB
//! table, with the harness's inputs beside it, does not. Per lookup it
//! does nearly the reference's work since the slots below (19.4
//! instructions per grouped queen lookup under callgrind against its
//! 16.3; 16.5 with the twelve lookups unrolled as the reference's harness
//! has them), so the table's size is what is left.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Black magic bitboards: fixed shift, complemented mask, overlapping blocks.
pub struct BlackMagic;

/// One square's black magic for one slider, what a lookup reads side by
/// side in one 32-byte slot.
///
/// Why one slot and an unchecked read (callgrind, instructions per
/// grouped queen lookup, x86-64-v3): with three arrays and a bounds check
/// a lookup took 27.6 (19.4 after), the reference comparison's black magic
/// 16.3. The
/// check is a compare and a branch per slider that can never fail (see
/// [`lookup`]); the offset, stored as `isize`, needs no sign extension.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Entry {
    not_mask: u64,
    magic: u64,
    offset: isize,
}

/// The entries of one slider, from the generated arrays at compile time.
const fn entries(not_masks: &[u64; 64], magics: &[u64; 64], offsets: &[i32; 64]) -> [Entry; 64] {
    let mut out = [Entry {
        not_mask: 0,
        magic: 0,
        offset: 0,
    }; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = Entry {
            not_mask: not_masks[i],
            magic: magics[i],
            offset: offsets[i] as isize,
        };
        i += 1;
    }
    out
}

static ROOK: [Entry; 64] = entries(&g::BLACK_ROOK_NOT_MASKS, &g::BLACK_ROOK_MAGICS, &g::BLACK_ROOK_OFFSETS);
static BISHOP: [Entry; 64] = entries(
    &g::BLACK_BISHOP_NOT_MASKS,
    &g::BLACK_BISHOP_MAGICS,
    &g::BLACK_BISHOP_OFFSETS,
);

/// The attack set for `occupied`, a slider of `BITS` index bits (12 for
/// rooks, 9 for bishops) with `entry`'s magic.
#[inline(always)]
fn lookup<const BITS: u32>(occupied: u64, entry: &Entry) -> Bitboard {
    let index = ((occupied | entry.not_mask).wrapping_mul(entry.magic) >> (64 - BITS)) as isize;
    let at = (entry.offset + index) as usize;
    // SAFETY: `occupied | not_mask` is the square's relevant occupancy
    // with every other bit set, one of the occupancies that the build
    // (`codegen/src/black_magics.rs`, `verify`) enumerated for this square
    // and placed in the table, failing the build if any landed outside
    // it; so `at` is an index the build wrote.
    Bitboard(unsafe { *g::BLACK_MAGIC_ATTACKS.get_unchecked(at) })
}

impl Slider for BlackMagic {
    const NAME: &'static str = "black-magic";
    const TABLE_BYTES: usize = size_of_val(&g::BLACK_MAGIC_ATTACKS) + size_of_val(&ROOK) + size_of_val(&BISHOP);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        lookup::<12>(occupied.0, &ROOK[square.index()])
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        lookup::<9>(occupied.0, &BISHOP[square.index()])
    }
}
