//! HyperCube (Daniel Inführ, talkchess 2022,
//! <http://www.talkchess.com/forum3/viewtopic.php?f=7&t=79004&p=916723#p916723>):
//! every square's slider keeps its relevant occupancy as a dense index, a
//! "configuration", and a piece on square `b` contributes one fixed bit to
//! the configuration of every square that sees `b`. The cube of those
//! contributions, `[slider][blocker]`, turns an occupancy into PEXT's
//! index without PEXT: the sum of the occupied blockers' bits. The index
//! then reads the same per-square attack blocks as the PEXT backend.
//!
//! The original updates all 64 configurations incrementally in make and
//! unmake (a jump table per square that adds or clears its bit
//! everywhere), so a lookup is one load. Quince's `Slider` gets the
//! occupancy at each call and has no make-move hook, so here the slider's
//! configuration is rebuilt per call from the same deltas, one per
//! occupied relevant square (a loop over set bits: 0 to 12 rounds). What
//! it measures is the cube's bookkeeping done on demand.
//!
//! Tables: the PEXT attack table (841 KiB, shared with `pext`, emitted
//! only when one of them is compiled) plus 16 KiB of deltas and 1 KiB of
//! masks and offsets: L2. Instructions: none special (`trailing_zeros`
//! is TZCNT where the target has BMI1, a short sequence elsewhere).

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// HyperCube: per-blocker index deltas summed into a PEXT-order index.
pub struct HyperCube;

/// The attack set of a slider whose relevant squares are `mask`, whose
/// deltas are `deltas` and whose block starts at `offset`.
#[inline(always)]
fn lookup(occupied: u64, mask: u64, deltas: &[u16; 64], offset: u32) -> Bitboard {
    let mut blockers = occupied & mask;
    let mut configuration = 0usize;
    while blockers != 0 {
        configuration |= usize::from(deltas[blockers.trailing_zeros() as usize & 63]);
        blockers &= blockers - 1;
    }
    Bitboard(g::PEXT_ATTACKS[offset as usize + configuration])
}

impl Slider for HyperCube {
    const NAME: &'static str = "hypercube";
    const TABLE_BYTES: usize = size_of_val(&g::PEXT_ATTACKS)
        + 2 * (size_of_val(&g::PEXT_ROOK_MASKS) + size_of_val(&g::PEXT_ROOK_OFFSETS))
        + size_of_val(&g::HYPERCUBE_ROOK_DELTAS)
        + size_of_val(&g::HYPERCUBE_BISHOP_DELTAS);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        lookup(
            occupied.0,
            g::PEXT_ROOK_MASKS[s],
            &g::HYPERCUBE_ROOK_DELTAS[s],
            g::PEXT_ROOK_OFFSETS[s],
        )
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        lookup(
            occupied.0,
            g::PEXT_BISHOP_MASKS[s],
            &g::HYPERCUBE_BISHOP_DELTAS[s],
            g::PEXT_BISHOP_OFFSETS[s],
        )
    }
}
