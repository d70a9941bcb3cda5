//! One self-play game for training data: a random opening kept only when
//! balanced, then Quince against itself at a fixed node budget per move.
//!
//! Everything is a function of `(seed, index, settings, commit)`: the
//! opening comes from a generator seeded with both numbers, and a search
//! with a node limit is deterministic (the hash table is cleared at the
//! start of each game). So a data set is regenerated from the command line
//! that made it, at the same commit.

use super::format::{GameRecord, GameResult};
use crate::movegen::legal_moves;
use crate::position::Position;
use crate::search::draw::insufficient_material;
use crate::search::limits::{Limits, Signals};
use crate::search::score::Score;
use crate::search::tt::TranspositionTable;
use crate::search::{self, Outcome};
use crate::types::{Color, Move};

/// How games are played and cut short.
#[derive(Clone, Debug)]
pub struct SelfPlaySettings {
    /// Node limit of each move's search (after depth 1, which always ends).
    pub nodes: u64,
    /// Random plies from the start position: `min..=max`.
    pub random_plies: (u32, u32),
    /// An opening is kept when a search of it scores within this many
    /// centipawns of equality.
    pub balanced_within: Score,
    /// A side ahead by this much for `win_plies` plies in a row (both
    /// sides' searches agreeing) wins.
    pub win_score: Score,
    /// How many plies in a row `win_score` must hold for a win.
    pub win_plies: u32,
    /// After `draw_after` plies, `draw_plies` plies in a row within
    /// `draw_score` of zero are a draw.
    pub draw_after: usize,
    /// The largest score, either way, that counts towards a draw.
    pub draw_score: Score,
    /// How many plies in a row within `draw_score` make a draw.
    pub draw_plies: u32,
    /// A game still going after this many searched plies is a draw.
    pub max_plies: usize,
}

impl Default for SelfPlaySettings {
    fn default() -> Self {
        SelfPlaySettings {
            nodes: 5_000,
            random_plies: (8, 12),
            balanced_within: 100,
            win_score: 1_500,
            win_plies: 4,
            draw_after: 80,
            draw_score: 10,
            draw_plies: 12,
            max_plies: 400,
        }
    }
}

/// SplitMix64 (Steele, Lea and Flood): a tiny, well-mixed generator; the
/// openings need variety and reproducibility, not cryptographic strength.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Plays game number `index` of the run seeded with `seed`. `tt` is
/// cleared first; the caller keeps one per thread to avoid reallocating.
pub fn play_game(
    seed: u64,
    index: u32,
    settings: &SelfPlaySettings,
    tt: &mut TranspositionTable,
) -> GameRecord {
    let mut rng = SplitMix64(seed ^ (u64::from(index) + 1).wrapping_mul(0xD1B5_4A32_D192_ED03));
    tt.clear();
    let (opening, mut pos, mut keys) = balanced_opening(&mut rng, settings, tt);
    let mut scored = Vec::new();
    let mut winning = (Color::White, 0u32);
    let mut quiet = 0u32;
    let result = loop {
        if legal_moves(&pos).is_empty() {
            break if pos.in_check() {
                winner(pos.side_to_move().flip())
            } else {
                GameResult::Draw
            };
        }
        if is_draw_by_rule(&pos, &keys) || scored.len() >= settings.max_plies {
            break GameResult::Draw;
        }
        let outcome = think(&pos, &keys, settings.nodes, tt);
        let white_score = if pos.side_to_move() == Color::White {
            outcome.score
        } else {
            -outcome.score
        };
        scored.push((outcome.best, white_score.clamp(-32_000, 32_000) as i16));
        // Adjudication: a decisive score both sides' searches agree on.
        let leader = if white_score > 0 {
            Color::White
        } else {
            Color::Black
        };
        if white_score.abs() >= settings.win_score {
            winning = if winning.0 == leader {
                (leader, winning.1 + 1)
            } else {
                (leader, 1)
            };
            if winning.1 >= settings.win_plies {
                break winner(leader);
            }
        } else {
            winning.1 = 0;
        }
        quiet = if white_score.abs() <= settings.draw_score {
            quiet + 1
        } else {
            0
        };
        if scored.len() >= settings.draw_after && quiet >= settings.draw_plies {
            break GameResult::Draw;
        }
        pos = pos.play_unchecked(outcome.best);
        keys.push(pos.key());
    };
    GameRecord {
        index,
        result,
        opening,
        scored,
    }
}

fn winner(color: Color) -> GameResult {
    match color {
        Color::White => GameResult::WhiteWins,
        Color::Black => GameResult::BlackWins,
    }
}

/// A random opening whose searched score is within the balance window,
/// with the position it reaches and the game's keys so far. Openings that
/// end the game or lean too far are thrown away and redrawn.
fn balanced_opening(
    rng: &mut SplitMix64,
    settings: &SelfPlaySettings,
    tt: &mut TranspositionTable,
) -> (Vec<Move>, Position, Vec<u64>) {
    let (min, max) = settings.random_plies;
    loop {
        let plies = min + rng.below(u64::from(max.saturating_sub(min)) + 1) as u32;
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        let mut keys = vec![pos.key()];
        for _ in 0..plies {
            let legal = legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            let mv = legal.as_slice()[rng.below(legal.len() as u64) as usize];
            pos = pos.play_unchecked(mv);
            moves.push(mv);
            keys.push(pos.key());
        }
        if moves.len() < plies as usize || legal_moves(&pos).is_empty() {
            continue;
        }
        let outcome = think(&pos, &keys, settings.nodes, tt);
        if outcome.score.abs() <= settings.balanced_within {
            return (moves, pos, keys);
        }
    }
}

/// The search of one move: `keys` are the game's keys up to and including
/// `pos` (the search wants those before it).
fn think(pos: &Position, keys: &[u64], nodes: u64, tt: &mut TranspositionTable) -> Outcome {
    let limits = Limits::nodes(nodes);
    let history = &keys[..keys.len() - 1];
    search::search(pos, history, tt, &limits, &Signals::default(), &mut |_| {})
}

/// Fifty moves, threefold repetition, or mating material gone.
fn is_draw_by_rule(pos: &Position, keys: &[u64]) -> bool {
    if pos.halfmove_clock() >= 100 || insufficient_material(pos) {
        return true;
    }
    let key = pos.key();
    let window = (pos.halfmove_clock() as usize + 1).min(keys.len());
    keys[keys.len() - window..]
        .iter()
        .filter(|&&k| k == key)
        .count()
        >= 3
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replays a record and checks every move is legal where it was played.
    fn replay_is_legal(game: &GameRecord) -> bool {
        let mut pos = Position::startpos();
        for mv in game
            .opening
            .iter()
            .chain(game.scored.iter().map(|(mv, _)| mv))
        {
            if !legal_moves(&pos).as_slice().contains(mv) {
                return false;
            }
            pos = pos.play_unchecked(*mv);
        }
        true
    }

    #[test]
    fn games_are_legal_reproducible_and_depend_on_the_index() {
        let settings = SelfPlaySettings {
            nodes: 300,
            max_plies: 60,
            ..SelfPlaySettings::default()
        };
        let mut tt = TranspositionTable::new(1).unwrap();
        let first = play_game(7, 0, &settings, &mut tt);
        let again = play_game(7, 0, &settings, &mut tt);
        let other = play_game(7, 1, &settings, &mut tt);
        assert_eq!(first, again);
        assert_ne!(first.opening, other.opening);
        for game in [&first, &other] {
            assert!((8..=12).contains(&game.opening.len()));
            assert!(!game.scored.is_empty() && game.scored.len() <= 60);
            assert!(replay_is_legal(game));
        }
    }

    #[test]
    fn threefold_repetition_is_a_draw_but_twofold_is_not() {
        let pos = Position::startpos();
        let k = pos.key();
        assert!(!is_draw_by_rule(&pos, &[k]));
        let mut moved = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 8 20").unwrap();
        let key = moved.key();
        assert!(!is_draw_by_rule(&moved, &[key, 1, 2, 3, key]));
        assert!(is_draw_by_rule(&moved, &[key, 1, 2, 3, key, 4, 5, 6, key]));
        moved = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 100 80").unwrap();
        assert!(is_draw_by_rule(&moved, &[moved.key()]));
    }
}
