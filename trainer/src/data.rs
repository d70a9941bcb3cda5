//! Training samples: `.qdg` games replayed by the engine's own code into
//! compact feature lists with a target, split into training and validation
//! by game so one game's positions never sit on both sides.

use crate::inputs::InputLayout;
use quince::datagen::format::read_games;
use quince::datagen::training_positions;
use quince::{Color, Piece, Position};

/// Most pieces a legal position has.
pub const MAX_FEATURES: usize = 32;

/// One position as the network sees it: the active features seen by the
/// side to move (`ours`) and by its opponent (`theirs`), and the target.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub ours: [u16; MAX_FEATURES],
    pub theirs: [u16; MAX_FEATURES],
    pub len: u8,
    /// The win probability to learn, for the side to move.
    pub target: f32,
}

impl Sample {
    pub fn ours(&self) -> &[u16] {
        &self.ours[..self.len as usize]
    }

    pub fn theirs(&self) -> &[u16] {
        &self.theirs[..self.len as usize]
    }
}

/// The active features of `pos` seen by `perspective` under `layout`.
pub fn features(pos: &Position, perspective: Color, layout: &InputLayout) -> Vec<u16> {
    let king = pos.king(perspective).index();
    let mut out = Vec::with_capacity(MAX_FEATURES);
    for color in Color::ALL {
        for piece in Piece::ALL {
            for square in pos.colored(color, piece) {
                out.push(layout.feature(perspective, king, color, piece, square.index()) as u16);
            }
        }
    }
    out
}

/// `sample` mirrored left to right (files a and h swapped). The inputs
/// do not include castling rights, so a position and its mirror image
/// should evaluate alike: adding mirrors doubles the data and teaches that
/// symmetry instead of leaving it to chance. Only for the plain 768 inputs
/// ([`InputLayout::NONE`]): a king-dependent layout's indices do not mirror
/// by flipping files (and a mirrored layout has the symmetry built in).
pub fn mirrored(sample: &Sample) -> Sample {
    let mut m = *sample;
    for f in m.ours.iter_mut().chain(m.theirs.iter_mut()) {
        *f ^= 7;
    }
    m
}

/// The logistic curve mapping centipawns to a win probability.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Centipawns per unit of the network's output (the engine's `SCALE`).
pub const SCALE: f32 = 400.0;

/// A sample of `pos`: the target blends the search score's win
/// probability with the game's result, `wdl` being the result's weight.
pub fn sample(
    pos: &Position,
    stm_score: f32,
    stm_result: f32,
    wdl: f32,
    layout: &InputLayout,
) -> Sample {
    let us = pos.side_to_move();
    let ours = features(pos, us, layout);
    let theirs = features(pos, us.flip(), layout);
    let mut s = Sample {
        ours: [0; MAX_FEATURES],
        theirs: [0; MAX_FEATURES],
        len: ours.len() as u8,
        target: (1.0 - wdl) * sigmoid(stm_score / SCALE) + wdl * stm_result,
    };
    s.ours[..ours.len()].copy_from_slice(&ours);
    s.theirs[..theirs.len()].copy_from_slice(&theirs);
    s
}

/// Samples from `.qdg` files, split by game: games whose index is a
/// multiple of `valid_every` go to validation.
pub struct DataSet {
    pub train: Vec<Sample>,
    pub valid: Vec<Sample>,
    pub games: usize,
    /// Positions in the files before filtering (checks, captures, mates).
    pub scored: usize,
    /// Games won by White, drawn, won by Black.
    pub results: [usize; 3],
}

/// Reads and replays every game of `paths` into samples of `layout`'s
/// features.
pub fn load(
    paths: &[String],
    wdl: f32,
    valid_every: u32,
    layout: &InputLayout,
) -> Result<DataSet, String> {
    let mut set = DataSet {
        train: Vec::new(),
        valid: Vec::new(),
        games: 0,
        scored: 0,
        results: [0; 3],
    };
    for path in paths {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        let (games, _) = read_games(&bytes).map_err(|e| format!("{path}: {e}"))?;
        for game in &games {
            set.games += 1;
            set.scored += game.scored.len();
            set.results[2 - game.result as usize] += 1;
            let positions = training_positions(game).map_err(|e| format!("{path}: {e}"))?;
            let into = if game.index % valid_every == 0 {
                &mut set.valid
            } else {
                &mut set.train
            };
            for p in positions {
                let white = p.position.side_to_move() == Color::White;
                let sign = if white { 1.0 } else { -1.0 };
                let result = game.result.white_score();
                let stm_result = if white { result } else { 1.0 - result };
                into.push(sample(
                    &p.position,
                    sign * f32::from(p.white_score),
                    stm_result,
                    wdl,
                    layout,
                ));
            }
        }
    }
    if set.train.is_empty() {
        return Err("no training positions in the data".into());
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's layout, from the constants its network generated.
    fn engine_layout() -> InputLayout {
        InputLayout {
            king_buckets: quince::eval::nnue::KING_BUCKETS,
            mirrored: quince::eval::nnue::MIRRORED,
        }
    }

    #[test]
    fn features_match_the_engine() {
        let layout = engine_layout();
        assert_eq!(layout.inputs(), quince::eval::nnue::INPUTS);
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            for perspective in Color::ALL {
                let mut ours = features(&pos, perspective, &layout);
                let mut engine: Vec<u16> = Vec::new();
                let king = pos.king(perspective);
                for color in Color::ALL {
                    for piece in Piece::ALL {
                        for square in pos.colored(color, piece) {
                            engine.push(quince::eval::nnue::feature(
                                perspective,
                                king,
                                color,
                                piece,
                                square,
                            ) as u16);
                        }
                    }
                }
                ours.sort_unstable();
                engine.sort_unstable();
                assert_eq!(ours, engine, "{fen}");
            }
        }
        // Without king buckets a white pawn on e2 is feature 12 for White
        // and an opponent's pawn on e7 (flipped) for Black.
        let plain = InputLayout::NONE;
        assert_eq!(
            plain.feature(Color::White, 4, Color::White, Piece::Pawn, 12),
            12
        );
        assert_eq!(
            plain.feature(Color::Black, 60, Color::White, Piece::Pawn, 12),
            384 + 52
        );
    }

    #[test]
    fn targets_blend_score_and_result() {
        let pos = Position::startpos();
        let none = &InputLayout::NONE;
        assert!((sample(&pos, 0.0, 1.0, 0.0, none).target - 0.5).abs() < 1e-6);
        assert!((sample(&pos, 0.0, 1.0, 1.0, none).target - 1.0).abs() < 1e-6);
        let s = sample(&pos, 400.0, 0.0, 0.25, none);
        assert!((s.target - 0.75 * sigmoid(1.0)).abs() < 1e-6);
        assert_eq!(s.len, 32);
    }
}
