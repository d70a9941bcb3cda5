//! The everyday questions a caller asks of a position that the move
//! generator answers: is this move legal, play it if so, and is the game
//! over. Standard trait impls (`FromStr`, `Default`) live here too, so that
//! `"<fen>".parse::<Position>()` works as in the other Rust chess crates.

use super::{FenError, Position};
use crate::movegen::has_legal_move;
use crate::types::Piece;
use std::str::FromStr;

/// Where the game stands in a position, judged from the position alone.
///
/// Threefold repetition is not here: it needs the game's earlier
/// positions, which a `Position` does not keep (the search and the UCI
/// front end track them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameStatus {
    /// The side to move has a legal move and no rule ends the game.
    Ongoing,
    /// The side to move is in check and has no legal move: it lost.
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// A hundred plies without a capture or pawn move (the halfmove clock at
    /// 100 to 149), and the last move did not mate: either player may claim
    /// a draw, and until one does the game goes on ([`GameStatus::is_over`]
    /// is false, as [`crate::Game::outcome`] says too).
    FiftyMoves,
    /// A hundred and fifty plies without a capture or pawn move, and the
    /// last move did not mate: drawn without a claim (FIDE's article 9.6.2).
    SeventyFiveMoves,
    /// Neither side has material to mate with: bare kings, or kings and a
    /// single knight or bishop.
    InsufficientMaterial,
}

impl GameStatus {
    /// Whether the game has ended: mate, stalemate, dead material, or the
    /// seventy-five-move rule. A draw that must be claimed
    /// ([`GameStatus::FiftyMoves`]) has not ended it: the same rule as
    /// [`crate::Game::outcome`] and [`crate::Game::claimable_draw`].
    pub fn is_over(self) -> bool {
        !matches!(self, GameStatus::Ongoing | GameStatus::FiftyMoves)
    }

    /// Whether either player may claim a draw here (the fifty-move rule).
    pub fn is_claimable_draw(self) -> bool {
        self == GameStatus::FiftyMoves
    }
}

impl Position {
    /// Whether neither side can ever mate: kings only, or kings and a single
    /// minor piece. (King and bishop against king and bishop on squares of
    /// one colour is dead too, but rare enough to leave to play.)
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.pieces(Piece::Pawn) | self.pieces(Piece::Rook) | self.pieces(Piece::Queen);
        let minors = self.pieces(Piece::Knight) | self.pieces(Piece::Bishop);
        heavy.is_empty() && !minors.has_several()
    }

    /// Whether the game is over here, and how.
    ///
    /// Mate and stalemate come first: a move that mates on the hundredth
    /// ply without a capture or pawn move wins rather than draws.
    ///
    /// ```
    /// use quince::{GameStatus, Position};
    /// let fools_mate: Position = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    ///     .parse()
    ///     .unwrap();
    /// assert_eq!(fools_mate.status(), GameStatus::Checkmate);
    /// assert_eq!(Position::default().status(), GameStatus::Ongoing);
    /// ```
    pub fn status(&self) -> GameStatus {
        if !has_legal_move(self) {
            if self.in_check() {
                GameStatus::Checkmate
            } else {
                GameStatus::Stalemate
            }
        } else if self.is_insufficient_material() {
            GameStatus::InsufficientMaterial
        } else if self.halfmove_clock() >= 150 {
            GameStatus::SeventyFiveMoves
        } else if self.halfmove_clock() >= 100 {
            GameStatus::FiftyMoves
        } else {
            GameStatus::Ongoing
        }
    }
}

/// `"<fen>".parse::<Position>()`: the same as [`Position::from_fen`].
impl FromStr for Position {
    type Err = FenError;

    fn from_str(fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen)
    }
}

/// The standard start position.
impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(fen: &str) -> GameStatus {
        fen.parse::<Position>().unwrap().status()
    }

    #[test]
    fn statuses_of_known_positions() {
        assert_eq!(
            status("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
            GameStatus::Stalemate
        );
        assert_eq!(
            status("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"),
            GameStatus::Checkmate
        );
        assert_eq!(
            status("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"),
            GameStatus::InsufficientMaterial
        );
        assert_eq!(
            status("4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1"),
            GameStatus::Ongoing
        );
        assert_eq!(
            status("4k3/8/8/8/8/8/8/3RK3 w - - 100 80"),
            GameStatus::FiftyMoves
        );
        assert_eq!(
            status("4k3/8/8/8/8/8/8/3RK3 w - - 99 80"),
            GameStatus::Ongoing
        );
        // The fifty-move rule gives a claim; the game is over only at 150
        // plies (as Game::outcome says).
        assert!(!status("4k3/8/8/8/8/8/8/3RK3 w - - 100 80").is_over());
        assert!(status("4k3/8/8/8/8/8/8/3RK3 w - - 100 80").is_claimable_draw());
        assert_eq!(
            status("4k3/8/8/8/8/8/8/3RK3 w - - 150 100"),
            GameStatus::SeventyFiveMoves
        );
        assert!(status("4k3/8/8/8/8/8/8/3RK3 w - - 150 100").is_over());
        // Mate on the hundredth ply is mate, not a fifty-move draw.
        assert_eq!(
            status("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80"),
            GameStatus::Checkmate
        );
    }

    #[test]
    fn parse_and_default_agree_with_the_constructors() {
        assert_eq!(Position::default(), Position::startpos());
        assert!("not a fen".parse::<Position>().is_err());
    }
}
