#!/usr/bin/env python3
"""SPSA tuning of Quince's search parameters through game pairs.

Simultaneous perturbation stochastic approximation, the way fishtest and
OpenBench tune engines: every iteration moves *all* chosen parameters at
once by a random sign each (theta + c_k * delta against theta - c_k *
delta), plays one pair of games between the two settings (colours
swapped, one opening from the set), and steps theta along delta by the
pair's result:

    theta_i += a_k / c_k * (points(+) - points(-)) * delta_i

with the usual schedules c_k = c / k^0.101 and a_k = a / (A + k)^0.602,
A = N / 10. As in fishtest, each parameter is given the perturbation it
should have at the end (`c_end`, by default a twentieth of its range) and
the learning rate there (`r_end` = a_k / c_k^2 at k = N, 0.002 unless
given); c and a follow from them and the planned number of iterations N.

The engine is a `--features tune` build of Quince, which offers every
constant of `src/search/params.rs` as a UCI spin option; each worker keeps
two processes of it and sets their options before each pair (one process
per side, so both games of a pair compare the same two settings).

Resumable: the first line of `--state` records the run's settings, every
finished iteration is appended (its k, signs, result), and theta is the
replay of that log, so a run started again with the same file carries on
where it stopped (the settings must match). The last line printed is
`summary: {json}` with the iterations played and the tuned values; the
tuned set is then proven by an SPRT of the commit that makes it the
default (tools/sprt-vs.sh), like every search change.

    cargo build --release --features tune --target-dir target/tune
    tools/spsa.py --engine target/tune/release/quince \\
        --params rfp_margin,futility_margin,lmr_divisor --iterations 2000 \\
        --state reports/spsa/margins.jsonl
"""
import argparse
import json
import os
import random
import sys
import threading

import chess
import chess.engine

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match_game as match  # noqa: E402  (the runner's game loop, players and openings)

ALPHA = 0.602
GAMMA = 0.101


def engine_params(command):
    """The spin options a tune build declares: {name: (default, min, max)}."""
    engine = chess.engine.SimpleEngine.popen_uci(command, timeout=30)
    try:
        found = {}
        for name, option in engine.options.items():
            if option.type == "spin" and name == name.lower():
                found[name] = (option.default, option.min, option.max)
        return found
    finally:
        engine.quit()


class Schedule:
    """The gains of one parameter along the planned iterations."""

    def __init__(self, lo, hi, iterations, c_end, r_end):
        self.lo, self.hi = lo, hi
        big_a = iterations / 10
        self.big_a = big_a
        self.c = c_end * iterations**GAMMA
        self.a = r_end * c_end**2 * (big_a + iterations) ** ALPHA

    def c_k(self, k):
        return self.c / k**GAMMA

    def a_k(self, k):
        return self.a / (self.big_a + k) ** ALPHA


class Tuner:
    """theta, its schedules, and the log that theta is the replay of."""

    def __init__(self, names, start, bounds, iterations, c_frac, r_end):
        self.names = names
        self.theta = [float(v) for v in start]
        self.schedules = [
            Schedule(lo, hi, iterations, max((hi - lo) * c_frac, 0.5), r_end) for lo, hi in bounds
        ]
        self.done = 0

    def perturbed(self, k, signs):
        """The two settings of iteration k: (theta + c delta, theta - c delta), integers in range."""
        plus, minus = {}, {}
        for name, value, sched, sign in zip(self.names, self.theta, self.schedules, signs):
            step = sched.c_k(k) * sign
            plus[name] = int(round(min(max(value + step, sched.lo), sched.hi)))
            minus[name] = int(round(min(max(value - step, sched.lo), sched.hi)))
        return plus, minus

    def apply(self, k, signs, result):
        """One iteration's step: result is points(+) - points(-) over the pair."""
        for i, (sched, sign) in enumerate(zip(self.schedules, signs)):
            value = self.theta[i] + sched.a_k(k) / sched.c_k(k) * result * sign
            self.theta[i] = min(max(value, sched.lo), sched.hi)
        self.done += 1

    def rounded(self):
        return {name: int(round(v)) for name, v in zip(self.names, self.theta)}


class Events:
    """What play_game reports: counted per side, for the summary."""

    def __init__(self):
        self.counts = {}
        self.lock = threading.Lock()

    def count(self, event, role):
        with self.lock:
            self.counts[event] = self.counts.get(event, 0) + 1

    def nps(self, role, value):
        pass


def points(result, white_is_plus):
    """Points of the + setting minus those of the - setting in one game."""
    if result == "1/2-1/2":
        return 0.0
    white_won = result == "1-0"
    return 1.0 if white_won == white_is_plus else -1.0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True, help="a `--features tune` build of quince")
    parser.add_argument("--params", required=True,
                        help="comma-separated parameter names (see `uci` of the engine), or 'all'")
    parser.add_argument("--iterations", type=int, required=True, help="planned iterations (game pairs)")
    parser.add_argument("--tc", default="2+0.02", help="base seconds + increment seconds (default 2+0.02)")
    parser.add_argument("--openings", default=os.path.join(os.path.dirname(__file__), "openings.epd"),
                        help="FEN file (default tools/openings.epd)")
    parser.add_argument("--concurrency", type=int, default=2, help="pairs at once (one per core)")
    parser.add_argument("--c-frac", type=float, default=0.05,
                        help="final perturbation as a fraction of each range (default 0.05)")
    parser.add_argument("--r-end", type=float, default=0.002, help="final learning rate (default 0.002)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the perturbation signs")
    parser.add_argument("--state", required=True, help="JSON-lines log: resumed from, appended to")
    args = parser.parse_args()
    try:
        tc = match.TimeControl.parse(args.tc)
    except ValueError as error:
        parser.error(f"--tc wants BASE+INC in seconds, e.g. 2+0.02: {error}")
    if tc.nodes:
        parser.error("--tc wants BASE+INC in seconds, e.g. 2+0.02: SPSA plays clocked games")
    if args.iterations < 1 or args.concurrency < 1:
        parser.error("--iterations and --concurrency must be positive")

    try:
        declared = engine_params(args.engine)
    except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
        sys.exit(f"cannot start {args.engine} as a UCI engine: {error}")
    if not declared:
        sys.exit(f"{args.engine} declares no search parameters: build it with --features tune")
    names = sorted(declared) if args.params == "all" else [n.strip() for n in args.params.split(",")]
    unknown = [n for n in names if n not in declared]
    if unknown:
        sys.exit(f"unknown parameters {unknown}; the engine has: {', '.join(sorted(declared))}")
    settings = {
        "params": names, "iterations": args.iterations, "tc": args.tc, "c_frac": args.c_frac,
        "r_end": args.r_end, "seed": args.seed, "start": {n: declared[n][0] for n in names},
    }
    tuner = Tuner(names, [declared[n][0] for n in names], [declared[n][1:] for n in names],
                  args.iterations, args.c_frac, args.r_end)
    finished = set()
    if os.path.exists(args.state):
        with open(args.state) as state:
            lines = [json.loads(line) for line in state if line.strip()]
        if not lines or lines[0].get("settings") != settings:
            sys.exit(f"{args.state} holds another run's settings: {lines[0] if lines else 'nothing'}")
        for record in lines[1:]:
            tuner.apply(record["k"], record["signs"], record["result"])
            finished.add(record["k"])
        print(f"resuming: {len(finished)} iterations already played", flush=True)
    else:
        os.makedirs(os.path.dirname(os.path.abspath(args.state)), exist_ok=True)
        with open(args.state, "w") as state:
            print(json.dumps({"settings": settings}), file=state)

    openings = match.load_openings(args.openings)
    todo = iter(k for k in range(1, args.iterations + 1) if k not in finished)
    events = Events()
    output = threading.Lock()
    spec = {"command": args.engine, "proto": "uci", "options": {}, "name": None}

    def worker():
        players = {}
        try:
            for side in ("+", "-"):
                players[side] = match.Player(dict(spec, name=f"quince {side}"))
                players[side].role = side
            while True:
                with output:
                    k = next(todo, None)
                    if k is None:
                        return
                    # The signs of iteration k depend on k alone: a resumed
                    # run replays the same experiment.
                    signs = [random.Random(f"{args.seed}:{k}:{n}").choice((-1, 1)) for n in names]
                    plus, minus = tuner.perturbed(k, signs)
                players["+"].engine.configure(plus)
                players["-"].engine.configure(minus)
                _, start = openings[(k - 1) % len(openings)]
                result = 0.0
                for plus_white in (True, False):
                    white, black = (players["+"], players["-"]) if plus_white else (players["-"], players["+"])
                    outcome, _, _ = match.play_game(white, black, start, tc, True, events, k)
                    result += points(outcome, plus_white)
                with output:
                    tuner.apply(k, signs, result)
                    with open(args.state, "a") as state:
                        print(json.dumps({"k": k, "signs": signs, "result": result}), file=state)
                    values = " ".join(f"{n}={v:.1f}" for n, v in zip(names, tuner.theta))
                    print(f"iteration {tuner.done:5}/{args.iterations} (k {k}) {result:+.0f}  {values}", flush=True)
        finally:
            for player in players.values():
                player.close()

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(args.concurrency)]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            while thread.is_alive():
                thread.join(0.5)
    except KeyboardInterrupt:
        print("interrupted: the log holds every finished iteration; run again to resume", file=sys.stderr)
    tuned = tuner.rounded()
    summary = {
        "iterations": tuner.done, "planned": args.iterations, "start": settings["start"], "tuned": tuned,
        "moved": {n: tuned[n] - settings["start"][n] for n in names if tuned[n] != settings["start"][n]},
        "events": events.counts,
    }
    print("options: " + " ".join(f"--a-opt {n}={v}" for n, v in tuned.items()))
    print("summary: " + json.dumps(summary), flush=True)
    return 0 if tuner.done else 1


if __name__ == "__main__":
    sys.exit(main())
