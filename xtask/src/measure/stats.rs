//! The statistics every wall-time comparison is summarised with: the
//! median of paired rounds, a distribution-free interval for it, ties,
//! tiers and a flag for bimodal readings.
//!
//! Why order statistics rather than a bootstrap: with 7 to 15 rounds a
//! bootstrap interval is itself noisy and depends on a seed, while the
//! binomial interval for a median is exact for any distribution and needs
//! nothing but the sorted rounds. Its coverage is stated with the figure
//! (98.4 % for 7 rounds: the interval is then the range).

use serde::{Deserialize, Serialize};

/// The coverage the interval aims at (at least this much).
pub const CONFIDENCE: f64 = 0.95;

/// The median of `values` (the mean of the middle two for an even count).
pub fn median(values: &[f64]) -> f64 {
    let mut v: Vec<f64> = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// P(B <= k) for B ~ Binomial(n, 1/2).
fn binomial_cdf_half(n: usize, k: usize) -> f64 {
    let mut total = 0.0;
    let mut c = 1.0f64; // C(n, 0)
    for i in 0..=k.min(n) {
        total += c;
        c = c * (n - i) as f64 / (i + 1) as f64;
    }
    total / 2f64.powi(n as i32)
}

/// A median with its interval: `[lo, hi]` holds the true median with
/// probability `coverage` (order statistics of the binomial, any
/// distribution).
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub median: f64,
    pub lo: f64,
    pub hi: f64,
    /// The interval's exact coverage (at least [`CONFIDENCE`] when there
    /// are 6 rounds or more; below that the range is the best there is).
    pub coverage: f64,
}

impl Interval {
    /// The median of `values` and the widest-needed order-statistic
    /// interval around it: `[x(k), x(n+1-k)]` for the largest `k` whose
    /// two tails together stay within `1 - CONFIDENCE`.
    pub fn of(values: &[f64]) -> Interval {
        let mut v: Vec<f64> = values.to_vec();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        if n == 0 {
            return Interval {
                median: f64::NAN,
                lo: f64::NAN,
                hi: f64::NAN,
                coverage: 0.0,
            };
        }
        let mut k = 1;
        while k < n.div_ceil(2) && 2.0 * binomial_cdf_half(n, k) <= 1.0 - CONFIDENCE {
            k += 1;
        }
        let coverage = 1.0 - 2.0 * binomial_cdf_half(n, k - 1);
        Interval {
            median: median(&v),
            lo: v[k - 1],
            hi: v[n - k],
            coverage,
        }
    }

    /// Whether the interval holds 1.0: a ratio that is a tie.
    pub fn is_tie(&self) -> bool {
        self.lo <= 1.0 && self.hi >= 1.0
    }
}

/// Whether `values` look like two clusters rather than one spread: the
/// widest gap between neighbours (in log space, so ratios and times read
/// alike) splits them into two groups of at least two, is wider than 10 %,
/// and is at least twice as wide as either group's own range. Such a
/// reading is flagged on the page with every round shown, never averaged.
pub fn is_bimodal(values: &[f64]) -> bool {
    let mut v: Vec<f64> = values
        .iter()
        .copied()
        .filter(|x| *x > 0.0)
        .map(f64::ln)
        .collect();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n < 4 {
        return false;
    }
    let (split, gap) = (2..=n - 2)
        .map(|i| (i, v[i] - v[i - 1]))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .expect("n >= 4");
    let low = v[split - 1] - v[0];
    let high = v[n - 1] - v[split];
    gap > 0.10f64.ln_1p() && gap >= 2.0 * low.max(high)
}

/// Tiers of items sorted best first by their median, so that no interval
/// in one tier overlaps an interval in another: a tier ends only where
/// every interval above lies wholly beyond every interval below. Items that
/// chain into each other stay in one tier (they cannot be told apart).
/// Returns the tier number (1 = best) of each item, in the input's order.
pub fn tiers(items: &[Interval], higher_is_better: bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| {
        let o = items[a].median.total_cmp(&items[b].median);
        if higher_is_better { o.reverse() } else { o }
    });
    // In "better" orientation: the worst edge of everything above a cut
    // must beat the best edge of everything below it.
    let worst = |i: &Interval| if higher_is_better { i.lo } else { -i.hi };
    let best = |i: &Interval| if higher_is_better { i.hi } else { -i.lo };
    let n = order.len();
    let mut below_best = vec![f64::NEG_INFINITY; n + 1];
    for k in (0..n).rev() {
        below_best[k] = below_best[k + 1].max(best(&items[order[k]]));
    }
    let mut tier_of = vec![0; n];
    let mut tier = 1;
    let mut above_worst = f64::INFINITY;
    for k in 0..n {
        tier_of[order[k]] = tier;
        above_worst = above_worst.min(worst(&items[order[k]]));
        if above_worst > below_best[k + 1] {
            tier += 1;
        }
    }
    tier_of
}

/// The geometric mean of positive values (`None` when one is missing or
/// not positive).
pub fn geomean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let mut sum = 0.0;
    let mut count = 0;
    for v in values {
        if !(v.is_finite() && v > 0.0) {
            return None;
        }
        sum += v.ln();
        count += 1;
    }
    (count > 0).then(|| (sum / count as f64).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(&[]).is_nan());
    }

    #[test]
    fn seven_rounds_give_the_range_at_98_percent() {
        let i = Interval::of(&[1.1, 1.3, 1.2, 1.0, 1.25, 1.15, 1.05]);
        assert_eq!((i.lo, i.median, i.hi), (1.0, 1.15, 1.3));
        assert!((i.coverage - (1.0 - 2.0 / 128.0)).abs() < 1e-12);
        assert!(i.is_tie());
    }

    #[test]
    fn nine_rounds_drop_one_round_each_side() {
        let v: Vec<f64> = (1..=9).map(f64::from).collect();
        let i = Interval::of(&v);
        assert_eq!((i.lo, i.median, i.hi), (2.0, 5.0, 8.0));
        assert!(i.coverage >= CONFIDENCE && i.coverage < 0.97);
        assert!(!i.is_tie());
    }

    #[test]
    fn bimodal_readings_are_flagged_and_spread_is_not() {
        assert!(is_bimodal(&[1.0, 1.02, 1.01, 0.5, 0.51, 1.03]));
        assert!(!is_bimodal(&[1.0, 1.05, 1.1, 1.15, 1.2, 1.25]));
        assert!(!is_bimodal(&[1.0, 1.02, 1.01, 0.5, 1.03]));
    }

    #[test]
    fn tiers_split_only_where_intervals_part() {
        let iv = |lo, median, hi| Interval {
            median,
            lo,
            hi,
            coverage: 0.98,
        };
        let items = [
            iv(0.95, 1.0, 1.05),
            iv(0.9, 0.97, 1.0),
            iv(0.7, 0.75, 0.8),
            iv(0.72, 0.8, 0.85),
        ];
        assert_eq!(tiers(&items, true), vec![1, 1, 2, 2]);
        // A chain of overlaps is one tier, even where its ends are apart.
        let chain = [
            iv(0.95, 1.0, 1.05),
            iv(0.9, 0.97, 1.0),
            iv(0.7, 0.75, 0.8),
            iv(0.72, 0.8, 0.91),
        ];
        assert_eq!(tiers(&chain, true), vec![1, 1, 1, 1]);
        let times = [iv(1.0, 1.1, 1.2), iv(1.3, 1.4, 1.5)];
        assert_eq!(tiers(&times, false), vec![1, 2]);
    }

    #[test]
    fn geomean_needs_positive_values() {
        assert!((geomean([1.0, 4.0]).unwrap() - 2.0).abs() < 1e-12);
        assert_eq!(geomean([1.0, 0.0]), None);
        assert_eq!(geomean([]), None);
    }
}
