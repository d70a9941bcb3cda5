//! Draws by rule that the search recognises without searching:
//! insufficient material here; repetitions and the fifty-move rule need the
//! game history and live in the search itself.

use crate::position::Position;
use crate::types::Piece;

/// Neither side can ever mate: kings only, or kings and one minor piece.
/// (King and bishop against king and same-coloured bishop is a dead draw
/// too, but rare enough to leave to the evaluation.)
pub fn insufficient_material(pos: &Position) -> bool {
    let heavy = pos.pieces(Piece::Pawn) | pos.pieces(Piece::Rook) | pos.pieces(Piece::Queen);
    let minors = pos.pieces(Piece::Knight) | pos.pieces(Piece::Bishop);
    heavy.is_empty() && !minors.has_several()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dead_and_live_material() {
        let dead = [
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
            "4kn2/8/8/8/8/8/8/4K3 b - - 0 1",
        ];
        for fen in dead {
            assert!(
                insufficient_material(&Position::from_fen(fen).unwrap()),
                "{fen}"
            );
        }
        let live = [
            "4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1",
            "4k3/p7/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/3RK3 w - - 0 1",
        ];
        for fen in live {
            assert!(
                !insufficient_material(&Position::from_fen(fen).unwrap()),
                "{fen}"
            );
        }
    }
}
