//! Plain magic bitboards: the same magic multiply as the fancy backend, but
//! every square owns a full-size block (4096 entries per rook square, 512
//! per bishop square) and the shift is one constant. The index needs no
//! per-square shift or offset, at the price of a 2.25 MiB table, mostly
//! unused: a rook in the centre has 10 relevant bits and uses 1,024 of its
//! 4,096 entries. Beside `magic` (841 KiB) and `black-magic` (overlapping
//! blocks), it shows what packing the table buys.

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// Plain (fixed-shift, one block per square) magic bitboards: 2.25 MiB.
pub struct PlainMagic;

impl Slider for PlainMagic {
    const NAME: &'static str = "plain-magic";
    const TABLE_BYTES: usize = size_of_val(&g::PLAIN_ROOK_ATTACKS)
        + size_of_val(&g::PLAIN_BISHOP_ATTACKS)
        + size_of_val(&g::PLAIN_ROOK_MASKS)
        + size_of_val(&g::PLAIN_ROOK_NUMBERS)
        + size_of_val(&g::PLAIN_BISHOP_MASKS)
        + size_of_val(&g::PLAIN_BISHOP_NUMBERS);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        let product = (occupied.0 & g::PLAIN_ROOK_MASKS[s]).wrapping_mul(g::PLAIN_ROOK_NUMBERS[s]);
        // The shift leaves 12 bits, so the index is below 4096 and the
        // compiler drops the bounds check by itself.
        Bitboard(g::PLAIN_ROOK_ATTACKS[s][(product >> g::PLAIN_ROOK_SHIFT) as usize])
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let s = square.index();
        let product =
            (occupied.0 & g::PLAIN_BISHOP_MASKS[s]).wrapping_mul(g::PLAIN_BISHOP_NUMBERS[s]);
        Bitboard(g::PLAIN_BISHOP_ATTACKS[s][(product >> g::PLAIN_BISHOP_SHIFT) as usize])
    }
}
