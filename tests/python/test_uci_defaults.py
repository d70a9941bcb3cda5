#!/usr/bin/env python3
"""The engine's defaults as a GUI meets them: no `setoption` at all.

Every request below asks for a search (analysis, or a timed move), so each
must print at least one `info depth` line before a legal `bestmove`, and no
book move, whether or not Debian's `gnuchess-book` is installed at the
default `BookFile` path. CI's book stage runs this with the book installed
(QUINCE_EXPECT_BOOK=1 makes its absence an error there).

Usage: QUINCE=target/release/quince python3 tests/python/test_uci_defaults.py
"""
import os
import queue
import subprocess
import sys
import threading
import time

import chess

BINARY = os.environ.get("QUINCE", "target/release/quince")
DEBIAN_BOOK = "/usr/share/games/gnuchess/book.bin"


class Engine:
    """A raw UCI conversation: lines in, lines out, with timeouts."""

    def __init__(self):
        self.proc = subprocess.Popen([BINARY], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def until(self, prefix, timeout=30.0):
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no '{prefix}' within {timeout} s; saw {seen}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def check_search(name, lines, board):
    """The reply to one request: info lines from a search, a legal move, no book."""
    assert any(l.startswith("info depth") for l in lines), f"{name}: no search output: {lines}"
    assert not any("book move" in l for l in lines), f"{name}: answered from the book: {lines}"
    best = lines[-1].split()[1]
    assert chess.Move.from_uci(best) in board.legal_moves, f"{name}: illegal bestmove {best}"
    print(f"ok   {name}: {sum(l.startswith('info depth') for l in lines)} info lines, bestmove {best}")


def main():
    installed = os.path.isfile(DEBIAN_BOOK)
    print(f"Debian book at the default path: {'installed' if installed else 'absent'}")
    if os.environ.get("QUINCE_EXPECT_BOOK") == "1" and not installed:
        sys.exit(f"QUINCE_EXPECT_BOOK=1 but {DEBIAN_BOOK} is not there")
    engine = Engine()
    engine.send("uci")
    options = engine.until("uciok")
    assert "option name OwnBook type check default false" in options, options
    engine.send("isready")
    engine.until("readyok")
    start = chess.Board()
    after_e4 = chess.Board()
    after_e4.push_uci("e2e4")

    fixed = [
        ("go depth 3", "go depth 3"),
        ("go nodes 5000", "go nodes 5000"),
        ("go movetime 200", "go movetime 200"),
        ("go mate 2", "go mate 2"),
        ("go searchmoves", "go depth 3 searchmoves g1f3 d2d4"),
        ("go wtime/btime in the opening", "go wtime 10000 btime 10000 winc 100 binc 100"),
        ("go movestogo", "go wtime 5000 btime 5000 movestogo 20"),
    ]
    for name, command in fixed:
        engine.send("position startpos")
        engine.send(command)
        check_search(name, engine.until("bestmove"), start)

    # Requests that run until told: a bare go, infinite, and ponder.
    for name, command, finish in [
        ("bare go", "go", "stop"),
        ("go infinite", "go infinite", "stop"),
        ("go ponder + ponderhit", "go ponder wtime 3000 btime 3000", "ponderhit"),
    ]:
        engine.send("position startpos moves e2e4" if "ponder" in name else "position startpos")
        engine.send(command)
        time.sleep(0.3)
        engine.send(finish)
        check_search(name, engine.until("bestmove"), after_e4 if "ponder" in name else start)

    engine.send("setoption name MultiPV value 3")
    engine.send("position startpos")
    engine.send("go wtime 10000 btime 10000")
    lines = engine.until("bestmove")
    assert any(" multipv 3 " in l for l in lines), f"MultiPV 3: {lines}"
    check_search("MultiPV 3 with a clock", lines, start)
    engine.quit()
    print("UCI defaults: every analysis request searched")


if __name__ == "__main__":
    main()
