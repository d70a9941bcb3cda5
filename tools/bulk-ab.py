#!/usr/bin/env python3
"""Bulk perft of several `quince` binaries (and optionally Gigantua), whole
process against whole process, on the six standard positions.

Each round runs every binary once per position, in an order that rotates
each round, so drift of a shared machine falls on all of them alike. The
rate is the node count over the median time minus the median start-up time
(the same binary at depth 1). Prints one line per position with each
binary's Mnodes/s and the ratios of the first binary to the others.

    tools/bulk-ab.py --quince now=target/v3/release/quince \\
        --quince base=/tmp/quince-base --gigantua /tmp/giga_gcc --rounds 5

Build Quince as the lab does (`--no-default-features --features pext,cli`,
`RUSTFLAGS='-C target-cpu=x86-64-v3'`) and Gigantua with
`../shared/gigantua/build.sh`. The node counts come from the first Quince
binary and are passed to Gigantua, which exits non-zero when its own count
differs (this script then stops with an error).
"""
import argparse
import json
import statistics
import subprocess
import sys
import time

POSITIONS = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 7),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7),
    ("position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 6),
    ("position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 6),
    ("position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 6),
]


def timed(cmd):
    """Seconds the command took; exits with its stderr when it fails."""
    start = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as error:
        sys.exit(f"bulk-ab: cannot run {cmd[0]}: {error}")
    took = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"bulk-ab: {' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    return took, done.stdout


def main():
    parser = argparse.ArgumentParser(
        description="Bulk perft of quince binaries (and Gigantua), alternating, whole process.")
    parser.add_argument("--quince", action="append", required=True, metavar="NAME=PATH",
                        help="a quince binary to time (repeat; the first is the one compared)")
    parser.add_argument("--gigantua", metavar="PATH", help="a Gigantua binary to time as well")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per position (default 5)")
    parser.add_argument("--only", metavar="LABEL", action="append",
                        help="time only this position (repeat; labels: "
                        + ", ".join(label for label, _, _ in POSITIONS) + ")")
    parser.add_argument("--depth-offset", type=int, default=0,
                        help="added to every position's depth (e.g. -1 for a quick look)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    labels = [label for label, _, _ in POSITIONS]
    for label in args.only or []:
        if label not in labels:
            parser.error(f"--only: unknown position '{label}' (one of: {', '.join(labels)})")
    positions = [p for p in POSITIONS if not args.only or p[0] in args.only]
    engines = []
    for spec in args.quince:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            parser.error(f"--quince wants NAME=PATH, got '{spec}'")
        engines.append((name, "quince", path))
    if args.gigantua:
        engines.append(("gigantua", "gigantua", args.gigantua))

    def command(kind, path, fen, depth, nodes):
        if kind == "gigantua":
            return [path, fen, str(depth), str(nodes)]
        return [path, "perft", "--fen", fen, "-d", str(depth), "--json"]

    first = engines[0]
    for label, fen, depth in positions:
        depth = max(1, depth + args.depth_offset)
        nodes = json.loads(timed(command("quince", first[2], fen, depth, 0))[1])["nodes"]
        leaves = json.loads(timed(command("quince", first[2], fen, 1, 0))[1])["nodes"]
        runs = {name: [] for name, _, _ in engines}
        starts = {name: [] for name, _, _ in engines}
        for r in range(args.rounds):
            shift = r % len(engines)
            for name, kind, path in engines[shift:] + engines[:shift]:
                runs[name].append(timed(command(kind, path, fen, depth, nodes))[0])
                starts[name].append(timed(command(kind, path, fen, 1, leaves))[0])
        rate = {}
        for name in runs:
            net = statistics.median(runs[name]) - statistics.median(starts[name])
            rate[name] = nodes / net / 1e6 if net > 0 else float("nan")
        line = f"{label} d{depth} ({nodes} nodes): " + ", ".join(
            f"{name} {value:.0f}" for name, value in rate.items())
        ratios = ", ".join(f"{first[0]}/{name} {rate[first[0]] / rate[name]:.3f}"
                           for name in rate if name != first[0])
        print(f"{line} Mnodes/s; {ratios}", flush=True)


if __name__ == "__main__":
    main()
