//! Statistics: the formulas of `tools/sprt.py` (Elo and its 95 % margin
//! from a pentanomial or a W/D/L count, the GSPRT's log-likelihood ratio).

/// An Elo difference with its 95 % margin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Elo {
    pub estimate: f64,
    pub margin: f64,
    /// The interval reached a score of 0 or 1 (its end is unbounded).
    pub unbounded: bool,
}

/// The score a logistic Elo difference predicts.
pub fn expected_score(elo_diff: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo_diff / 400.0))
}

const SCORE_CLAMP: f64 = 1e-6;

/// The logistic Elo difference of a score in (0, 1).
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(SCORE_CLAMP, 1.0 - SCORE_CLAMP);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Mean, variance and count of a distribution given as counts over values.
fn moments(counts: &[u32], values: &[f64]) -> (f64, f64, u32) {
    let n: u32 = counts.iter().sum();
    if n == 0 {
        return (0.0, 0.0, 0);
    }
    let nf = n as f64;
    let mean = counts
        .iter()
        .zip(values)
        .map(|(&c, x)| c as f64 * x)
        .sum::<f64>()
        / nf;
    let var = counts
        .iter()
        .zip(values)
        .map(|(&c, x)| c as f64 * (x - mean).powi(2))
        .sum::<f64>()
        / nf;
    (mean, var, n)
}

const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

fn pentanomial_moments(ptnml: [u32; 5]) -> (f64, f64, u32) {
    moments(&ptnml, &PAIR_SCORES)
}

fn trinomial_moments(wdl: [u32; 3]) -> (f64, f64, u32) {
    moments(&[wdl[2], wdl[1], wdl[0]], &[0.0, 0.5, 1.0])
}

fn elo_interval((mean, var, n): (f64, f64, u32)) -> Option<Elo> {
    if n == 0 {
        return None;
    }
    let sigma = (var / n as f64).sqrt();
    let (low, high) = (mean - 1.96 * sigma, mean + 1.96 * sigma);
    Some(Elo {
        estimate: elo(mean),
        margin: (elo(high) - elo(low)) / 2.0,
        unbounded: low <= SCORE_CLAMP || high >= 1.0 - SCORE_CLAMP,
    })
}

/// Elo and its 95 % margin from a pentanomial count (`None` without pairs).
pub fn elo_estimate(ptnml: [u32; 5]) -> Option<Elo> {
    elo_interval(pentanomial_moments(ptnml))
}

/// Elo and its 95 % margin from W/D/L (`None` without games).
pub fn elo_estimate_trinomial(wdl: [u32; 3]) -> Option<Elo> {
    elo_interval(trinomial_moments(wdl))
}

fn llr((mean, var, n): (f64, f64, u32), elo0: f64, elo1: f64) -> f64 {
    if n == 0 || var <= 0.0 {
        return 0.0;
    }
    let (s0, s1) = (expected_score(elo0), expected_score(elo1));
    n as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// The GSPRT's log-likelihood ratio of H1 (elo1) against H0 (elo0).
pub fn sprt_llr(ptnml: [u32; 5], elo0: f64, elo1: f64) -> f64 {
    llr(pentanomial_moments(ptnml), elo0, elo1)
}

/// The same test from single games.
pub fn sprt_llr_trinomial(wdl: [u32; 3], elo0: f64, elo1: f64) -> f64 {
    llr(trinomial_moments(wdl), elo0, elo1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::matches::SprtBounds;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn statistics_agree_with_sprt_py() {
        // sprt.py's self-test.
        assert!(elo_estimate([5, 10, 20, 10, 5]).unwrap().estimate.abs() < 1e-9);
        assert!(elo_estimate([1, 5, 20, 10, 4]).unwrap().estimate > 0.0);
        assert!(sprt_llr([1, 5, 20, 10, 4], 0.0, 10.0) > 0.0);
        assert!(sprt_llr([4, 10, 20, 5, 1], 0.0, 10.0) < 0.0);
        assert_eq!(sprt_llr([0, 0, 30, 0, 0], 0.0, 5.0), 0.0);
        let b = SprtBounds {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lower, upper) = b.llr_bounds();
        assert!(close(lower, -2.944, 5e-4) && close(upper, 2.944, 5e-4));
        assert_eq!(
            elo_estimate_trinomial([50, 20, 30])
                .unwrap()
                .estimate
                .round(),
            70.0
        );
        // Figures the runner printed: v4 against Stockfish (200 games) and
        // the v3 SPRT (416 games, LLR 3.03).
        let v4 = elo_estimate([12, 16, 33, 27, 12]).unwrap();
        assert!(
            close(v4.estimate, 19.1, 0.05) && close(v4.margin, 40.3, 0.05),
            "{v4:?}"
        );
        let v3 = elo_estimate([12, 33, 72, 53, 38]).unwrap();
        assert!(
            close(v3.estimate, 60.7, 0.05) && close(v3.margin, 27.3, 0.05),
            "{v3:?}"
        );
        assert!(close(
            sprt_llr([12, 33, 72, 53, 38], 0.0, 10.0),
            3.03,
            0.005
        ));
        // The first runner's Fairy-Max match: 99/0/1, +798 +- 897, whose
        // upper end is unbounded.
        let fm = elo_estimate_trinomial([99, 0, 1]).unwrap();
        assert!(
            close(fm.estimate, 798.0, 0.5) && close(fm.margin, 897.0, 1.0),
            "{fm:?}"
        );
        assert!(fm.unbounded && !v4.unbounded);
    }
}
