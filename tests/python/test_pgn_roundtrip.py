#!/usr/bin/env python3
"""PGN comments, NAGs, variations and null moves: Quince against python-chess.

Random games built with python-chess (seeded) and exported by it:

* with nested variations, comments and NAGs: `quince pgn --echo` prints
  every game as it read it; python-chess reads the echo back to the same
  games (the same export, variations, comments and NAGs included);
* mainline only, with comments, NAGs and null moves: `quince pgn --write`
  replays each game into a quince Game and writes it; python-chess reads
  that back to the same games.

Run with the release binary as QUINCE (default target/release/quince):
    QUINCE=target/release/quince python3 tests/python/test_pgn_roundtrip.py
Size: PGN_GAMES (default 300) games of each kind. Prints one summary line;
fails with the first game that differs.
"""
import io
import os
import pathlib
import random
import subprocess
import sys

import chess
import chess.pgn

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("QUINCE", str(ROOT / "target" / "release" / "quince"))
GAMES = int(os.environ.get("PGN_GAMES", "300"))
SEED = 20261129
WORDS = ["good", "better", "a threat", "only move", "the plan: Nd5", "why not?", "(sic)"]


def note(rng, node):
    if rng.random() < 0.3:
        node.comment = " ".join(rng.sample(WORDS, rng.randrange(1, 3)))
    if rng.random() < 0.2:
        node.nags.add(rng.randrange(1, 20))


def grow(rng, node, board, plies, depth, variations, nulls):
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            return
        if nulls and not board.is_check() and rng.random() < 0.05:
            move = chess.Move.null()
        else:
            move = rng.choice(moves)
        child = node.add_variation(move)
        note(rng, child)
        if variations and depth < 3 and len(moves) > 1 and rng.random() < 0.15:
            alternative = rng.choice([m for m in moves if m != move])
            side = node.add_variation(alternative)
            note(rng, side)
            side_board = board.copy()
            side_board.push(alternative)
            grow(rng, side, side_board, rng.randrange(1, 8), depth + 1, variations, nulls)
        board.push(move)
        node = child


def games(rng, variations, nulls):
    out = []
    for i in range(GAMES):
        game = chess.pgn.Game()
        game.headers["Event"] = f"round trip {i}"
        if rng.random() < 0.3:
            game.comment = "start"
        grow(rng, game, chess.Board(), rng.randrange(5, 70), 0, variations, nulls)
        # A game that ends in mate or stalemate says so (Quince writes the
        # result the board decides).
        end = game.end().board()
        if end.is_checkmate() or end.is_stalemate():
            game.headers["Result"] = end.result()
        out.append(game)
    return out


def export(games_list):
    return "\n\n".join(str(g) for g in games_list) + "\n"


def read_all(text):
    stream = io.StringIO(text)
    out = []
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            return out
        out.append(game)


def quince(flag, text):
    run = subprocess.run([BINARY, "pgn", flag, "-"], input=text, capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        sys.exit(f"quince pgn {flag} failed ({run.returncode}): {run.stderr.strip()}")
    return run.stdout


def compare(kind, original, text):
    back = read_all(text)
    if len(back) != len(original):
        sys.exit(f"{kind}: {len(back)} games read back, {len(original)} written")
    for i, (a, b) in enumerate(zip(original, back)):
        # The movetext as python-chess exports it, headers aside (--write
        # adds the Seven Tag Roster's defaults).
        ea = a.accept(chess.pgn.StringExporter(headers=False))
        eb = b.accept(chess.pgn.StringExporter(headers=False))
        if ea != eb:
            sys.exit(f"{kind}: game {i} differs\n python-chess: {ea}\n quince:       {eb}")


def main():
    rng = random.Random(SEED)
    with_variations = games(rng, variations=True, nulls=False)
    compare("--echo", with_variations, quince("--echo", export(with_variations)))
    mainline = games(rng, variations=False, nulls=True)
    compare("--write", mainline, quince("--write", export(mainline)))
    print(f"pgn round trip: {GAMES} games with variations (--echo) and {GAMES} with null moves (--write) read back equal")


if __name__ == "__main__":
    main()
