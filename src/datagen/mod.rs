//! Training data for the NNUE evaluation: self-play games ([`selfplay`]),
//! stored compactly as moves and scores ([`mod@format`]; [`packed`] for the
//! committed copies), and replayed into the positions a trainer learns from
//! ([`training_positions`]).
//!
//! The command-line driver (`quince datagen`: threads, progress, resuming)
//! lives in the binary; this module is the part a trainer shares.

pub mod format;
pub mod packed;
pub mod selfplay;

use crate::movegen::legal_moves;
use crate::position::Position;
use crate::search::ordering::is_tactical;
use crate::search::score::MATE_BOUND;
use format::{GameRecord, GameResult};

/// A position worth learning from, with its search score and the game's end.
#[derive(Clone, Debug)]
pub struct TrainingPosition {
    /// The position, before its searched move.
    pub position: Position,
    /// The search's score in centipawns, White's point of view.
    pub white_score: i16,
    /// How the game it comes from ended.
    pub result: GameResult,
}

/// Replays `game` and yields its scored positions, except those a static
/// evaluation should not be taught from: the side to move in check, a
/// capture or promotion as the best move (the score belongs to the
/// exchange, not the position), or a mate score. An illegal move (a corrupt
/// file) is an error naming the game and ply.
pub fn training_positions(game: &GameRecord) -> Result<Vec<TrainingPosition>, String> {
    let mut pos = Position::startpos();
    let illegal = |ply: usize, mv: crate::types::Move| {
        format!(
            "game {}: move {mv:?} at ply {} is illegal",
            game.index,
            ply + 1
        )
    };
    for (ply, &mv) in game.opening.iter().enumerate() {
        if !legal_moves(&pos).as_slice().contains(&mv) {
            return Err(illegal(ply, mv));
        }
        pos = pos.play_unchecked(mv);
    }
    let mut out = Vec::with_capacity(game.scored.len());
    for (i, &(mv, score)) in game.scored.iter().enumerate() {
        if !legal_moves(&pos).as_slice().contains(&mv) {
            return Err(illegal(game.opening.len() + i, mv));
        }
        let quiet = !pos.in_check() && !is_tactical(&pos, mv);
        if quiet && i32::from(score).abs() < MATE_BOUND {
            out.push(TrainingPosition {
                position: pos.clone(),
                white_score: score,
                result: game.result,
            });
        }
        pos = pos.play_unchecked(mv);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tt::TranspositionTable;
    use selfplay::{SelfPlaySettings, play_game};

    #[test]
    fn replayed_positions_are_quiet_and_carry_the_result() {
        let settings = SelfPlaySettings {
            nodes: 300,
            max_plies: 40,
            ..SelfPlaySettings::default()
        };
        let mut tt = TranspositionTable::new(1).unwrap();
        let game = play_game(11, 5, &settings, &mut tt);
        let positions = training_positions(&game).unwrap();
        assert!(!positions.is_empty() && positions.len() <= game.scored.len());
        for p in &positions {
            assert!(!p.position.in_check());
            assert_eq!(p.result, game.result);
        }
    }

    #[test]
    fn a_corrupt_move_is_reported_not_played() {
        let mut tt = TranspositionTable::new(1).unwrap();
        let mut game = play_game(
            11,
            6,
            &SelfPlaySettings {
                nodes: 200,
                max_plies: 4,
                ..Default::default()
            },
            &mut tt,
        );
        game.scored[0].0 = crate::types::Move::from_bits(0x0fff);
        let err = training_positions(&game).unwrap_err();
        assert!(err.contains("illegal"), "{err}");
    }
}
