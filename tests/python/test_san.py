#!/usr/bin/env python3
"""Quince's SAN against python-chess's, move for move.

Random playouts with a fixed seed, from the standard start position and from
Chess960 starts, give a few thousand positions; for each, `quince moves --fen
FEN --json` (with --chess960 and a python-chess Chess960 FEN, X-FEN or
Shredder-FEN, for the Chess960 ones) must list exactly python-chess's legal
moves, each with exactly python-chess's `Board.san` text, keyed by the UCI
text python-chess writes. A few fixed positions add the rare cases random
play seldom reaches (three queens needing a full-square origin).

Run with the release binary as QUINCE (default target/release/quince):
    QUINCE=target/release/quince python3 tests/python/test_san.py
Sizes: SAN_STANDARD (default 2000) and SAN_CHESS960 (default 1000) positions.
Prints one summary line; fails with the first mismatch.
"""
import collections
import concurrent.futures
import json
import os
import pathlib
import random
import subprocess
import sys
import time

import chess

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("QUINCE", str(ROOT / "target" / "release" / "quince"))
STANDARD = int(os.environ.get("SAN_STANDARD", "2000"))
CHESS960 = int(os.environ.get("SAN_CHESS960", "1000"))
SEED = 20240607

# Positions random play seldom reaches.
FIXED = [
    # Four queens: moves to b2 and b3 need a file, a rank or the full square.
    "8/7k/8/8/Q1Q5/8/8/Q1Q1K3 w - - 0 1",
    # Rooks on one file and one rank, knights on both, e.p. with check.
    "4k3/8/8/3pP3/8/1N3N2/8/R3K2R w KQ d6 0 1",
    "R6R/4k3/8/8/8/8/8/R3K3 w - - 0 1",
    "N3N3/8/N3N3/7k/8/8/8/4K3 w - - 0 1",
    # Capture-promotions with check and mate.
    "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
    "1r4k1/P4ppp/8/8/8/8/8/4K3 w - - 0 1",
]
# Chess960 castling where the king stays put (g1 with the h1 rook) or a
# rook stands on the king's destination (b1 king, a1 rook: c1-d1), or the
# rook stays put (f8 rook, e8 king: g8-f8).
FIXED_CHESS960 = [
    "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1",
    "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",
    "2r1kr2/2p2p2/8/8/8/8/2P2P2/2R1KR2 b CFcf - 0 1",
]


def playout_positions(rng, count, chess960):
    """`count` distinct boards from random games, each position kept with
    probability 1/8 so that early, middle and late positions all appear."""
    seen = set()
    boards = []
    while len(boards) < count:
        if chess960:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
        else:
            board = chess.Board()
        while len(boards) < count and not board.is_game_over() and board.ply() < 300:
            if rng.randrange(8) == 0:
                key = board.fen()
                if key not in seen:
                    seen.add(key)
                    boards.append(board.copy(stack=False))
            board.push(rng.choice(list(board.legal_moves)))
    return boards


def expected(board):
    return {board.uci(move): board.san(move) for move in board.legal_moves}


def quince_moves(fen, chess960):
    command = [BINARY, "moves", "--fen", fen, "--json"]
    if chess960:
        command.append("--chess960")
    result = subprocess.run(command, capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        return None, f"exit {result.returncode}: {result.stderr.strip()}"
    value = json.loads(result.stdout)
    listed = [(m["uci"], m["san"]) for m in value["moves"]]
    moves = dict(listed)
    if len(moves) != len(listed):
        return None, f"a move listed twice: {listed}"
    return moves, None


def main():
    start = time.monotonic()
    rng = random.Random(SEED)
    cases = [(fen, chess.Board(fen), False) for fen in FIXED]
    cases += [(fen, chess.Board(fen, chess960=True), True) for fen in FIXED_CHESS960]
    assert all(board.is_valid() for _, board, _ in cases), "a fixed FEN is not a valid position"
    for board in playout_positions(rng, STANDARD, chess960=False):
        cases.append((board.fen(), board, False))
    for i, board in enumerate(playout_positions(rng, CHESS960, chess960=True)):
        # Alternate X-FEN (KQkq where the rook is the outermost) and Shredder-FEN.
        cases.append((board.fen(shredder=i % 2 == 1), board, True))

    compared = 0
    tally = collections.Counter()
    workers = max(2, os.cpu_count() or 2)
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        results = pool.map(lambda case: quince_moves(case[0], case[2]), cases)
        for (fen, board, chess960), (got, error) in zip(cases, results):
            flag = " --chess960" if chess960 else ""
            if error is not None:
                sys.exit(f"FAIL quince moves --fen '{fen}'{flag}: {error}")
            want = expected(board)
            if got != want:
                missing = sorted(set(want) - set(got))
                extra = sorted(set(got) - set(want))
                differ = sorted((u, got[u], want[u]) for u in set(got) & set(want) if got[u] != want[u])
                sys.exit(
                    f"FAIL quince moves --fen '{fen}'{flag}\n"
                    f"  first differing (uci, quince, python-chess): {differ[:1]}\n"
                    f"  missing: {missing[:5]}  extra: {extra[:5]}"
                )
            compared += len(want)
            for move in board.legal_moves:
                text = want[board.uci(move)]
                tally["Chess960 castling" if chess960 else "castling"] += board.is_castling(move)
                tally["e.p."] += board.is_en_passant(move)
                tally["promotions"] += move.promotion is not None
                tally["mates"] += text.endswith("#")
                tally["checks"] += text.endswith("+")
                tally["disambiguated"] += len(text.rstrip("+#").split("=")[0].replace("x", "")) > 3
    standard = STANDARD + len(FIXED)
    chess960 = CHESS960 + len(FIXED_CHESS960)
    print(
        f"SAN matches python-chess {chess.__version__}: {len(cases)} positions "
        f"({standard} standard, {chess960} Chess960), {compared} moves compared "
        f"in {time.monotonic() - start:.1f} s ("
        + ", ".join(f"{n} {what}" for what, n in sorted(tally.items()))
        + ")"
    )


if __name__ == "__main__":
    main()
