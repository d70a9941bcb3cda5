#!/usr/bin/env python3
"""Prints the SPRT log of reports/sprt/ as a Markdown table.

Each `reports/sprt/<new>-vs-<base>.jsonl` is one test written by
tools/sprt-vs.sh (one JSON line per finished pair of games), with its
header record reports/data/match-sprt-<new>-vs-<base>.json. This script
recomputes every figure from those lines, for a quick look at the
terminal; the table in reports/strength.md is rendered from the same logs
and headers, with their hosts, by `cargo run -p xtask -- report --render`
(block `matches.sprt`):

    tools/sprt-table.py [--bounds 0,10] [--dir reports/sprt]

Rows are in the order the tests began (the first pair's finish time, or
the header's start); a header's title names the change where there is
one.

Columns: the change (the new commit's subject), the commits, games, W/D/L,
the pentanomial count of pairs, Elo with its 95 % margin from the pairs,
the LLR and the verdict (H1: the change gains, kept; H0: it does not,
reverted; open: stopped before a decision).

A *removal test* decides a change that is already in the code: the new
side is the search with it, the base a side-branch commit whose subject
starts with "sprt variant: no-..." and that takes only that change out
(its patch is in reports/sprt/tested/). Its row is named after the
variant, and H1 means the change earns its place.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sprt  # noqa: E402


def subject(rev):
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%s", rev], capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return patch_subject(rev) or "(commit not in this clone)"


def patch_subject(rev):
    """The subject of a tested change kept as reports/sprt/tested/<rev>-*.patch
    (its commit lives on a side branch a clone of main does not have)."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reports", "sprt", "tested")
    for path in sorted(glob.glob(os.path.join(here, f"{rev}-*.patch"))):
        lines = open(path).read().splitlines()
        for i, line in enumerate(lines):
            if line.startswith("Subject: "):
                text = line[len("Subject: "):].removeprefix("[PATCH] ")
                # A long subject continues on indented lines (RFC 5322 folding).
                for more in lines[i + 1:]:
                    if not more.startswith(" "):
                        break
                    text += more
                return text
    return None


def header(path):
    """The log's header record (reports/data/match-sprt-<name>.json), or {}."""
    name = os.path.basename(path)[: -len(".jsonl")]
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reports", "data")
    try:
        with open(os.path.join(here, f"match-sprt-{name}.json")) as record:
            return json.load(record)
    except (OSError, ValueError):
        return {}


def began(path):
    """When a test began: its header's start, else its first finished pair,
    else (logs from before the finish times) the start of the day."""
    start = header(path).get("started_utc") or header(path).get("date")
    if start:
        return start
    for line in open(path):
        if line.strip():
            finished = json.loads(line).get("finished")
            if finished:
                return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(finished))
    return ""


def tally(path):
    wdl, ptnml = [0, 0, 0], [0, 0, 0, 0, 0]
    for line in open(path):
        if not line.strip():
            continue
        record = json.loads(line)
        points = 0.0
        for game in record["games"]:
            score = {"1-0": 1.0, "0-1": 0.0}.get(game["result"], 0.5)
            a = score if game["a_white"] else 1 - score
            points += a
            wdl[{1.0: 0, 0.5: 1, 0.0: 2}[a]] += 1
        ptnml[int(points * 2)] += 1
    return wdl, ptnml


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", default="reports/sprt")
    parser.add_argument("--bounds", default="0,10", help="ELO0,ELO1 the tests were run with")
    args = parser.parse_args()
    elo0, elo1 = (float(x) for x in args.bounds.split(","))
    lower, upper = sprt.sprt_bounds()
    paths = sorted(glob.glob(os.path.join(args.dir, "*-vs-*.jsonl")), key=lambda p: (began(p), p))
    print(f"| Change | New vs base | Games | W / D / L | Pentanomial | Elo (95 %) | LLR [{elo0:g}, {elo1:g}] | Verdict |")
    print("|---|---|---|---|---|---|---|---|")
    for path in paths:
        new, _, base = os.path.basename(path)[: -len(".jsonl")].partition("-vs-")
        change = header(path).get("title") or subject(new)
        # A commit subject may carry its measurements: the table keeps the head.
        if len(change) > 110:
            change = change[:110].rsplit(" ", 1)[0] + " …"
        base_subject = subject(base)
        if base_subject.startswith("sprt variant: ") and not header(path).get("title"):
            variant = base_subject.removeprefix("sprt variant: ").split(" (")[0]
            change = f"removal test: the search against its `{variant}` variant"
        wdl, ptnml = tally(path)
        games = sum(wdl)
        estimate = sprt.elo_estimate(ptnml) if sum(ptnml) > 1 else None
        elo = f"{estimate[0]:+.1f} ± {estimate[1]:.1f}" if estimate else "-"
        llr = sprt.sprt_llr(ptnml, elo0, elo1)
        verdict = "H1 (kept)" if llr >= upper else "H0 (reverted)" if llr <= lower else "open"
        w, d, l = wdl
        print(
            f"| {change} | `{new}` vs `{base}` | {games} | {w} / {d} / {l} | "
            f"{' '.join(map(str, ptnml))} | {elo} | {llr:+.2f} | {verdict} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
