#!/usr/bin/env python3
"""Generates a set of balanced opening positions for engine matches.

Each position is the start position followed by a few random legal moves
(seeded, so a set can be regenerated exactly), kept only when a short
search by an engine scores it within +-MAX_CP centipawns for the side to
move and it has not been seen before. Random plies reach far more varied
positions than a handful of book lines, which is what an SPRT needs: a
change is tested on hundreds of different middlegames, not on twelve.

The output is one FEN per line (EPD-style, with the move counters), which
`tools/match.py --openings` reads; every position is played twice, once
with each engine as White.

    tools/openings.py --engine target/release/quince --count 500 \\
        --out tools/openings.epd
"""
import argparse
import random
import sys

import chess
import chess.engine


def random_line(rng, plies):
    """The position after `plies` random legal moves, or None if the game
    ended on the way (mate or stalemate in a random line)."""
    board = chess.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            return None
        board.push(rng.choice(moves))
    if board.is_game_over(claim_draw=True):
        return None
    return board


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True, help="UCI engine that scores the candidates")
    parser.add_argument("--count", type=int, default=500, help="positions to keep")
    parser.add_argument("--plies", default="8,9", help="random plies: one number or MIN,MAX")
    parser.add_argument("--depth", type=int, default=8, help="search depth for the balance check")
    parser.add_argument("--max-cp", type=int, default=100, help="keep |score| <= this (centipawns)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (the set is reproducible)")
    parser.add_argument("--out", required=True, help="output file, one FEN per line")
    args = parser.parse_args()
    low, _, high = args.plies.partition(",")
    try:
        low, high = int(low), int(high or low)
    except ValueError:
        parser.error("--plies wants a number or MIN,MAX")
    if not 1 <= low <= high or args.count < 1 or args.depth < 1:
        parser.error("--plies, --count and --depth must be positive (MIN <= MAX)")

    rng = random.Random(args.seed)
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    if "OwnBook" in engine.options:  # a book move carries no score
        engine.configure({"OwnBook": False})
    kept, seen, tried = [], set(), 0
    try:
        while len(kept) < args.count:
            tried += 1
            board = random_line(rng, rng.randint(low, high))
            if board is None:
                continue
            epd = board.epd()
            if epd in seen:
                continue
            seen.add(epd)
            info = engine.analyse(board, chess.engine.Limit(depth=args.depth))
            score = info["score"].relative
            if score.is_mate() or abs(score.score()) > args.max_cp:
                continue
            kept.append(board.fen())
            if len(kept) % 50 == 0:
                print(f"{len(kept)}/{args.count} kept of {tried} tried", file=sys.stderr, flush=True)
    finally:
        engine.quit()
    with open(args.out, "w") as out:
        for fen in kept:
            print(fen, file=out)
    print(f"wrote {len(kept)} positions to {args.out} ({tried} tried, seed {args.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
