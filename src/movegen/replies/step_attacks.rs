//! Our attacks on the opponent's king steps, for [`super::Replies`]: the
//! king's moves after one of our moves, from the parent's attacks and the
//! moving piece's change to them.

use crate::movegen::legal::pawn_captures;
use crate::position::Position;
use crate::sliders::Slider;
use crate::tables::{king_attacks, knight_attacks};
use crate::types::{Bitboard, Piece};

/// Our attacks on the opponent's king steps, kept so that one move's
/// change to them can be applied without recounting the others.
///
/// A square attacked by two of our pieces stays attacked whichever one
/// moves; one attacked once stays attacked unless the moving piece is
/// that one attacker, which it is exactly when the moving piece attacks
/// it. The guard keeps every other piece's attacks on the king squares as
/// they were (no line to one is opened or shut), so after the move the
/// attacked steps are those two kinds plus what the moved piece attacks
/// from its new square.
#[derive(Clone, Copy, Default)]
pub(super) struct StepAttacks {
    /// King squares attacked at least once, at least twice.
    pub(super) once: Bitboard,
    pub(super) twice: Bitboard,
    /// The steps not attacked: the king's steps in the settled count.
    pub(super) free: u32,
}

impl StepAttacks {
    /// Our attacks on the opponent's king squares `squares` (its steps
    /// `steps` and castling paths), with `lifted` the occupancy without
    /// the opponent's king (so a slider's attack through it counts). The
    /// settled count takes its king moves from them too: one pass over
    /// our pieces per leaf parent, not two.
    #[inline(always)]
    pub(super) fn new<A: Slider>(
        pos: &Position,
        diagonal: Bitboard,
        orthogonal: Bitboard,
        squares: Bitboard,
        steps: Bitboard,
        lifted: Bitboard,
    ) -> StepAttacks {
        if squares.is_empty() {
            // A king walled in by its own pieces (the opening): nothing
            // to find, and every leaf parent there would pay for it.
            return StepAttacks::default();
        }
        let mut once = Bitboard::EMPTY;
        let mut twice = Bitboard::EMPTY;
        let mut add = |attacks: Bitboard| {
            let attacks = attacks & squares;
            twice |= once & attacks;
            once |= attacks;
        };
        let us = pos.side_to_move();
        // Two pawns attack one square only from opposite sides.
        let (west, east) = pawn_captures(us, pos.colored(us, Piece::Pawn));
        add(west);
        add(east);
        for knight in pos.colored(us, Piece::Knight) {
            add(knight_attacks(knight));
        }
        for slider in diagonal {
            add(A::bishop(slider, lifted));
        }
        for slider in orthogonal {
            add(A::rook(slider, lifted));
        }
        add(king_attacks(pos.king(us)));
        StepAttacks {
            once,
            twice,
            free: (steps & !once).len(),
        }
    }

    /// The number of `steps` not attacked after a move whose piece
    /// attacked `was` before it and attacks `will` after it.
    #[inline(always)]
    pub(super) fn free_after(&self, steps: Bitboard, was: Bitboard, will: Bitboard) -> u32 {
        let attacked = self.twice | (self.once & !was) | will;
        (steps & !attacked).len()
    }
}
