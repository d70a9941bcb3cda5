//! Draws by rule that the search recognises without searching:
//! insufficient material here; repetitions and the fifty-move rule need the
//! game history and live in the search itself.

use crate::position::Position;

/// Neither side can ever mate: see [`Position::is_insufficient_material`].
pub fn insufficient_material(pos: &Position) -> bool {
    pos.is_insufficient_material()
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
