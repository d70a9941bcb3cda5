#!/usr/bin/env python3
"""Quince's Syzygy options as a GUI meets them, over UCI.

Checks: the four options are announced; a SyzygyPath that is not a table
set gets an `info string error` and the engine keeps answering; a good one
gets `info string Syzygy: 70 files, up to 4 pieces`; an analysis of a
tablebase position reports `tbhits` and the table's winning score and
plays a move that keeps the win (python-chess's prober says so); a search
of a 5-piece position probes the 4-piece tables below the root; an empty
SyzygyPath unloads them.

    QUINCE=target/release/quince python3 tests/python/test_syzygy_uci.py [--tables DIR]

The tables come from `bash tools/syzygy-test-tables.sh`.
"""

import argparse
import os
import re
import subprocess
import sys

import chess
import chess.syzygy

BINARY = os.environ.get("QUINCE", "target/release/quince")


class Engine:
    def __init__(self):
        self.process = subprocess.Popen([BINARY], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix):
        """Lines up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit(f"test_syzygy_uci: the engine closed its output waiting for {prefix!r}: {lines[-5:]}")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def ask(self, line):
        """Sends `line` and `isready`; the lines before `readyok`."""
        self.send(line)
        self.send("isready")
        return self.until("readyok")[:-1]

    def quit(self):
        self.send("quit")
        self.process.wait(timeout=10)


def check(condition, message):
    if not condition:
        sys.exit(f"test_syzygy_uci: FAILED: {message}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="tests/data/syzygy/regular")
    args = parser.parse_args()
    tables = os.path.abspath(args.tables)
    check(os.path.isfile(os.path.join(tables, "KQvK.rtbw")), f"no tables in {tables}")
    oracle = chess.syzygy.open_tablebase(tables)

    engine = Engine()
    engine.send("uci")
    options = [line for line in engine.until("uciok") if line.startswith("option name Syzygy")]
    for name in ["SyzygyPath", "SyzygyProbeDepth", "SyzygyProbeLimit", "Syzygy50MoveRule"]:
        check(any(line.startswith(f"option name {name} ") for line in options), f"{name} not announced: {options}")

    answer = engine.ask("setoption name SyzygyPath value /no/such/directory")
    check(any(line.startswith("info string error: SyzygyPath") for line in answer), f"bad path: {answer}")

    answer = engine.ask(f"setoption name SyzygyPath value {tables}")
    check("info string Syzygy: 70 files, up to 4 pieces" in answer, f"good path: {answer}")

    # KQ v KR, white to move: the table says win; the engine must say so
    # too, count its probes, and play a move that keeps the win.
    fen = "8/8/3k4/8/8/5r2/8/KQ6 w - - 0 1"
    engine.send(f"position fen {fen}")
    engine.send("go movetime 300")
    lines = engine.until("bestmove")
    infos = [line for line in lines if line.startswith("info depth")]
    check(infos, f"no info lines: {lines}")
    last = infos[-1]
    hits = re.search(r" tbhits (\d+)", last)
    score = re.search(r" score cp (-?\d+)", last) or re.search(r" score mate (-?\d+)", last)
    check(hits and int(hits.group(1)) > 0, f"no tbhits: {last}")
    check(score and int(score.group(1)) > 0 and (" mate " in last or int(score.group(1)) > 19000), f"not a tablebase win: {last}")
    move = chess.Move.from_uci(lines[-1].split()[1])
    board = chess.Board(fen)
    check(move in board.legal_moves, f"illegal best move {move}")
    board.push(move)
    check(oracle.probe_wdl(board) == -2, f"{move} throws the win away")

    # Five pieces: no table for the root, but captures lead into the
    # 4-piece tables, which the search probes.
    engine.send("position fen 8/8/3k4/8/2r5/8/3R4/KQ6 w - - 0 1")
    engine.send("go depth 8")
    lines = engine.until("bestmove")
    probed = [line for line in lines if re.search(r" tbhits [1-9]", line)]
    check(probed, f"no probes below the root of a 5-piece position: {lines[-3:]}")

    answer = engine.ask("setoption name SyzygyPath value <empty>")
    check(not any("error" in line for line in answer), f"unloading: {answer}")
    engine.send(f"position fen {fen}")
    engine.send("go depth 6")
    lines = engine.until("bestmove")
    check(not any(" tbhits " in line for line in lines), "tbhits without tables")
    engine.quit()
    print("test_syzygy_uci: ok (options, errors, tbhits, a kept win, probes below the root, unloading)")


if __name__ == "__main__":
    main()
