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
* `--tc BASE+INC` plays with clocks; `--tc nodes=N` gives every move a
  fixed node count (`go nodes N`) and no clock, the test of an
  evaluation-only change: the same tree size on both sides, so the result
  is what the evaluation knows, not what its speed buys.
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

The runner is three files: this one (arguments, workers, tally, summary),
tools/match_game.py (engine processes, one game, openings) and
tools/match_record.py (the header record).

An SPRT of a search change (the new build as A, the old as B):
    tools/match.py --a target/new/quince --b target/old/quince \\
        --openings tools/openings.epd --tc 4+0.04 --concurrency 2 \\
        --adjudicate --sprt 0,10 --games 4000 --state sprt.jsonl
"""
import argparse
import json
import os
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sprt  # noqa: E402
from dealer import PairDealer  # noqa: E402
from match_game import Player, TimeControl, load_openings, play_game  # noqa: E402
from match_record import (  # noqa: E402
    expand, make_header, merge_header, pair_ranges, record_path, repo_path, utc_now, write_json,
)


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
    parser.add_argument("--tc", default="10+0.1",
                        help="BASE+INC: base seconds + increment seconds; nodes=N: a fixed node count per move, no clock")
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
        tc = TimeControl.parse(args.tc)
    except ValueError as error:
        parser.error(f"--tc wants BASE+INC in seconds (e.g. 10+0.1) or nodes=N (e.g. nodes=25000): {error}")
    if args.games < 1 or args.concurrency < 1:
        parser.error("--games and --concurrency must be positive")

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
