//! The isolated view of a technique: queen lookups ([`Slider::queen`]:
//! rook | bishop, or the technique's own queen where it has one, as the
//! reference comparison Gigantua/Chess_Movegen counts them) over a fixed
//! pseudo-random set of squares and occupancies, outside any move
//! generator.
//!
//! Why a fixed set: every technique, every CPU and every run sees the same
//! inputs, so rates compare and `callgrind` counts repeat exactly. The set
//! is [`INPUTS`] pairs from a xorshift generator with a fixed seed; each
//! occupancy is the AND of two random words (about 16 of 64 squares set,
//! a middlegame's density) with the slider's own square set. 4096 pairs
//! are 64 KiB, so the inputs stay in L2 and the technique's tables, not
//! the inputs, decide what the caches see.

use super::Slider;
use crate::types::{Bitboard, Square};

/// One occupancy and the squares asked about it ([`grouped_inputs`]).
pub type Group = (Bitboard, [Square; PER_OCCUPANCY]);

/// How many (square, occupancy) pairs one pass visits.
pub const INPUTS: usize = 4096;

/// Squares per occupancy in [`grouped_inputs`]: the reference
/// comparison's harness asks 12 lookups of each random occupancy.
pub const PER_OCCUPANCY: usize = 12;

/// Groups in [`grouped_inputs`]: about [`INPUTS`] lookups per pass.
pub const GROUPS: usize = INPUTS / PER_OCCUPANCY;

/// A xorshift generator from `seed`: the same numbers on every run.
fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// The fixed input set: `INPUTS` squares and occupancies.
pub fn inputs() -> Vec<(Square, Bitboard)> {
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    (0..INPUTS)
        .map(|_| {
            let square = Square::new((next() % 64) as u8);
            let occupied = (next() & next()) | (1u64 << square.index());
            (square, Bitboard(occupied))
        })
        .collect()
}

/// The reference comparison's input structure: [`GROUPS`] occupancies,
/// each asked about [`PER_OCCUPANCY`] squares, every square in its
/// occupancy (as in a position, where the slider stands on its square).
///
/// Why a second set: with one occupancy held for twelve lookups, a
/// compiler may compute the occupancy's share of the work once for all
/// twelve (a fill's propagated empty masks, a table's masked occupancy);
/// with a new occupancy for each lookup it cannot. The atlas times both,
/// so the reference's figures compare like with like.
pub fn grouped_inputs() -> Vec<Group> {
    let mut next = xorshift(0xD1B5_4A32_D192_ED03);
    (0..GROUPS)
        .map(|_| {
            let squares = core::array::from_fn(|_| Square::new((next() % 64) as u8));
            let mut occupied = next() & next();
            for square in &squares {
                occupied |= 1u64 << square.index();
            }
            (Bitboard(occupied), squares)
        })
        .collect()
}

/// Queen attacks of every pair in `inputs`, `passes` times over, summed
/// into one word so that no lookup can be optimised away (an add: one
/// cycle of latency, far below any lookup's throughput). The lookups are
/// independent of each other, so this measures throughput, as the
/// reference comparison does; the in-generator view (perft) is where a
/// lookup waits on earlier work.
///
/// The compiler is free to vectorise this loop across lookups, as a C++
/// compiler is in the reference comparison's loop: LLVM turns some
/// techniques' table reads into AVX-512 gathers and runs eight fills to a
/// register. [`queens_one_at_a_time`] forbids that; the two rates side by
/// side show how much of an isolated figure is the compiler batching
/// lookups that no move generator asks for together.
#[inline(never)]
pub fn queens<A: Slider>(inputs: &[(Square, Bitboard)], passes: u64) -> u64 {
    fold_queens::<A, false>(inputs, passes)
}

/// [`queens`] with each lookup kept whole: the compiler may not vectorise
/// across lookups (each may still use SIMD inside itself, as simd-fill
/// and galois-field do), so the rate is that of lookups issued one at a
/// time, as a move generator issues them.
#[inline(never)]
pub fn queens_one_at_a_time<A: Slider>(inputs: &[(Square, Bitboard)], passes: u64) -> u64 {
    fold_queens::<A, true>(inputs, passes)
}

/// Queen attacks of [`grouped_inputs`]: for each occupancy, its twelve
/// squares, lookups one at a time (as [`queens_one_at_a_time`]) but the
/// occupancy held across the twelve, as the reference comparison's
/// harness holds it.
///
/// The twelve stay a loop. Written out one by one (as the reference's
/// `-funroll-loops` build unrolls its own twelve) they ran fewer
/// instructions but mostly slower, from register pressure: on an AMD
/// Zen 5, three runs of each build alternating, plain magic 445 against
/// 800 MQueens/s rolled, split PEXT 450 against 700, Bob-Mike 233
/// against 346, while sissy, classical and fancy magic gained under a
/// tenth. The atlas record at `9126870` was taken with the unrolled loop.
#[inline(never)]
pub fn queens_grouped<A: Slider>(groups: &[Group], passes: u64) -> u64 {
    let mut fold = 0u64;
    for _ in 0..passes {
        for (occupied, squares) in groups {
            for &square in squares {
                vectoriser_barrier();
                fold = fold.wrapping_add(A::queen(square, *occupied).0);
            }
        }
    }
    fold
}

#[inline(always)]
fn fold_queens<A: Slider, const ONE_AT_A_TIME: bool>(
    inputs: &[(Square, Bitboard)],
    passes: u64,
) -> u64 {
    let mut fold = 0u64;
    for _ in 0..passes {
        for &(square, occupied) in inputs {
            if ONE_AT_A_TIME {
                vectoriser_barrier();
            }
            let attacks = A::queen(square, occupied);
            fold = fold.wrapping_add(attacks.0);
        }
    }
    fold
}

/// An empty `asm!` statement: a call the loop vectoriser cannot widen,
/// and no instruction, so neither the rate nor callgrind's instructions
/// per lookup pay for it. Why it matters: on an AMD Zen 5 the barrier
/// made fancy magic faster (LLVM's gathers were slower than its scalar
/// reads) and Kogge-Stone slower (its eight-wide fills were faster than
/// one); `reports/atlas.md` has every technique's two rates.
#[inline(always)]
fn vectoriser_barrier() {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    // SAFETY: an empty template with `nomem, nostack, preserves_flags`
    // reads and writes nothing; it only hides the loop body from the
    // vectoriser.
    unsafe {
        core::arch::asm!("", options(nomem, nostack, preserves_flags));
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    core::hint::black_box(());
}
