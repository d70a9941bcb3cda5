#!/usr/bin/env python3
"""Checks the answers in tactics.json with python-chess, independently of
Quince's own move generator and search.

* mate in N: the solutions are exactly the first moves after which the
  side to move mates in at most N moves against every defence (brute force);
* material: the solutions are exactly the moves that win the most material
  within `depth` plies, by plain minimax on material (no pruning).
"""
import json
import pathlib
import sys

import chess

VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}


def mates_within(board: chess.Board, moves: int) -> bool:
    """Whether the side to move can force mate in at most `moves` moves."""
    for move in list(board.legal_moves):
        board.push(move)
        try:
            if board.is_checkmate():
                return True
            if moves > 1 and not board.is_game_over() and all(
                _reply_loses(board, reply, moves - 1) for reply in list(board.legal_moves)
            ):
                return True
        finally:
            board.pop()
    return False


def _reply_loses(board: chess.Board, reply: chess.Move, moves: int) -> bool:
    board.push(reply)
    try:
        return mates_within(board, moves)
    finally:
        board.pop()


def mating_first_moves(board: chess.Board, moves: int) -> set:
    found = set()
    for move in list(board.legal_moves):
        board.push(move)
        if board.is_checkmate():
            found.add(move.uci())
        elif moves > 1 and not board.is_game_over() and all(
            _reply_loses(board, reply, moves - 1) for reply in list(board.legal_moves)
        ):
            found.add(move.uci())
        board.pop()
    return found


def material(board: chess.Board, color: chess.Color) -> int:
    return sum(VALUE[p.piece_type] * (1 if p.color == color else -1) for p in board.piece_map().values())


def minimax(board: chess.Board, depth: int, color: chess.Color) -> int:
    if board.is_checkmate():
        return -1000 if board.turn == color else 1000
    if depth == 0 or board.is_game_over():
        return material(board, color)
    scores = []
    for move in list(board.legal_moves):
        board.push(move)
        scores.append(minimax(board, depth - 1, color))
        board.pop()
    return max(scores) if board.turn == color else min(scores)


def best_material_moves(board: chess.Board, depth: int) -> set:
    color = board.turn
    scored = {}
    for move in list(board.legal_moves):
        board.push(move)
        scored[move.uci()] = minimax(board, depth - 1, color)
        board.pop()
    best = max(scored.values())
    assert best > material(board, color), "the position must win material"
    return {m for m, s in scored.items() if s == best}


def main() -> int:
    path = pathlib.Path(__file__).with_name("tactics.json")
    failures = 0
    for case in json.loads(path.read_text()):
        board = chess.Board(case["fen"])
        if case["kind"] == "mate":
            assert not mates_within(board, case["depth"] - 1) if case["depth"] > 1 else True
            computed = mating_first_moves(board, case["depth"])
        else:
            computed = best_material_moves(board, case["depth"])
        ok = computed == set(case["solutions"])
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {case['name']}: expected {sorted(case['solutions'])}, computed {sorted(computed)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
