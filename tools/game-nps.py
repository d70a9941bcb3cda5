#!/usr/bin/env python3
"""Compares the search speed of UCI engine builds on game positions.

Each engine searches the same positions from an opening file to the same
node count (`go nodes N`), so every build does identical work when the
search is deterministic; the score is nodes per second over all positions.
Builds run in turn, several rounds, so that drift in the machine's load
hits them all alike. Unlike `quince bench` (the PGO training set), these
positions are the ones games start from.

    tools/game-nps.py --nodes 300000 --positions 40 --rounds 3 NAME=PATH ...
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from match_game import load_openings  # noqa: E402


def measure(path, fens, nodes):
    proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def wait_for(prefix):
        for line in proc.stdout:
            if line.startswith(prefix):
                return line
        raise RuntimeError(f"{path} exited before '{prefix}'")

    send("uci")
    wait_for("uciok")
    send("setoption name Hash value 64")
    total_nodes = 0
    elapsed = 0.0
    for fen in fens:
        send("ucinewgame")
        send(f"position fen {fen}")
        send("isready")
        wait_for("readyok")
        start = time.perf_counter()
        send(f"go nodes {nodes}")
        searched = 0
        for line in proc.stdout:
            if line.startswith("info") and " nodes " in line:
                searched = int(line.split(" nodes ")[1].split()[0])
            if line.startswith("bestmove"):
                break
        elapsed += time.perf_counter() - start
        total_nodes += searched
    send("quit")
    proc.wait(timeout=10)
    return total_nodes, elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engines", nargs="+", help="NAME=PATH of each build")
    parser.add_argument("--openings", default="tools/openings.epd")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--nodes", type=int, default=300000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    fens = [board.fen() for _, board in load_openings(args.openings)]
    # Evenly spaced through the file (every 12th of 500 for 40), not its first lines.
    fens = fens[::max(1, len(fens) // args.positions)][: args.positions]
    engines = []
    for spec in args.engines:
        if "=" not in spec:
            sys.exit(f"error: '{spec}' is not NAME=PATH")
        engines.append(spec.split("=", 1))
    rates = {name: [] for name, _ in engines}
    node_counts = {}
    for round_index in range(args.rounds):
        for name, path in engines:
            nodes, seconds = measure(path, fens, args.nodes)
            rates[name].append(nodes / seconds)
            node_counts.setdefault(name, nodes)
            print(f"round {round_index + 1} {name}: {nodes} nodes, {nodes / seconds:,.0f} nodes/s",
                  file=sys.stderr)
    base = statistics.median(rates[engines[0][0]])
    print(f"{'build':<16} {'median nodes/s':>15} {'vs first':>9} {'nodes':>11}")
    for name, _ in engines:
        median = statistics.median(rates[name])
        print(f"{name:<16} {median:>15,.0f} {median / base:>8.3f}x {node_counts[name]:>11}")


if __name__ == "__main__":
    main()
