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
  soon as it decides: no pair is dealt once the LLR crosses a bound, and
  the run ends when the LLR of all finished pairs, the ones in play at
  the crossing included, is still beyond it; otherwise dealing goes on
  (tools/dealer.py).
* `--max-seconds S` time-boxes a run: no pair starts after S seconds, the
  ones under way are finished. `kill PID` (SIGTERM or SIGINT to the
  runner alone, also for a run started in the background) does the same
  at once; a signal to the whole process group would also reach the
  engines and end the games under way as engine errors.
* `--state FILE` makes a run resumable: every finished pair is appended as
  a JSON line; started again with the same file, the run skips those pairs
  and carries on (the other arguments must be the same).
* The last line is `summary: {...}`, one JSON object (games, W/D/L,
  pentanomial, Elo, margin, LLR, verdict, time losses, illegal moves,
  crashes) for scripts; `--json FILE` writes the same object to a file.
* Before the first game the runner writes a *header record* beside the
  games: both engines (label, path, commit where `--a-commit`/`--b-commit`
  give it, SHA-256 of the binary, the options set and the engine's own
  option list; an engine with an `OwnBook` option that is not given one
  plays with it off, and the options set say so), time control, openings file and order, games at once,
  adjudication rules, SPRT bounds, the command line and the host (CPU
  vendor, family, model, model name, cores from /proc/cpuinfo). A state
  file under reports/ gets reports/data/match-<name>.json, <name> being
  its path under reports/ with `/` as `-` (reports/sprt/a-vs-b.jsonl:
  match-sprt-a-vs-b.json); elsewhere the header goes beside it as
  <state>.match.json; `--record FILE` chooses, `--no-record` skips it.
  Each pair's line names its host *segment*; a run resumed on another
  host appends a segment to the header (one resumed on the same host
  extends the last), so the pages (`cargo run -p xtask -- report
  --render`) show which games were played where.

An SPRT of a search change (the new build as A, the old as B):
    tools/match.py --a target/new/quince --b target/old/quince \\
        --openings tools/openings.epd --tc 4+0.04 --concurrency 2 \\
        --adjudicate --sprt 0,10 --games 4000 --state sprt.jsonl
"""
import argparse
import asyncio
import concurrent.futures
import datetime
import hashlib
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import chess
import chess.engine
import chess.pgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sprt  # noqa: E402
from dealer import PairDealer  # noqa: E402

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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The header record's format (xtask/src/record/matches.rs reads it).
RECORD_FORMAT = 1

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
    is on by default and finds Debian's gnuchess-book where installed).
    A match that wants a book says so: --a-opt OwnBook=true."""
    if "OwnBook" in announced and not any(key.lower() == "ownbook" for key in options):
        return dict(options, OwnBook=False)
    return dict(options)


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
        self.nps_sum = {}
        self.nps_n = {}

    def count(self, event, role):
        roles = self.events.setdefault(event, {})
        roles[role] = roles.get(role, 0) + 1

    def nps(self, role, value):
        self.tally.nps(role, value)
        self.nps_sum[role] = self.nps_sum.get(role, 0) + value
        self.nps_n[role] = self.nps_n.get(role, 0) + 1

    def mean_nps(self):
        """Each engine's mean nodes/s over this pair's moves."""
        return {role: round(self.nps_sum[role] / n) for role, n in sorted(self.nps_n.items())}


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def repo_path(path):
    """`path` relative to the repository root if it lies inside it, else absolute."""
    if path is None:
        return None
    full = os.path.abspath(path)
    if full == ROOT or full.startswith(ROOT + os.sep):
        return os.path.relpath(full, ROOT)
    return full


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as data:
        for chunk in iter(lambda: data.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def host_facts():
    """The CPU as /proc/cpuinfo names it (first processor), and the cores."""
    facts = {"cpu_vendor": None, "cpu_family": None, "cpu_model": None, "cpu_stepping": None,
             "cpu_model_name": None, "logical_cores": None}
    keys = {"vendor_id": ("cpu_vendor", str), "cpu family": ("cpu_family", int), "model": ("cpu_model", int),
            "stepping": ("cpu_stepping", int), "model name": ("cpu_model_name", str)}
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if not line.strip():
                    break
                key, _, value = line.partition(":")
                if key.strip() in keys:
                    field, kind = keys[key.strip()]
                    try:
                        facts[field] = kind(value.strip())
                    except ValueError:
                        pass
    except OSError:
        pass
    try:
        facts["logical_cores"] = len(os.sched_getaffinity(0))
    except AttributeError:
        facts["logical_cores"] = os.cpu_count()
    return facts


def git(*args):
    try:
        out = subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return None


def describe_engine(spec, commit):
    """One engine for the header: started once to read its name and options."""
    command = spec["command"]
    binary = command if os.path.exists(command) else shutil.which(command)
    engine = {
        "label": spec["name"],
        "path": repo_path(binary) if binary else command,
        "protocol": spec["proto"],
        "id_name": None,
        "id_author": None,
        "commit": commit,
        "sha256": sha256_of(binary) if binary and os.path.isfile(binary) else None,
        "options": spec["options"],
        "engine_options": None,
    }
    try:
        player = Player(dict(spec, name=None))
        try:
            engine["id_name"] = player.engine.id.get("name")
            engine["id_author"] = player.engine.id.get("author")
            engine["options"] = own_book_off(spec["options"], player.engine.options)
            engine["engine_options"] = [
                {key: value for key, value in (("name", o.name), ("type", o.type), ("default", o.default),
                                               ("min", o.min), ("max", o.max), ("var", list(o.var or [])))
                 if value not in (None, [])}
                for o in player.engine.options.values()
            ]
        finally:
            player.close()
    except Exception as error:  # the match itself will say what is wrong
        print(f"warning: could not ask {command} for its name and options: {error}", file=sys.stderr)
    if not engine["label"]:
        engine["label"] = engine["id_name"] or command
    if commit is None and (engine["id_name"] or "").lower().startswith("quince"):
        head, dirty = git("rev-parse", "HEAD"), git("status", "--porcelain", "--untracked-files=no")
        engine["commit_note"] = (
            "not given (--a-commit / --b-commit); when the match started this tree's HEAD was "
            f"{head} ({'with uncommitted changes' if dirty else 'clean'})" if head else "not given"
        )
    return engine


def record_path(args):
    """Where the header record goes (None: nowhere)."""
    if args.no_record:
        return None
    if args.record:
        return args.record
    if not args.state:
        return None
    state = os.path.abspath(args.state)
    reports = os.path.join(ROOT, "reports") + os.sep
    if state.startswith(reports):
        name = os.path.splitext(os.path.relpath(state, reports))[0].replace(os.sep, "-")
        return os.path.join(ROOT, "reports", "data", f"match-{name}.json")
    return os.path.splitext(state)[0] + ".match.json"


def pair_ranges(indices):
    """Inclusive ranges of pair indices: [0, 1, 2, 5] gives [[0, 2], [5, 5]]."""
    out = []
    for i in sorted(set(indices)):
        if out and i == out[-1][1] + 1:
            out[-1][1] = i
        else:
            out.append([i, i])
    return out


def expand(ranges):
    return {i for low, high in ranges or [] for i in range(low, high + 1)}


def make_header(args, specs, labels, commits, openings, pairs, sprt_test):
    engines = {role.lower(): describe_engine(specs[role], commits[role]) for role in "AB"}
    for role in "AB":
        engines[role.lower()]["label"] = labels.get(role) or engines[role.lower()]["label"]
    if engines["a"]["label"] == engines["b"]["label"]:
        engines["a"]["label"] += " (A)"
        engines["b"]["label"] += " (B)"
    now = utc_now()
    return {
        "format_version": RECORD_FORMAT,
        "kind": args.kind or ("sprt" if sprt_test else "match"),
        "title": args.title,
        "games_log": repo_path(args.state),
        "log_format": "pairs",
        "pgn": repo_path(args.pgn),
        "engines": engines,
        "time_control": args.tc,
        "openings": {
            "file": repo_path(args.openings),
            "sha256": sha256_of(args.openings) if args.openings else None,
            "count": len(openings),
            "order": ("pair i plays position i mod count of the file, in file order, once with each colour"
                      if args.openings else
                      "pair i plays built-in line i mod count (tools/match.py BOOK), once with each colour"),
        },
        "games_planned": pairs * 2,
        "concurrency": args.concurrency,
        "adjudication": {
            "enabled": args.adjudicate,
            "resign_cp": RESIGN_CP, "resign_plies": RESIGN_PLIES,
            "draw_cp": DRAW_CP, "draw_plies": DRAW_PLIES, "draw_from_ply": DRAW_FROM_PLY,
        },
        "clock": {"kept_by": "the runner (wall clock around each engine call)", "hang_grace_s": HANG_GRACE},
        "sprt": ({"elo0": sprt_test[0], "elo1": sprt_test[1], "alpha": 0.05, "beta": 0.05}
                 if sprt_test else None),
        "started_utc": now,
        "command_line": ["tools/match.py", *sys.argv[1:]],
        "runner": {"python_chess": chess.__version__, "python": platform.python_version(),
                   "kernel": platform.release()},
        "segments": [{"host": host_facts(), "pairs": None, "started_utc": now, "finished_utc": None, "runs": 1}],
        "backfilled": False,
    }


def merge_header(old, new, done):
    """The header of a resumed match: the old one, with this run's segment
    (the last one extended when the host is the same, else a new one);
    differences from the first run are printed and kept in the segment."""
    for key in ("time_control", "openings", "concurrency", "adjudication", "sprt"):
        if old.get(key) != new[key]:
            print(f"warning: resuming with {key} {new[key]!r}; the match began with {old.get(key)!r}",
                  file=sys.stderr)
    segment = new["segments"][0]
    changed = {}
    for role in ("a", "b"):
        was, now = old.get("engines", {}).get(role, {}), new["engines"][role]
        diff = {k: now[k] for k in ("sha256", "commit", "options") if was.get(k) != now[k]}
        if diff:
            print(f"warning: engine {role.upper()} differs from the one the match began with: {diff}",
                  file=sys.stderr)
            changed[role] = diff
    segments = old.setdefault("segments", [])
    claimed = set().union(*(expand(s.get("pairs")) for s in segments)) if segments else set()
    unclaimed = sorted(set(done) - claimed)
    if unclaimed and (not segments or all(s.get("pairs") is not None for s in segments)):
        segments.append({"host": None, "pairs": pair_ranges(unclaimed),
                         "note": "played before this header was written: host not recorded"})
    last = segments[-1] if segments else None
    if last is not None and last.get("host") == segment["host"] and not changed:
        last["runs"] = last.get("runs", 1) + 1
        last["finished_utc"] = None
    else:
        if changed:
            segment["engines"] = changed
        segments.append(segment)
    old.setdefault("resumed_utc", []).append(new["started_utc"])
    old.setdefault("resumed_command_lines", []).append(new["command_line"])
    return old, len(segments) - 1


def write_json(path, data):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    temporary = path + ".tmp"
    text = json.dumps(data, indent=1)
    # Pair ranges on one line each.
    text = re.sub(r"\[\s+(-?\d+),\s+(-?\d+)\s+\]", r"[\1, \2]", text)
    with open(temporary, "w") as out:
        out.write(text + "\n")
    os.replace(temporary, path)


def sprt_verdict(llr, lower, upper):
    """"H1", "H0" or "inconclusive" for an LLR and the test's bounds."""
    return "H1" if llr >= upper else "H0" if llr <= lower else "inconclusive"


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
        out["verdict"] = sprt_verdict(llr, lower, upper)
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
    parser.add_argument("--max-seconds", type=float,
                        help="start no new pair after this many seconds (the pairs under way are finished)")
    parser.add_argument("--sprt", metavar="ELO0,ELO1", help="stop when a GSPRT (alpha = beta = 0.05) decides")
    parser.add_argument("--state", help="JSON-lines file of finished pairs: resume from it, append to it")
    parser.add_argument("--pgn", default="match.pgn", help="PGN output (appended to when resuming)")
    parser.add_argument("--json", help="also write the summary object to this file")
    parser.add_argument("--record", help="the header record (default: from --state, see above)")
    parser.add_argument("--no-record", action="store_true", help="write no header record")
    parser.add_argument("--kind", choices=["match", "sprt", "sweep"], help="for the header (default: sprt with --sprt)")
    parser.add_argument("--title", help="for the header: what the match measures (an SPRT: the change)")
    parser.add_argument("--a-commit", help="for the header: the commit engine A was built from")
    parser.add_argument("--b-commit", help="for the header: the commit engine B was built from")
    parser.add_argument("--dry-run", action="store_true", help="print the header record and exit without playing")
    args = parser.parse_args()
    # A shell starts a background job (`cmd &`) with SIGINT ignored, and
    # Python then installs no KeyboardInterrupt for it; restore it, and take
    # SIGTERM the same way, so `kill PID` on a background run finishes the
    # pairs under way and writes the header instead of abandoning them.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
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
    header_file, header, segment = record_path(args), None, None
    if header_file or args.dry_run:
        labels = {role: specs[role]["name"] for role in "AB"}
        header = make_header(args, specs, labels, {"A": args.a_commit, "B": args.b_commit}, openings, pairs, sprt_test)
        segment = 0
        if tally.done and header_file and os.path.exists(header_file):
            with open(header_file) as old:
                header, segment = merge_header(json.load(old), header, tally.done)
        elif tally.done:  # a log begun before the runner wrote headers
            header, segment = merge_header(dict(header, segments=[]), header, tally.done)
        if args.dry_run:
            print(json.dumps(header, indent=1))
            return 0
        write_json(header_file, header)
        print(f"header record: {repo_path(header_file)} (host segment {segment})", flush=True)
    run_pairs = set()
    deadline = time.monotonic() + args.max_seconds if args.max_seconds else None
    stop = threading.Event()
    finished_workers, workers_done = [], threading.Event()
    names = {}
    output_lock = threading.Lock()

    def sprt_decided():
        if not sprt_test:
            return False
        elo0, elo1, lower, upper = sprt_test
        return sprt_verdict(sprt.sprt_llr(tally.ptnml, elo0, elo1), lower, upper) != "inconclusive"

    # An SPRT ends only when the LLR of every finished pair, the ones in
    # play when it first crossed a bound included, is beyond it (dealer.py).
    dealer = PairDealer(todo, output_lock, decided=sprt_decided, halt=stop, deadline=deadline)

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
            while (index := dealer.take()) is not None:
                try:
                    play_pair(players, index)
                finally:
                    with output_lock:
                        dealer.finished()
        finally:
            for player in players.values():
                player.close()
            with output_lock:
                finished_workers.append(1)
                if len(finished_workers) == args.concurrency:
                    workers_done.set()

    def play_pair(players, index):
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
        if segment is not None:
            record["segment"] = segment
        if log.nps_n:
            record["nps"] = log.mean_nps()
        with output_lock:
            run_pairs.add(index)
            with tally.lock:
                tally.add_pair(record)
            with open(args.pgn, "a") as pgn:
                for text in record.pop("pgn"):
                    print(text, file=pgn, end="\n\n")
            if args.state:
                with open(args.state, "a") as state:
                    print(json.dumps(record), file=state)
            report(record)

    def report(record):
        results = " ".join(g["result"] for g in record["games"])
        w, d, l = tally.wdl
        line = f"pair {len(tally.done):4}/{pairs} [{record['opening']}] {results}   A: +{w} ={d} -{l} ptnml {tally.ptnml}"
        if sprt_test:
            elo0, elo1, lower, upper = sprt_test
            llr = sprt.sprt_llr(tally.ptnml, elo0, elo1)
            line += f"  LLR {llr:+.2f} ({lower:.2f}, {upper:.2f})"
        print(line, flush=True)

    if not args.state or not os.path.exists(args.state):
        open(args.pgn, "w").close()
    threads = [threading.Thread(target=worker, daemon=True) for _ in range(args.concurrency)]
    # The main thread waits on an Event, not in Thread.join: a signal that
    # lands inside join() leaves CPython (3.11) taking the thread for
    # finished, and the pairs under way were then silently abandoned.
    try:
        for thread in threads:
            thread.start()
        while not workers_done.wait(0.5):
            pass
    except KeyboardInterrupt:
        stop.set()
        print("interrupted: finishing the games under way (Ctrl-C again to abandon them)", file=sys.stderr)
        while not workers_done.wait(0.5):
            pass
    if header_file:
        this_run = header["segments"][segment]
        this_run["pairs"] = pair_ranges(expand(this_run.get("pairs")) | run_pairs)
        this_run["finished_utc"] = utc_now()
        write_json(header_file, header)
    names.setdefault("A", specs["A"]["name"] or args.a)
    names.setdefault("B", specs["B"]["name"] or args.b)
    result = summary(tally, args, names, sprt_test)
    if header_file:
        result["record"] = repo_path(header_file)
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
