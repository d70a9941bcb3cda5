//! SBAMG, subtraction-based attack mask generation: `o ^ (o - 3cbn)` per
//! line, proposed by Syed Fahad (talkchess 2016, "SBAMG", topic 59845,
//! <http://www.talkchess.com/forum/viewtopic.php?t=59845>; chessprogramming
//! wiki "SBAMG", with Gerd Isenberg). It joins `o ^ (o - 2r)` and
//! obstruction difference.
//!
//! `o` is the line's occupancy without the slider, plus the line's lowest
//! square as a sentinel: a piece on the last square of a line blocks
//! nothing beyond it, so setting it changes no attack, and it guarantees a
//! set bit at or below the slider. When the slider itself is that lowest
//! square, the sentinel is the slider's own bit; the split below then
//! counts the slider's square as "at or below", so `n` is the slider. Let
//! `n` be the highest bit of `o` at or below the slider (the nearest blocker
//! below, or the sentinel). Subtracting `3 << n` clears bit `n` and borrows
//! from `n + 1` up to and through the first set bit above the slider (no
//! bit of `o` lies in between): `o ^ (o - 3cbn)` flips exactly the stretch
//! from the blocker below to the blocker above, both included, the slider
//! inside. Masked with the line without the slider, that is the attack
//! set on the line, both directions from one subtraction. No blocker above
//! lets the borrow run off bit 63, which the mask trims, so the upper
//! outer square the wiki also sets is not needed here.
//!
//! Tables: the four line masks of `hq-bitrev` (2 KiB, L1d). Instructions:
//! none beyond a leading-zero count (`u64::leading_zeros`: LZCNT where the
//! target has it, BSR plus a fix-up otherwise).

use super::Slider;
use crate::tables::generated as g;
use crate::types::{Bitboard, Square};
use core::mem::size_of_val;

/// SBAMG, `o ^ (o - 3cbn)` on four lines (2 KiB of masks).
pub struct Sbamg;

/// Attacks along `line` (a line through `square`, without it).
#[inline(always)]
fn line(square: usize, occupied: u64, line: u64) -> u64 {
    let with_slider = line | 1 << square;
    // The line's lowest square (the slider's when it is lowest).
    let low_end = with_slider & with_slider.wrapping_neg();
    let o = (occupied & line) | low_end;
    // Never empty: the low end is at or below the slider.
    let at_or_below = (2u64 << square).wrapping_sub(1);
    let nearest_below = 63 - (o & at_or_below).leading_zeros();
    (o ^ o.wrapping_sub(3u64 << nearest_below)) & line
}

impl Slider for Sbamg {
    const NAME: &'static str = "sbamg";
    const TABLE_BYTES: usize = size_of_val(&g::FILE_MASKS)
        + size_of_val(&g::RANK_MASKS)
        + size_of_val(&g::DIAGONAL_MASKS)
        + size_of_val(&g::ANTI_DIAGONAL_MASKS);

    #[inline]
    fn rook(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        Bitboard(line(s, o, g::FILE_MASKS[s]) | line(s, o, g::RANK_MASKS[s]))
    }

    #[inline]
    fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
        let (s, o) = (square.index(), occupied.0);
        Bitboard(line(s, o, g::DIAGONAL_MASKS[s]) | line(s, o, g::ANTI_DIAGONAL_MASKS[s]))
    }
}
