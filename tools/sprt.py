"""Match statistics: Elo with its margin and the SPRT, from game pairs.

Every opening is played twice with colours swapped (a *pair*), so the
natural unit of a match is the pair, not the game: the two games share an
opening and their results are correlated. Counting pairs by A's points
(0, 0.5, 1, 1.5, 2) gives the *pentanomial* distribution, whose variance
is smaller and more honest than one computed from single games as if they
were independent. Fishtest and OpenBench decide with it; so does Quince.

* `elo_estimate(ptnml)` gives the logistic Elo difference and its 95 %
  margin from the mean and variance of the per-pair score.
* `sprt_llr(ptnml, elo0, elo1)` is the generalised SPRT in its normal
  approximation (Michel Van den Bergh's GSPRT, as in fishtest):
  LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v), with m and v the per-pair
  score's mean and variance, N the number of pairs, and s0, s1 the scores
  that Elo differences elo0 and elo1 predict.

A trinomial (W/D/L) version of both is kept for matches of single games,
such as those against engines that cannot start from a position.
"""
import math

PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)


def expected_score(elo_diff):
    """The score a logistic Elo difference predicts."""
    return 1 / (1 + 10 ** (-elo_diff / 400))


def elo(score):
    """The logistic Elo difference of a score in (0, 1)."""
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def _moments(counts, values):
    """Mean and variance of a distribution given as counts over values."""
    n = sum(counts)
    if n == 0:
        return 0.0, 0.0, 0
    mean = sum(c * x for c, x in zip(counts, values)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, values)) / n
    return mean, var, n


def pentanomial_moments(ptnml):
    """Per-pair score (0, 1/4, ..., 1) mean, variance and number of pairs."""
    return _moments(ptnml, [p / 2 for p in PAIR_POINTS])


def trinomial_moments(wdl):
    """Per-game score mean, variance and number of games from (W, D, L)."""
    wins, draws, losses = wdl
    return _moments((losses, draws, wins), (0.0, 0.5, 1.0))


def _elo_interval(mean, var, n):
    if n == 0:
        return None
    sigma = math.sqrt(var / n)
    low, high = elo(mean - 1.96 * sigma), elo(mean + 1.96 * sigma)
    return elo(mean), (high - low) / 2


def elo_estimate(ptnml):
    """(Elo, 95 % margin) from a pentanomial count, or None without pairs."""
    return _elo_interval(*pentanomial_moments(ptnml))


def elo_estimate_trinomial(wdl):
    """(Elo, 95 % margin) from W/D/L, or None without games."""
    return _elo_interval(*trinomial_moments(wdl))


def _llr(mean, var, n, elo0, elo1):
    if n == 0 or var <= 0:
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def sprt_llr(ptnml, elo0, elo1):
    """Log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0)."""
    return _llr(*pentanomial_moments(ptnml), elo0, elo1)


def sprt_llr_trinomial(wdl, elo0, elo1):
    """The same test from single games (W/D/L)."""
    return _llr(*trinomial_moments(wdl), elo0, elo1)


def sprt_bounds(alpha=0.05, beta=0.05):
    """(lower, upper) LLR bounds: below lower accept H0, above upper H1."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _self_test():
    # A pair count that is symmetric scores exactly even.
    assert abs(elo_estimate([5, 10, 20, 10, 5])[0]) < 1e-9
    # More wins than losses: positive Elo, and an SPRT leaning to H1.
    assert elo_estimate([1, 5, 20, 10, 4])[0] > 0
    assert sprt_llr([1, 5, 20, 10, 4], 0, 10) > 0
    assert sprt_llr([4, 10, 20, 5, 1], 0, 10) < 0
    # Pairs that are all 1-1 have no variance: no evidence either way.
    assert sprt_llr([0, 0, 30, 0, 0], 0, 5) == 0.0
    lower, upper = sprt_bounds()
    assert round(lower, 3) == -2.944 and round(upper, 3) == 2.944
    # 60 % over single games is about +70 Elo.
    assert round(elo_estimate_trinomial((50, 20, 30))[0]) == 70
    print("sprt.py self-test passed")


if __name__ == "__main__":
    _self_test()
