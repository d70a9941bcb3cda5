#!/usr/bin/env python3
"""A small match runner: two engines, python-chess in the middle.

* Openings come from BOOK, a few balanced main lines; each is played twice
  with colours swapped, so neither engine profits from a lucky opening.
* The runner keeps the clocks: it times every move itself (wall clock around
  the engine call) and an engine whose clock runs out loses on time.
* Games end by the rules only: checkmate, stalemate, insufficient material,
  threefold repetition and the fifty-move rule (claimed at once).
* An illegal or missing move loses the game and is counted.
* Output: W/D/L for engine A, its score and the Elo difference with a 95 %
  margin (normal approximation over game results), and a PGN file.
* With `--sprt ELO0,ELO1` the match is a sequential probability ratio test
  (alpha = beta = 0.05): after every game the log-likelihood ratio of
  "A is ELO1 stronger" against "A is ELO0 stronger" is updated, and the match
  stops as soon as it crosses a bound (H1 accepted: the change helps; H0:
  it does not) or `--games` is reached (inconclusive). This is how a change
  to the search or evaluation is tested: the new build as A, the old as B,
  e.g. `--sprt 0,10 --games 2000`.

Fairy-Max speaks xboard and announces `feature setboard=0`; python-chess
refuses such engines because it needs `setboard` for arbitrary start
positions. Every game here starts from the standard position (the book
moves are sent as moves), so StandardStartXBoard accepts the feature and
refuses any game that would need `setboard`.

Example (see reports/strength.md):
    tools/match.py --a target/release/quince --b /usr/games/fairymax --b-proto xboard \\
        --games 20 --tc 10+0.1 --pgn reports/quince-fairymax.pgn
"""
import argparse
import datetime
import math
import sys
import time

import chess
import chess.engine
import chess.pgn

# Balanced main lines (UCI moves), each played with both colours.
BOOK = [
    ("Ruy Lopez", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6"),
    ("Italian", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6"),
    ("Sicilian Najdorf", "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6"),
    ("French", "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6 c1g5 f8e7"),
    ("Caro-Kann", "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5"),
    ("Queen's Gambit Declined", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7"),
    ("Slav", "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6 b1c3 d5c4"),
    ("King's Indian", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6"),
    ("Queen's Indian", "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6 g2g3 c8b7"),
    ("English", "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6 g2g3 d7d5"),
    ("Reti", "g1f3 d7d5 g2g3 g8f6 f1g2 e7e6 e1g1 f8e7"),
    ("Pirc", "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6 g1f3 f8g7"),
]


class _TolerantFeatures(dict):
    """Stores `setboard=0` as accepted (see the module notes)."""

    def __setitem__(self, key, value):
        if key == "setboard" and value in (0, "0"):
            value = 1
        super().__setitem__(key, value)


class StandardStartXBoard(chess.engine.XBoardProtocol):
    """xboard protocol for engines without `setboard`, standard start only."""

    def __init__(self):
        super().__init__()
        self.features = _TolerantFeatures()

    async def play(self, board, limit, **kwargs):
        if board.root().fen() != chess.STARTING_FEN or board.chess960:
            raise chess.engine.EngineError("this engine cannot set up positions (setboard=0)")
        return await super().play(board, limit, **kwargs)


class Player:
    def __init__(self, command, proto, options, name=None):
        self.command = command
        if proto == "uci":
            self.engine = chess.engine.SimpleEngine.popen_uci(command, timeout=30)
        else:
            self.engine = chess.engine.SimpleEngine.popen(StandardStartXBoard, command, timeout=30)
        if options:
            self.engine.configure(options)
        self.name = name or self.engine.id.get("name", command)
        self.nps = []

    def close(self):
        try:
            self.engine.quit()
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError):
            pass


def parse_options(pairs):
    options = {}
    for pair in pairs or []:
        key, _, value = pair.partition("=")
        if value.lower() in ("true", "false"):
            options[key] = value.lower() == "true"
        else:
            try:
                options[key] = int(value)
            except ValueError:
                options[key] = value
    return options


def play_game(white, black, opening, base, inc, stats, game_id):
    """One game; returns (result, termination, pgn game)."""
    board = chess.Board()
    for uci in opening[1].split():
        board.push_uci(uci)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    players = {chess.WHITE: white, chess.BLACK: black}
    result, termination = None, "normal"
    while result is None:
        if board.is_game_over(claim_draw=True):
            outcome = board.outcome(claim_draw=True)
            result, termination = outcome.result(), outcome.termination.name.lower()
            break
        side = board.turn
        player = players[side]
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK], white_inc=inc, black_inc=inc
        )
        start = time.monotonic()
        try:
            played = player.engine.play(board, limit, game=game_id, info=chess.engine.INFO_BASIC)
            move = played.move
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            move, played = None, None
            print(f"  {player.name}: {error}", file=sys.stderr)
        elapsed = time.monotonic() - start
        clocks[side] -= elapsed
        if clocks[side] < 0:
            stats["time_losses"][player.name] = stats["time_losses"].get(player.name, 0) + 1
            result, termination = ("0-1" if side == chess.WHITE else "1-0"), "time forfeit"
            break
        if move is None or move not in board.legal_moves:
            stats["illegal"][player.name] = stats["illegal"].get(player.name, 0) + 1
            result, termination = ("0-1" if side == chess.WHITE else "1-0"), "illegal move"
            break
        clocks[side] += inc
        if played is not None and played.info.get("nps"):
            player.nps.append(played.info["nps"])
        board.push(move)
    game = chess.pgn.Game.from_board(board)
    game.headers.update(
        {
            "Event": "Quince match",
            "Date": datetime.date.today().strftime("%Y.%m.%d"),
            "White": white.name,
            "Black": black.name,
            "Result": result,
            "Opening": opening[0],
            "TimeControl": f"{base:g}+{inc:g}",
            "Termination": termination,
        }
    )
    return result, termination, game


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def elo_with_margin(wins, draws, losses):
    n = wins + draws + losses
    p = (wins + draws / 2) / n
    variance = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p**2) / n
    sigma = math.sqrt(variance / n)
    low, high = elo(p - 1.96 * sigma), elo(p + 1.96 * sigma)
    return elo(p), (high - low) / 2


def expected_score(elo_diff):
    return 1 / (1 + 10 ** (-elo_diff / 400))


def sprt_llr(wins, draws, losses, elo0, elo1):
    """Log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0).

    The generalised SPRT in its normal approximation: with the per-game
    score mean m and variance v measured from the games so far, and s0, s1
    the scores the two hypotheses expect, LLR = n (s1 - s0)(2m - s0 - s1) / (2v).
    """
    n = wins + draws + losses
    if n == 0 or wins + losses == 0:
        return 0.0
    m = (wins + draws / 2) / n
    v = (wins * (1 - m) ** 2 + draws * (0.5 - m) ** 2 + losses * m**2) / n
    if v <= 0:
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)


def sprt_bounds(alpha=0.05, beta=0.05):
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", required=True, help="engine A command (the one being measured)")
    parser.add_argument("--a-proto", choices=["uci", "xboard"], default="uci")
    parser.add_argument("--a-opt", action="append", help="engine A option NAME=VALUE (repeatable)")
    parser.add_argument("--b", required=True, help="engine B command")
    parser.add_argument("--b-proto", choices=["uci", "xboard"], default="uci")
    parser.add_argument("--b-opt", action="append", help="engine B option NAME=VALUE (repeatable)")
    parser.add_argument("--b-name", help="name of engine B in the PGN (e.g. 'Stockfish Elo 2000')")
    parser.add_argument("--games", type=int, default=20, help="number of games (even: each opening twice)")
    parser.add_argument("--tc", default="10+0.1", help="base seconds + increment seconds")
    parser.add_argument("--pgn", default="match.pgn")
    parser.add_argument(
        "--sprt", metavar="ELO0,ELO1", help="stop when an SPRT (alpha = beta = 0.05) of ELO0 against ELO1 decides"
    )
    args = parser.parse_args()
    sprt = None
    if args.sprt:
        try:
            elo0, elo1 = (float(x) for x in args.sprt.split(","))
        except ValueError:
            parser.error("--sprt wants two Elo values, e.g. --sprt 0,10")
        if elo1 <= elo0:
            parser.error("--sprt: ELO1 must be larger than ELO0")
        sprt = (elo0, elo1, *sprt_bounds())

    base, _, inc = args.tc.partition("+")
    base, inc = float(base), float(inc or 0)
    for name, line in BOOK:
        board = chess.Board()
        for uci in line.split():
            board.push_uci(uci)  # raises on a bad book line
    a = Player(args.a, args.a_proto, parse_options(args.a_opt))
    b = Player(args.b, args.b_proto, parse_options(args.b_opt), name=args.b_name)
    stats = {"time_losses": {}, "illegal": {}}
    wins = draws = losses = 0
    terminations = {}
    verdict = None
    try:
        with open(args.pgn, "w") as pgn:
            for index in range(args.games):
                opening = BOOK[(index // 2) % len(BOOK)]
                a_white = index % 2 == 0
                white, black = (a, b) if a_white else (b, a)
                result, termination, game = play_game(white, black, opening, base, inc, stats, index)
                print(game, file=pgn, end="\n\n")
                pgn.flush()
                a_score = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
                if not a_white:
                    a_score = 1 - a_score
                wins += a_score == 1.0
                draws += a_score == 0.5
                losses += a_score == 0.0
                terminations[termination] = terminations.get(termination, 0) + 1
                print(
                    f"game {index + 1:3}/{args.games}: {white.name} - {black.name} {result} "
                    f"({opening[0]}, {termination})   {a.name}: +{wins} ={draws} -{losses}",
                    flush=True,
                )
                if sprt:
                    elo0, elo1, lower, upper = sprt
                    llr = sprt_llr(wins, draws, losses, elo0, elo1)
                    print(f"  SPRT [{elo0:g}, {elo1:g}]: LLR {llr:+.2f} (bounds {lower:.2f}, {upper:.2f})", flush=True)
                    if llr >= upper or llr <= lower:
                        verdict = "H1 accepted (A is stronger)" if llr >= upper else "H0 accepted (no gain)"
                        break
    finally:
        a.close()
        b.close()
    n = wins + draws + losses
    if n == 0:
        return 1
    print()
    print(f"{a.name} vs {b.name}, {n} games at {args.tc}")
    print(f"W/D/L: {wins}/{draws}/{losses}  score {(wins + draws / 2) / n * 100:.1f} %")
    if wins == n or losses == n:
        # No spread in the results: only a bound, from a half point less (more).
        bound = elo((n - 0.5) / n) if wins == n else elo(0.5 / n)
        print(f"Elo difference: {'>=' if wins == n else '<='} {bound:+.0f} (all games one way; no margin)")
    else:
        diff, margin = elo_with_margin(wins, draws, losses)
        print(f"Elo difference: {diff:+.0f} +- {margin:.0f} (95 %)")
    if sprt:
        elo0, elo1, lower, upper = sprt
        llr = sprt_llr(wins, draws, losses, elo0, elo1)
        print(f"SPRT [{elo0:g}, {elo1:g}]: LLR {llr:+.2f}, {verdict or 'inconclusive (games exhausted)'}")
    print(f"terminations: {terminations}")
    print(f"time losses: {stats['time_losses'] or 0}  illegal moves: {stats['illegal'] or 0}")
    if a.nps:
        print(f"{a.name} mean nps in games: {sum(a.nps) / len(a.nps):.0f}")
    print(f"PGN: {args.pgn}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
