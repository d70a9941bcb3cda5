//! `quince-train wdl`: fits the win/draw/loss model that `UCI_ShowWDL`
//! reports (`quince::search::wdl`) to the data sets: each sampled
//! position's searched score and material against how its game ended,
//! by maximum likelihood, and writes the fit as a record.
//!
//! The likelihood of the four constants is that of every sampled
//! position's result (win, draw or loss for the side to move) under the
//! model; it is maximised by gradient ascent (central differences, a
//! backtracking step), which four parameters and a smooth likelihood allow
//! without more machinery.

use quince::Color;
use quince::datagen::format::read_games;
use quince::datagen::training_positions;
use quince::search::wdl::{WdlModel, material_share};
use serde_json::json;

/// One sampled position: score and material (side to move) and its game's
/// result for the side to move (0 loss, 1 draw, 2 win).
pub struct Point {
    score: f64,
    material: f64,
    outcome: usize,
}

/// Every `every`-th training position of the games in `paths`, with the
/// number of games read.
pub fn points(paths: &[String], every: usize) -> Result<(Vec<Point>, usize), String> {
    let mut out = Vec::new();
    let mut games_read = 0;
    let mut seen = 0usize;
    for path in paths {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        let (games, _) = read_games(&bytes).map_err(|e| format!("{path}: {e}"))?;
        for game in &games {
            games_read += 1;
            for p in training_positions(game).map_err(|e| format!("{path}: {e}"))? {
                seen += 1;
                if !seen.is_multiple_of(every) {
                    continue;
                }
                let white = p.position.side_to_move() == Color::White;
                let white_outcome = game.result as usize; // 0 black won, 1 draw, 2 white won
                out.push(Point {
                    score: f64::from(p.white_score) * if white { 1.0 } else { -1.0 },
                    material: material_share(&p.position),
                    outcome: if white {
                        white_outcome
                    } else {
                        2 - white_outcome
                    },
                });
            }
        }
    }
    if out.is_empty() {
        return Err("no positions in the data".into());
    }
    Ok((out, games_read))
}

/// Mean log-likelihood of the points' results under `model`.
fn mean_log_likelihood(model: &WdlModel, points: &[Point]) -> f64 {
    let total: f64 = points
        .iter()
        .map(|p| {
            let [win, draw, loss] = model.probabilities(p.score, p.material);
            let chance = match p.outcome {
                2 => win,
                1 => draw,
                _ => loss,
            };
            chance.max(1e-12).ln()
        })
        .sum();
    total / points.len() as f64
}

fn model(p: [f64; 4]) -> WdlModel {
    WdlModel {
        a: [p[0], p[1]],
        b: [p[2], p[3]],
    }
}

/// The maximum-likelihood model, from a start of `a = 100, b = 100`, with
/// its mean log-likelihood and the ascent steps it took (it stops when a
/// step gains nothing, or after [`MAX_STEPS`]).
pub fn fit(points: &[Point]) -> (WdlModel, f64, usize) {
    let mut p = [100.0, 0.0, 100.0, 0.0];
    let mut ll = mean_log_likelihood(&model(p), points);
    // Each parameter moves on the scale of centipawns.
    let scale = [100.0f64; 4];
    let mut steps = 0;
    for _ in 0..MAX_STEPS {
        steps += 1;
        let mut grad = [0.0; 4];
        for i in 0..4 {
            let h = 1e-3 * scale[i];
            let (mut up, mut down) = (p, p);
            up[i] += h;
            down[i] -= h;
            grad[i] = (mean_log_likelihood(&model(up), points)
                - mean_log_likelihood(&model(down), points))
                / (2.0 * h);
        }
        let mut step = 1.0;
        let mut improved = false;
        while step > 1e-6 {
            let mut q = p;
            for i in 0..4 {
                q[i] += step * grad[i] * scale[i] * scale[i];
            }
            let next = mean_log_likelihood(&model(q), points);
            if next > ll {
                improved = next - ll > 1e-10;
                p = q;
                ll = next;
                break;
            }
            step *= 0.5;
        }
        if !improved {
            break;
        }
    }
    (model(p), ll, steps)
}

/// The most ascent steps [`fit`] takes.
pub const MAX_STEPS: usize = 2000;

/// Runs `quince-train wdl`: fits and writes the record to `out`.
pub fn run(data: &[String], every: usize, out: &std::path::Path) -> Result<(), String> {
    let (points, games) = points(data, every)?;
    let draws = points.iter().filter(|p| p.outcome == 1).count();
    eprintln!(
        "wdl: {} positions from {games} games ({draws} from drawn games); fitting",
        points.len()
    );
    let (fitted, ll, steps) = fit(&points);
    // A model that knows nothing of the score: every position gets the
    // data's own win, draw and loss shares.
    let share =
        |k: usize| points.iter().filter(|p| p.outcome == k).count() as f64 / points.len() as f64;
    let blind: f64 = (0..3)
        .map(|k| {
            let s = share(k);
            if s > 0.0 { s * s.ln() } else { 0.0 }
        })
        .sum();
    let record = json!({
        "kind": "wdl-model",
        "about": "UCI_ShowWDL's model (quince::search::wdl): P(win) = sigmoid((s - a) / b), P(loss) = sigmoid((-s - a) / b), a = a0 + a1 m, b = b0 + b1 m, s the score in centipawns and m the material share, both for the side to move; fitted by maximum likelihood on the data sets' game results by `quince-train wdl`",
        "a": fitted.a,
        "b": fitted.b,
        "data": data,
        "sample_every": every,
        "command": std::env::args().collect::<Vec<_>>().join(" "),
        "ascent_steps": steps,
        "converged": steps < MAX_STEPS,
        "games": games,
        "positions": points.len(),
        "mean_log_likelihood": ll,
        "mean_log_likelihood_without_the_score": blind,
    });
    let text = serde_json::to_string_pretty(&record).map_err(|e| e.to_string())? + "\n";
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "a = {:.2} + {:.2} m, b = {:.2} + {:.2} m; mean log-likelihood {ll:.4} (without the score {blind:.4}); wrote {}",
        fitted.a[0],
        fitted.a[1],
        fitted.b[0],
        fitted.b[1],
        out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results drawn from a known model are fitted back to it.
    #[test]
    fn the_fit_recovers_a_known_model() {
        let truth = WdlModel {
            a: [120.0, 40.0],
            b: [90.0, -20.0],
        };
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut uniform = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let points: Vec<Point> = (0..60_000)
            .map(|_| {
                let score = (uniform() - 0.5) * 1200.0;
                let material = uniform();
                let [win, draw, _] = truth.probabilities(score, material);
                let r = uniform();
                let outcome = if r < win {
                    2
                } else if r < win + draw {
                    1
                } else {
                    0
                };
                Point {
                    score,
                    material,
                    outcome,
                }
            })
            .collect();
        let (fitted, _, _) = fit(&points);
        assert!((fitted.a[0] - 120.0).abs() < 15.0, "{fitted:?}");
        assert!((fitted.b[0] - 90.0).abs() < 15.0, "{fitted:?}");
        assert!(
            (fitted.a[0] + fitted.a[1] - 160.0).abs() < 20.0,
            "{fitted:?}"
        );
    }
}
