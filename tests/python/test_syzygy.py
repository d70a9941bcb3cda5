#!/usr/bin/env python3
"""Quince's Syzygy prober against python-chess's (`chess.syzygy`), position by position.

What it checks
--------------
For every table in the tables directory (each NAME.rtbw with its NAME.rtbz;
the 35 3- and 4-piece tables, KPvK to KRvKR), random positions with exactly
that material are generated (seeded, so every run sees the same ones) and
probed twice:

* by python-chess 1.11.2: `Tablebase.probe_wdl(board)` (-2 loss, -1 loss
  saved by the 50-move rule, 0 draw, 1 win spoiled by the 50-move rule,
  2 win; for the side to move) and `Tablebase.probe_dtz(board)` (distance to
  the next zeroing move, the sign of the WDL, with the table's rounding);
* by Quince: ONE run of `$QUINCE syzygy --path DIR --json` for the whole
  test, every FEN on its stdin, one per line; it prints one JSON object per
  input line, in order:
      {"fen": "...", "wdl": -2..2 or null, "dtz": int or null, "error": null or "text"}

Both answers must be equal for every position (a null or an error from
Quince is a mismatch).

The positions: which colour holds the first part of the table name is
chosen at random (KQvKR gives white KQ against black KR, or black KQ against
white KR), the side to move is random; pawns are never on ranks 1 and 8, the
kings never touch, the side not to move is never in check, no castling
rights, halfmove clock 0; python-chess's `Board.is_valid()` must accept the
position. For tables with pawns on both sides (KPvKP among these) one
position in eight is an en-passant position: an enemy pawn has just pushed
two squares (the square it passed and the square it left are empty, the FEN
names the e.p. square) next to a pawn of the side to move, and the position
is kept only when python-chess's `Board.has_legal_en_passant()` agrees that
the capture is legal. A position python-chess cannot probe (an exception
from probe_wdl or probe_dtz) is replaced by a fresh one and counted.

Per table it prints: the table, positions, e.p. positions, positions
regenerated because python-chess raised, python-chess's WDL counts
(-2/-1/0/1/2) and the mismatches. On any mismatch it prints the first 10
(FEN, python-chess wdl/dtz, Quince wdl/dtz/error) and exits 1. It prints the
total time at the end.

How to run it
-------------
The tables are not committed; tools/syzygy-test-tables.sh puts them in
tests/data/syzygy/regular/ (from python-chess 1.11.2's source package):

    bash tools/syzygy-test-tables.sh
    cargo build --release
    QUINCE=target/release/quince python3 tests/python/test_syzygy.py --positions 2000

Options:
    --tables DIR           the tables (default tests/data/syzygy/regular)
    --positions N          positions per table (default 2000)
    --seed S               the generator's seed (default 20261130); each
                           table draws from its own generator seeded with
                           S and the table name
    --fixture-only         python-chess only: generate and probe, skip Quince
                           (e.g. to time the oracle)
    --write-fixture PATH   write the positions with python-chess's answers
                           as JSON lines {"fen": ..., "wdl": ..., "dtz": ...}
                           (tables in name order, positions in generated
                           order) and do not run Quince. The committed
                           fixture of the Rust test `cargo test --test
                           syzygy`, tests/data/syzygy/probes.jsonl, is
                               python3 tests/python/test_syzygy.py --positions 40 \\
                                   --write-fixture tests/data/syzygy/probes.jsonl --fixture-only
The binary is QUINCE (default target/release/quince). .ci/stages/63-syzygy.sh
runs this with a smaller --positions.
"""
import argparse
import collections
import json
import os
import pathlib
import random
import subprocess
import sys
import time

import chess
import chess.syzygy

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("QUINCE", str(ROOT / "target" / "release" / "quince"))
DEFAULT_TABLES = ROOT / "tests" / "data" / "syzygy" / "regular"
DEFAULT_SEED = 20261130
EP_EVERY = 8  # one position in EP_EVERY is an e.p. position, where possible
SHOW = 10  # mismatches printed

PIECE = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
         "N": chess.KNIGHT, "P": chess.PAWN}
PAWN_SQUARES = [sq for sq in chess.SQUARES if 1 <= chess.square_rank(sq) <= 6]


class Table:
    """One table: its name and both sides' pieces (the name's first part, then the second)."""

    def __init__(self, name):
        first, second = name.split("v")
        self.name = name
        self.sides = ([PIECE[c] for c in first], [PIECE[c] for c in second])
        self.ep_possible = all(chess.PAWN in side for side in self.sides)


def place(rng, board, pieces, colour, reserved):
    """Put each of `pieces` for `colour` on a random empty square (pawns on ranks 2 to 7)."""
    for piece_type in pieces:
        pool = PAWN_SQUARES if piece_type == chess.PAWN else chess.SQUARES
        free = [sq for sq in pool if board.piece_at(sq) is None and sq not in reserved]
        board.set_piece_at(rng.choice(free), chess.Piece(piece_type, colour))


def acceptable(board):
    kings = [board.king(chess.WHITE), board.king(chess.BLACK)]
    return (chess.square_distance(*kings) > 1 and board.is_valid()
            and not impossible_double_check(board))


def impossible_double_check(board):
    """Two checking pawns or knights: no single move creates that, so
    Quince's FEN reader refuses it (python-chess's is_valid() lets it pass)."""
    checkers = board.checkers()
    return len(checkers) == 2 and all(
        board.piece_type_at(square) in (chess.PAWN, chess.KNIGHT) for square in checkers)


def random_position(rng, table):
    """A random valid position with the table's material (no e.p. square)."""
    while True:
        first_colour = rng.choice(chess.COLORS)
        board = chess.Board(None)
        board.turn = rng.choice(chess.COLORS)
        place(rng, board, table.sides[0], first_colour, ())
        place(rng, board, table.sides[1], not first_colour, ())
        if acceptable(board):
            return board


def ep_position(rng, table):
    """A random valid position with the table's material where the side to
    move can capture en passant: the enemy pawn has just pushed two squares."""
    while True:
        first_colour = rng.choice(chess.COLORS)
        turn = rng.choice(chess.COLORS)
        sides = {first_colour: list(table.sides[0]), not first_colour: list(table.sides[1])}
        sides[turn].remove(chess.PAWN)
        sides[not turn].remove(chess.PAWN)
        # White to move: the black pawn went from rank 7 to rank 5 (e.p. square
        # on rank 6); black to move: the white pawn from rank 2 to rank 4.
        file = rng.randrange(8)
        pushed_rank, ep_rank, from_rank = (4, 5, 6) if turn == chess.WHITE else (3, 2, 1)
        capturer_file = rng.choice([f for f in (file - 1, file + 1) if 0 <= f < 8])
        ep_square = chess.square(file, ep_rank)
        from_square = chess.square(file, from_rank)
        board = chess.Board(None)
        board.turn = turn
        board.set_piece_at(chess.square(file, pushed_rank), chess.Piece(chess.PAWN, not turn))
        board.set_piece_at(chess.square(capturer_file, pushed_rank), chess.Piece(chess.PAWN, turn))
        reserved = (ep_square, from_square)
        place(rng, board, sides[turn], turn, reserved)
        place(rng, board, sides[not turn], not turn, reserved)
        board.ep_square = ep_square
        if acceptable(board) and board.has_legal_en_passant():
            return board


def probe_table(tablebase, table, positions, seed):
    """The table's positions with python-chess's answers: a list of
    (fen, wdl, dtz, is_ep), and how many positions python-chess could not probe."""
    rng = random.Random(f"{seed}:{table.name}")
    out = []
    failures = []
    for index in range(positions):
        ep = table.ep_possible and index % EP_EVERY == EP_EVERY - 1
        while True:
            board = ep_position(rng, table) if ep else random_position(rng, table)
            try:
                wdl = tablebase.probe_wdl(board)
                dtz = tablebase.probe_dtz(board)
            except Exception as error:  # regenerate, but say so
                failures.append(f"{board.fen()}: {type(error).__name__}: {error}")
                continue
            break
        fen = board.fen()
        assert (fen.split()[3] != "-") == ep, fen  # the FEN names the e.p. square iff built so
        out.append((fen, wdl, dtz, ep))
    return out, failures


def run_quince(tables_dir, fens):
    command = [BINARY, "syzygy", "--path", str(tables_dir), "--json"]
    try:
        done = subprocess.run(command, input="".join(f + "\n" for f in fens),
                              capture_output=True, text=True, timeout=1800)
    except FileNotFoundError:
        sys.exit(f"test_syzygy: no Quince binary at {BINARY} (set QUINCE, or cargo build --release)")
    except subprocess.TimeoutExpired:
        sys.exit(f"test_syzygy: {' '.join(command)} ran past 30 minutes")
    if done.returncode != 0:
        sys.exit(f"test_syzygy: {' '.join(command)} exited {done.returncode}:\n{done.stderr[-4000:]}")
    lines = done.stdout.splitlines()
    if len(lines) != len(fens):
        sys.exit(f"test_syzygy: {len(fens)} FENs in, {len(lines)} lines out of Quince\n"
                 f"stderr: {done.stderr[-4000:]}")
    answers = []
    for fen, line in zip(fens, lines):
        try:
            answer = json.loads(line)
        except json.JSONDecodeError as error:
            sys.exit(f"test_syzygy: Quince's answer to {fen} is not JSON ({error}): {line!r}")
        if answer.get("fen") != fen:
            sys.exit(f"test_syzygy: out of order: sent {fen}, Quince answered for {answer.get('fen')!r}")
        answers.append(answer)
    return answers


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default=str(DEFAULT_TABLES), help="the tables' directory")
    parser.add_argument("--positions", type=int, default=2000, help="positions per table")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--fixture-only", action="store_true", help="python-chess only, no Quince")
    parser.add_argument("--write-fixture", metavar="PATH",
                        help="write the positions and python-chess's answers as JSON lines; no Quince")
    args = parser.parse_args()
    start = time.monotonic()

    tables_dir = pathlib.Path(args.tables)
    names = sorted(p.stem for p in tables_dir.glob("*.rtbw") if p.with_suffix(".rtbz").is_file())
    if not names:
        sys.exit(f"test_syzygy: no tables (NAME.rtbw with NAME.rtbz) in {tables_dir}; "
                 "bash tools/syzygy-test-tables.sh puts them in tests/data/syzygy/regular")
    tables = [Table(name) for name in names]

    results = {}
    failures = {}
    with chess.syzygy.open_tablebase(str(tables_dir)) as tablebase:
        for table in tables:
            results[table.name], failures[table.name] = probe_table(
                tablebase, table, args.positions, args.seed)
    oracle_time = time.monotonic() - start

    if args.write_fixture:
        with open(args.write_fixture, "w") as out:
            for table in tables:
                for fen, wdl, dtz, _ in results[table.name]:
                    out.write(json.dumps({"fen": fen, "wdl": wdl, "dtz": dtz}) + "\n")
        total = sum(len(r) for r in results.values())
        print(f"test_syzygy: wrote {total} positions to {args.write_fixture}")

    quince = None
    if not (args.fixture_only or args.write_fixture):
        fens = [fen for table in tables for fen, *_ in results[table.name]]
        answers = iter(run_quince(tables_dir, fens))
        quince = {table.name: [next(answers) for _ in results[table.name]] for table in tables}

    mismatches = []
    print(f"{'table':8} {'positions':>9} {'ep':>5} {'regen':>5}  {'wdl -2/-1/0/1/2':24} {'mismatches':>10}")
    for table in tables:
        rows = results[table.name]
        wdls = collections.Counter(wdl for _, wdl, _, _ in rows)
        spread = "/".join(str(wdls[w]) for w in (-2, -1, 0, 1, 2))
        bad = 0
        if quince is not None:
            for (fen, wdl, dtz, _), answer in zip(rows, quince[table.name]):
                if answer.get("error") is not None or answer.get("wdl") != wdl or answer.get("dtz") != dtz:
                    bad += 1
                    mismatches.append((fen, wdl, dtz, answer))
        shown = "-" if quince is None else str(bad)
        print(f"{table.name:8} {len(rows):9} {sum(r[3] for r in rows):5} "
              f"{len(failures[table.name]):5}  {spread:24} {shown:>10}")
    total = sum(len(r) for r in results.values())
    ep_total = sum(r[3] for rows in results.values() for r in rows)
    regenerated = [f for table in tables for f in failures[table.name]]
    print(f"total: {len(tables)} tables, {total} positions ({ep_total} e.p.), "
          f"{len(regenerated)} regenerated after a python-chess exception")
    for failure in regenerated[:SHOW]:
        print(f"  python-chess could not probe {failure}")

    elapsed = time.monotonic() - start
    print(f"time: {elapsed:.1f} s (python-chess: generating and probing {oracle_time:.1f} s)")
    if quince is None:
        print("test_syzygy: python-chess only (Quince not run)")
        return
    if mismatches:
        print(f"test_syzygy: {len(mismatches)} mismatches; the first {min(SHOW, len(mismatches))}:")
        for fen, wdl, dtz, answer in mismatches[:SHOW]:
            print(f"  {fen}\n    python-chess wdl {wdl} dtz {dtz}; Quince wdl {answer.get('wdl')} "
                  f"dtz {answer.get('dtz')}" + (f" error {answer['error']}" if answer.get("error") else ""))
        sys.exit(1)
    print(f"test_syzygy: ok, {total} positions, Quince equals python-chess")


if __name__ == "__main__":
    main()
