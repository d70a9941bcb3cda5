#!/usr/bin/env python3
"""The match runner Quince's strength changes are decided with.

Two engines, python-chess in the middle:

* Openings: `--openings FILE` (one FEN per line; `tools/openings.epd` holds
  500 balanced positions from `tools/openings.py`) or, without it, twelve
  built-in main lines played as moves from the start position (for engines
  such as Fairy-Max that cannot set up a position). Every opening is a
  *pair* of games with colours swapped, played back to back by one worker.
* `--concurrency N` workers play N games at once, each with its own two
  engine processes. One per core is the rule: two on the 2-core machines.
* Clocks are kept by the runner (wall clock around each engine call); an
  engine whose clock runs out loses on time, one that hangs past its clock
  is stopped and restarted, and one that crashes loses and is restarted.
  An illegal or missing move loses. All three are counted.
* Games end by the rules (mate, stalemate, insufficient material,
  threefold repetition and fifty moves, claimed at once) or, with
  `--adjudicate`, when both engines agree the game is decided (a score of
  at least 1000 cp for 6 plies in a row: resign; at most 10 cp for 12 plies
  after move 40: draw). Adjudication saves about a third of the time of an
  SPRT and is off for the matches against other engines that are reported.
* Statistics (tools/sprt.py): W/D/L, the pentanomial count of pairs, the
  Elo difference with its 95 % margin from the pairs, and with
  `--sprt ELO0,ELO1` a GSPRT (alpha = beta = 0.05) that stops the match as
  soon as it decides.
* `--state FILE` makes a run resumable: every finished pair is appended as
  a JSON line; started again with the same file, the run skips those pairs
  and carries on (the other arguments must be the same).
* The last line is `summary: {...}`, one JSON object (games, W/D/L,
  pentanomial, Elo, margin, LLR, verdict, time losses, illegal moves,
  crashes) for scripts; `--json FILE` writes the same object to a file.

An SPRT of a search change (the new build as A, the old as B):
    tools/match.py --a target/new/quince --b target/old/quince \\
        --openings tools/openings.epd --tc 4+0.04 --concurrency 2 \\
        --adjudicate --sprt 0,10 --games 4000 --state sprt.jsonl
"""
import argparse
import asyncio
import concurrent.futures
import datetime
import json
import os
import sys
import threading
import time

import chess
import chess.engine
import chess.pgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sprt  # noqa: E402

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
        if self.spec["options"]:
            self.engine.configure(self.spec["options"])
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
    """One game from `start` (a board); returns (result, termination, pgn)."""
    base, inc = tc
    board = start.copy()
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
        if clocks[side] < 0:
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
            "TimeControl": f"{base:g}+{inc:g}",
            "Termination": termination,
        }
    )
    return result, termination, game


class Tally:
    """Everything the workers report, behind one lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.wdl = [0, 0, 0]
        self.ptnml = [0, 0, 0, 0, 0]
        self.terminations = {}
        self.events = {"time_losses": {}, "illegal": {}, "crashes": {}, "hangs": {}}
        self.nps_sum = {"A": 0, "B": 0}
        self.nps_n = {"A": 0, "B": 0}
        self.done = set()

    def count(self, event, role):
        with self.lock:
            self.events[event][role] = self.events[event].get(role, 0) + 1

    def nps(self, role, value):
        with self.lock:
            self.nps_sum[role] += value
            self.nps_n[role] += 1

    def add_pair(self, record):
        """Takes a finished pair (also one replayed from a state file)."""
        points = 0.0
        for game in record["games"]:
            score = {"1-0": 1.0, "0-1": 0.0}.get(game["result"], 0.5)
            a_score = score if game["a_white"] else 1 - score
            points += a_score
            self.wdl[{1.0: 0, 0.5: 1, 0.0: 2}[a_score]] += 1
            self.terminations[game["termination"]] = self.terminations.get(game["termination"], 0) + 1
        self.ptnml[int(points * 2)] += 1
        self.done.add(record["pair"])
        for event, roles in record.get("events", {}).items():
            for role, n in roles.items():
                self.events[event][role] = self.events[event].get(role, 0) + n


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


class PairLog:
    """Events of one pair of games, stored with it so a resumed run counts them."""

    def __init__(self, tally):
        self.tally = tally
        self.events = {}

    def count(self, event, role):
        roles = self.events.setdefault(event, {})
        roles[role] = roles.get(role, 0) + 1

    def nps(self, role, value):
        self.tally.nps(role, value)


def summary(tally, args, names, sprt_test):
    """The match's figures as one dict (the `summary:` line)."""
    games = sum(tally.wdl)
    out = {
        "a": names["A"],
        "b": names["B"],
        "tc": args.tc,
        "games": games,
        "pairs": sum(tally.ptnml),
        "wdl": tally.wdl,
        "pentanomial": tally.ptnml,
        "score": (tally.wdl[0] + tally.wdl[1] / 2) / games if games else None,
        "terminations": tally.terminations,
        "time_losses": tally.events["time_losses"],
        "illegal_moves": tally.events["illegal"],
        "crashes": tally.events["crashes"],
        "hangs": tally.events["hangs"],
        "nps": {r: round(tally.nps_sum[r] / tally.nps_n[r]) for r in "AB" if tally.nps_n[r]},
    }
    estimate = sprt.elo_estimate(tally.ptnml) if sum(tally.ptnml) > 1 else None
    if estimate:
        out["elo"], out["elo_margin"] = round(estimate[0], 1), round(estimate[1], 1)
    trinomial = sprt.elo_estimate_trinomial(tally.wdl) if games > 1 else None
    if trinomial:
        out["elo_trinomial"], out["elo_trinomial_margin"] = round(trinomial[0], 1), round(trinomial[1], 1)
    if sprt_test:
        elo0, elo1, lower, upper = sprt_test
        llr = sprt.sprt_llr(tally.ptnml, elo0, elo1)
        out["sprt"] = {"elo0": elo0, "elo1": elo1, "llr": round(llr, 3), "lower": round(lower, 3), "upper": round(upper, 3)}
        out["verdict"] = "H1" if llr >= upper else "H0" if llr <= lower else "inconclusive"
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for role in ("a", "b"):
        parser.add_argument(f"--{role}", required=True, help=f"engine {role.upper()} command")
        parser.add_argument(f"--{role}-proto", choices=["uci", "xboard"], default="uci")
        parser.add_argument(f"--{role}-opt", action="append", help="engine option NAME=VALUE (repeatable)")
        parser.add_argument(f"--{role}-name", help="name in the PGN and the summary")
    parser.add_argument("--games", type=int, default=20, help="most games to play (rounded up to pairs)")
    parser.add_argument("--tc", default="10+0.1", help="base seconds + increment seconds")
    parser.add_argument("--openings", help="FEN file (e.g. tools/openings.epd); default: 12 built-in lines")
    parser.add_argument("--concurrency", type=int, default=1, help="games at once (one per core)")
    parser.add_argument("--adjudicate", action="store_true", help="end decided games early (see above)")
    parser.add_argument("--sprt", metavar="ELO0,ELO1", help="stop when a GSPRT (alpha = beta = 0.05) decides")
    parser.add_argument("--state", help="JSON-lines file of finished pairs: resume from it, append to it")
    parser.add_argument("--pgn", default="match.pgn", help="PGN output (appended to when resuming)")
    parser.add_argument("--json", help="also write the summary object to this file")
    args = parser.parse_args()
    sprt_test = None
    if args.sprt:
        try:
            elo0, elo1 = (float(x) for x in args.sprt.split(","))
        except ValueError:
            parser.error("--sprt wants two Elo values, e.g. --sprt 0,10")
        if elo1 <= elo0:
            parser.error("--sprt: ELO1 must be larger than ELO0")
        sprt_test = (elo0, elo1, *sprt.sprt_bounds())
    try:
        base, _, inc = args.tc.partition("+")
        tc = (float(base), float(inc or 0))
    except ValueError:
        parser.error("--tc wants BASE+INC in seconds, e.g. 10+0.1")
    if tc[0] <= 0 or tc[1] < 0 or args.games < 1 or args.concurrency < 1:
        parser.error("--tc, --games and --concurrency must be positive")

    openings = load_openings(args.openings)
    pairs = (args.games + 1) // 2
    tally = Tally()
    if args.state and os.path.exists(args.state):
        with open(args.state) as state:
            for line in state:
                if line.strip():
                    tally.add_pair(json.loads(line))
        print(f"resuming: {len(tally.done)} pairs already played ({args.state})", flush=True)
    specs = {
        role: {
            "role": role,
            "command": getattr(args, role.lower()),
            "proto": getattr(args, f"{role.lower()}_proto"),
            "options": parse_options(getattr(args, f"{role.lower()}_opt")),
            "name": getattr(args, f"{role.lower()}_name"),
        }
        for role in "AB"
    }
    todo = [i for i in range(pairs) if i not in tally.done]
    next_pair = iter(todo)
    stop = threading.Event()
    names = {}
    output_lock = threading.Lock()

    def worker():
        players = {}
        try:
            for role in "AB":
                players[role] = Player(specs[role])
                players[role].role = role
                names.setdefault(role, players[role].name)
            if names["A"] == names["B"]:
                names["A"], names["B"] = names["A"] + " (A)", names["B"] + " (B)"
            for role in "AB":
                players[role].name = names[role]
            while not stop.is_set():
                with output_lock:
                    index = next(next_pair, None)
                if index is None:
                    return
                opening_name, start = openings[index % len(openings)]
                log = PairLog(tally)
                record = {"pair": index, "opening": opening_name, "games": []}
                for a_white in (True, False):
                    white, black = (players["A"], players["B"]) if a_white else (players["B"], players["A"])
                    result, termination, game = play_game(white, black, start, tc, args.adjudicate, log, index)
                    game.headers["Opening"] = opening_name
                    record["games"].append({"a_white": a_white, "result": result, "termination": termination})
                    record.setdefault("pgn", []).append(str(game))
                record["events"] = log.events
                record["finished"] = round(time.time(), 1)
                with output_lock:
                    with tally.lock:
                        tally.add_pair(record)
                    with open(args.pgn, "a") as pgn:
                        for text in record.pop("pgn"):
                            print(text, file=pgn, end="\n\n")
                    if args.state:
                        with open(args.state, "a") as state:
                            print(json.dumps(record), file=state)
                    report(record)
        finally:
            for player in players.values():
                player.close()

    def report(record):
        results = " ".join(g["result"] for g in record["games"])
        w, d, l = tally.wdl
        line = f"pair {len(tally.done):4}/{pairs} [{record['opening']}] {results}   A: +{w} ={d} -{l} ptnml {tally.ptnml}"
        if sprt_test:
            elo0, elo1, lower, upper = sprt_test
            llr = sprt.sprt_llr(tally.ptnml, elo0, elo1)
            line += f"  LLR {llr:+.2f} ({lower:.2f}, {upper:.2f})"
            if llr >= upper or llr <= lower:
                stop.set()
        print(line, flush=True)

    if not args.state or not os.path.exists(args.state):
        open(args.pgn, "w").close()
    if sprt_test and tally.done:
        llr = sprt.sprt_llr(tally.ptnml, *sprt_test[:2])
        if llr >= sprt_test[3] or llr <= sprt_test[2]:
            stop.set()
    threads = [threading.Thread(target=worker, daemon=True) for _ in range(args.concurrency)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            while thread.is_alive():
                thread.join(0.5)
    except KeyboardInterrupt:
        stop.set()
        print("interrupted: finishing the games under way (Ctrl-C again to abandon them)", file=sys.stderr)
        for thread in threads:
            thread.join()
    names.setdefault("A", specs["A"]["name"] or args.a)
    names.setdefault("B", specs["B"]["name"] or args.b)
    result = summary(tally, args, names, sprt_test)
    print()
    print(f"{result['a']} vs {result['b']}: {result['games']} games at {args.tc}")
    if result["games"]:
        w, d, l = result["wdl"]
        print(f"W/D/L {w}/{d}/{l}, score {result['score'] * 100:.1f} %, pentanomial {result['pentanomial']}")
    if "elo" in result:
        print(f"Elo {result['elo']:+.1f} +- {result['elo_margin']:.1f} (95 %, from pairs)")
    if "sprt" in result:
        s = result["sprt"]
        print(f"SPRT [{s['elo0']:g}, {s['elo1']:g}]: LLR {s['llr']:+.2f} ({s['lower']:.2f}, {s['upper']:.2f}): {result['verdict']}")
    print(f"time losses {result['time_losses'] or 0}, illegal moves {result['illegal_moves'] or 0}, "
          f"crashes {result['crashes'] or 0}, hangs {result['hangs'] or 0}; PGN {args.pgn}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(result, out, indent=1)
    print("summary: " + json.dumps(result), flush=True)
    return 0 if result["games"] else 1


if __name__ == "__main__":
    sys.exit(main())
