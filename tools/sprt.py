"""Match statistics: Elo with its margin and the SPRT, from game pairs.

Every opening is played twice with colours swapped (a *pair*), so the
natural unit of a match is the pair, not the game: the two games share an
opening and their results are correlated. Counting pairs by A's points
(0, 0.5, 1, 1.5, 2) gives the *pentanomial* distribution, whose variance
is smaller and more honest than one computed from single games as if they
were independent. Fishtest and OpenBench decide with it; so does Quince.

* `elo_estimate(ptnml)` gives the logistic Elo difference and its 95 %
  margin from the mean and variance of the per-pair score (the
  pentanomial variance).
* `sprt_llr(ptnml, elo0, elo1)` is the generalised SPRT's exact
  log-likelihood ratio, by maximum likelihood (Michel Van den Bergh's
  method, fishtest's LLRcalc). It is computed in one place, the xtask's
  `record::matches::stats`, which the pages use too: this module asks
  `xtask sprt` (built once per process with `cargo build --release -p
  xtask`; set QUINCE_XTASK to a built binary to skip that).

A trinomial (W/D/L) version of both is kept for matches of single games,
such as those against engines that cannot start from a position.
"""
import functools
import json
import math
import os
import shutil
import subprocess

_XTASK = None


def _xtask():
    """The path of a built xtask binary (built on first use)."""
    global _XTASK
    if _XTASK is None:
        given = os.environ.get("QUINCE_XTASK")
        if given:
            _XTASK = given
        else:
            root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
            if shutil.which("cargo") is None:
                # A machine that plays games but cannot build (seen: a
                # lent machine without Rust, where a finished match then
                # ended in a traceback): the games are already saved.
                raise SystemExit("error: tools/sprt.py needs the xtask binary for its statistics: "
                                 "set QUINCE_XTASK to a built one (cargo build --release -p xtask) "
                                 "or install cargo; the games played so far are saved")
            subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "xtask"],
                           cwd=root, check=True)
            target = os.path.join(root, os.environ.get("CARGO_TARGET_DIR", "target"))
            _XTASK = os.path.join(target, "release", "xtask")
    return _XTASK


@functools.lru_cache(maxsize=4096)
def _figures(flag, counts, elo0, elo1):
    """`xtask sprt`'s JSON for one count: llr, elo, margin, bounds."""
    out = subprocess.run(
        [_xtask(), "sprt", "--elo0", repr(float(elo0)), "--elo1", repr(float(elo1)),
         flag, ",".join(str(int(c)) for c in counts)],
        check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def _elo(flag, counts):
    figures = _figures(flag, tuple(counts), 0.0, 0.0)
    if figures["elo"] is None:
        return None
    return figures["elo"], figures["margin"]


def elo_estimate(ptnml):
    """(Elo, 95 % margin) from a pentanomial count, or None without pairs."""
    return _elo("--ptnml", ptnml)


def elo_estimate_trinomial(wdl):
    """(Elo, 95 % margin) from W/D/L, or None without games."""
    return _elo("--wdl", wdl)


def sprt_llr(ptnml, elo0, elo1):
    """Exact log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0)."""
    return _figures("--ptnml", tuple(ptnml), elo0, elo1)["llr"]


def sprt_llr_trinomial(wdl, elo0, elo1):
    """The same test from single games (W/D/L)."""
    return _figures("--wdl", tuple(wdl), elo0, elo1)["llr"]


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
    # Pairs that are all 1-1 sit at 0 Elo: a little evidence for H0.
    assert -0.5 < sprt_llr([0, 0, 30, 0, 0], 0, 5) < 0
    # A published fishtest run (as fastchess's tests quote it): -3.07.
    assert round(sprt_llr([223, 9863, 21279, 10037, 246], 0.5, 2.5), 2) == -3.07
    lower, upper = sprt_bounds()
    assert round(lower, 3) == -2.944 and round(upper, 3) == 2.944
    # 60 % over single games is about +70 Elo.
    assert round(elo_estimate_trinomial((50, 20, 30))[0]) == 70
    print("sprt.py self-test passed")


if __name__ == "__main__":
    _self_test()
