"""Engines and games for tools/match.py (and tools/spsa.py, tools/game-nps.py):
one engine process per player, one game between two of them with the
runner's clocks and adjudication, and the openings they start from.
"""
import asyncio
import concurrent.futures
import datetime
import os
import sys
import time

import chess
import chess.engine
import chess.pgn


# Balanced main lines (UCI moves), for engines that cannot set up a position.
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

RESIGN_CP, RESIGN_PLIES = 1000, 6
DRAW_CP, DRAW_PLIES, DRAW_FROM_PLY = 10, 12, 80
# Seconds an engine may run past its clock before it is taken for hung.
HANG_GRACE = 5.0
# Seconds a fixed-node move may take before the engine is taken for hung:
# far beyond any node count a test uses (Quince searches over a million
# nodes a second), so only a hang reaches it.
FIXED_NODES_DEADLINE = 60.0


class TimeControl:
    """How long each move may think: a clock (`BASE+INC` seconds, kept by
    the runner) or a fixed node count per move (`nodes=N`, no clock).

    Fixed nodes is the test of an evaluation-only change: both engines
    search the same tree size, so a gain is what the evaluation knows and
    not what its speed buys (which is measured apart, in nodes per second),
    and a game costs no more wall time than its nodes take.
    """

    def __init__(self, base=None, inc=0.0, nodes=None):
        self.base, self.inc, self.nodes = base, inc, nodes

    @staticmethod
    def parse(text):
        """`10+0.1`, `8` (no increment) or `nodes=25000`; ValueError if neither."""
        text = text.strip()
        if text.startswith("nodes="):
            nodes = int(text[len("nodes="):])
            if nodes < 1:
                raise ValueError("a node count must be positive")
            return TimeControl(nodes=nodes)
        base, _, inc = text.partition("+")
        base, inc = float(base), float(inc or 0)
        if base <= 0 or inc < 0:
            raise ValueError("the base must be positive and the increment not negative")
        return TimeControl(base, inc)

    def pgn_tag(self):
        """The PGN `TimeControl` tag: `-` (none) for fixed nodes."""
        return "-" if self.nodes else f"{self.base:g}+{self.inc:g}"


class _TolerantFeatures(dict):
    """Stores `setboard=0` as accepted: Fairy-Max announces it, python-chess
    would refuse the engine, and games from the start position need no
    `setboard` (StandardStartXBoard refuses any other)."""

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
    """One engine process for one worker; restarted after a crash or hang."""

    def __init__(self, spec):
        self.spec = spec
        self.name = spec["name"]
        self.engine = None
        self.start()

    def start(self):
        if self.spec["proto"] == "uci":
            self.engine = chess.engine.SimpleEngine.popen_uci(self.spec["command"], timeout=30)
        else:
            self.engine = chess.engine.SimpleEngine.popen(StandardStartXBoard, self.spec["command"], timeout=30)
        options = own_book_off(self.spec["options"], self.engine.options)
        if options:
            self.engine.configure(options)
        if not self.name:
            self.name = self.engine.id.get("name", self.spec["command"])

    def restart(self):
        self.close()
        self.start()

    def play(self, board, limit, game_id, deadline):
        """The engine's move; raises TimeoutError past `deadline` seconds."""
        engine = self.engine
        info = chess.engine.INFO_BASIC | chess.engine.INFO_SCORE
        coro = asyncio.wait_for(engine.protocol.play(board, limit, game=game_id, info=info), deadline)
        return asyncio.run_coroutine_threadsafe(coro, engine.protocol.loop).result()

    def close(self):
        try:
            self.engine.quit()
        except Exception:  # a dead or hung engine: make sure it is gone
            try:
                self.engine.close()
            except Exception:
                pass


def own_book_off(options, announced):
    """The options to set: the ones given, plus `OwnBook` false for an
    engine that has the option and was not given it. A match measures the
    engines' play from its openings; an engine's own book would answer in
    its place, and only on hosts that have a book file (Quince's OwnBook
    is off by default now, but was on for a while, and other engines'
    defaults vary; saying it keeps the records explicit).
    A match that wants a book says so: --a-opt OwnBook=true."""
    if "OwnBook" in announced and not any(key.lower() == "ownbook" for key in options):
        return dict(options, OwnBook=False)
    return dict(options)


def adjudicated(board, scores):
    """A result both engines' recent scores (White's view) agree on, or None."""
    recent = scores[-RESIGN_PLIES:]
    if len(recent) == RESIGN_PLIES and None not in recent:
        if all(s >= RESIGN_CP for s in recent):
            return "1-0", "adjudication (resign)"
        if all(s <= -RESIGN_CP for s in recent):
            return "0-1", "adjudication (resign)"
    recent = scores[-DRAW_PLIES:]
    if board.ply() >= DRAW_FROM_PLY and len(recent) == DRAW_PLIES and None not in recent:
        if all(abs(s) <= DRAW_CP for s in recent):
            return "1/2-1/2", "adjudication (draw)"
    return None


def play_game(white, black, start, tc, adjudicate, counters, game_id):
    """One game from `start` (a board) at `tc` (a TimeControl); returns
    (result, termination, pgn)."""
    base, inc = (tc.base, tc.inc) if not tc.nodes else (FIXED_NODES_DEADLINE, 0.0)
    board = start.copy()
    # Under fixed nodes a "clock" is only the hang guard, reset every move.
    clocks = {chess.WHITE: base, chess.BLACK: base}
    players = {chess.WHITE: white, chess.BLACK: black}
    scores = []
    result = None
    while result is None:
        if board.is_game_over(claim_draw=True):
            outcome = board.outcome(claim_draw=True)
            result, termination = outcome.result(), outcome.termination.name.lower()
            break
        side = board.turn
        player = players[side]
        loses = "0-1" if side == chess.WHITE else "1-0"
        if tc.nodes:
            clocks[side] = base
            limit = chess.engine.Limit(nodes=tc.nodes)
        else:
            limit = chess.engine.Limit(
                white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK], white_inc=inc, black_inc=inc
            )
        begun = time.monotonic()
        try:
            played = player.play(board, limit, game_id, max(clocks[side], 0) + HANG_GRACE)
            move = played.move
        except (asyncio.TimeoutError, concurrent.futures.TimeoutError, TimeoutError):
            counters.count("hangs", player.role)
            player.restart()
            result, termination = loses, "time forfeit (engine hung)"
            break
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            print(f"  {player.name}: {error}", file=sys.stderr, flush=True)
            counters.count("crashes", player.role)
            player.restart()
            result, termination = loses, "engine error"
            break
        clocks[side] -= time.monotonic() - begun
        if clocks[side] < 0 and not tc.nodes:
            counters.count("time_losses", player.role)
            result, termination = loses, "time forfeit"
            break
        if move is None or move not in board.legal_moves:
            counters.count("illegal", player.role)
            result, termination = loses, "illegal move"
            break
        clocks[side] += inc
        if played.info.get("nps"):
            counters.nps(player.role, played.info["nps"])
        score = played.info.get("score")
        scores.append(None if score is None else score.white().score(mate_score=100_000))
        board.push(move)
        if adjudicate:
            decided = adjudicated(board, scores)
            if decided:
                result, termination = decided
    game = chess.pgn.Game.from_board(board)
    game.headers.update(
        {
            "Event": "Quince match",
            "Date": datetime.date.today().strftime("%Y.%m.%d"),
            "White": white.name,
            "Black": black.name,
            "Result": result,
            "TimeControl": tc.pgn_tag(),
            "Termination": termination,
        }
    )
    return result, termination, game


def load_openings(path):
    """(name, start board) pairs: FEN lines from `path`, or the book lines."""
    openings = []
    if path is None:
        for name, line in BOOK:
            board = chess.Board()
            for uci in line.split():
                board.push_uci(uci)
            openings.append((name, board))
        return openings
    with open(path) as lines:
        for number, line in enumerate(lines, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                board = chess.Board(line)
            except ValueError as error:
                sys.exit(f"{path}:{number}: not a FEN: {error}")
            if not board.is_valid():
                sys.exit(f"{path}:{number}: not a legal position: {line}")
            # Keep the opening as root + no moves; the PGN records its FEN.
            openings.append((f"{os.path.basename(path)}:{number}", board))
    if not openings:
        sys.exit(f"{path}: no positions")
    return openings
