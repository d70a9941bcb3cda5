"""The header record of a match (tools/match.py): both engines, the time
control, openings, adjudication, SPRT bounds, the command line and the
host segments, in the format xtask/src/record/matches.rs reads.
"""
import datetime
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys

import chess

from match_game import DRAW_CP, DRAW_FROM_PLY, DRAW_PLIES, FIXED_NODES_DEADLINE, HANG_GRACE, RESIGN_CP, RESIGN_PLIES, Player, TimeControl, own_book_off


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The header record's format (xtask/src/record/matches.rs reads it).
RECORD_FORMAT = 1


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
                      "pair i plays built-in line i mod count (tools/match_game.py BOOK), once with each colour"),
        },
        "games_planned": pairs * 2,
        "concurrency": args.concurrency,
        "adjudication": {
            "enabled": args.adjudicate,
            "resign_cp": RESIGN_CP, "resign_plies": RESIGN_PLIES,
            "draw_cp": DRAW_CP, "draw_plies": DRAW_PLIES, "draw_from_ply": DRAW_FROM_PLY,
        },
        "clock": ({"kept_by": "none: a fixed node count per move (go nodes N)",
                   "hang_after_s": FIXED_NODES_DEADLINE + HANG_GRACE}
                  if TimeControl.parse(args.tc).nodes else
                  {"kept_by": "the runner (wall clock around each engine call)", "hang_grace_s": HANG_GRACE}),
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
