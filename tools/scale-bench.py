#!/usr/bin/env python3
"""Measurements for reports/scale.md: runs quince, records wall seconds (from
its JSON) and CPU seconds (user + sys of the child, from rusage), because on a
shared machine CPU time is steadier than wall time.

usage: tools/scale-bench.py threads|hash|hash8 [quince binary]
"""
import json, os, resource, subprocess, sys

Q = sys.argv[2] if len(sys.argv) > 2 else "target/release/quince"

SIX = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
    ("pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7),
    ("pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5),
    ("pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5),
    ("pos6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5),
]


def run(args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([Q, "perft", "--json", *args], check=True, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    v = json.loads(out.stdout)
    return v["nodes"], v["seconds"], cpu


def threads(reps=2):
    print(f"load average at start: {os.getloadavg()}")
    print("| position | depth | nodes | 1 thread s | 2 threads s | speed-up (wall) | CPU s 1t | CPU s 2t |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, fen, depth in SIX:
        t = {1: [], 2: []}
        c = {1: [], 2: []}
        nodes = None
        for _ in range(reps):
            for n in (1, 2):  # alternating, so load changes hit both alike
                nd, s, cpu = run(["--fen", fen, "--depth", str(depth), "--threads", str(n)])
                assert nodes in (None, nd)
                nodes = nd
                t[n].append(s)
                c[n].append(cpu)
        b1, b2 = min(t[1]), min(t[2])
        print(f"| {name} | {depth} | {nodes} | {b1:.2f} | {b2:.2f} | {b1 / b2:.2f} | {min(c[1]):.2f} | {min(c[2]):.2f} |", flush=True)
    print(f"load average at end: {os.getloadavg()}")


def hashed(cases=None, sizes=(0, 16, 64, 256, 1024), threads=1):
    print(f"load average at start: {os.getloadavg()}")
    print("| position | depth | hash MB | threads | nodes | wall s | CPU s | speed-up vs unhashed (CPU) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    cases = cases or [("start", SIX[0][1], 7), ("kiwipete", SIX[1][1], 6)]
    for name, fen, depth in cases:
        base = None
        for mb in sizes:
            args = ["--fen", fen, "--depth", str(depth), "--hash", str(mb), "--threads", str(threads)]
            nd, s, cpu = run(args)
            base = base or cpu
            print(f"| {name} | {depth} | {mb} | {threads} | {nd} | {s:.2f} | {cpu:.2f} | {base / cpu:.2f} |", flush=True)
    print(f"load average at end: {os.getloadavg()}")


def hashed_deep():
    """Start position depth 8, on both cores (unhashed it is ~85e9 leaves)."""
    hashed([("start", SIX[0][1], 8)], sizes=(0, 256, 1024, 4096), threads=2)


{"threads": threads, "hash": hashed, "hash8": hashed_deep}[sys.argv[1]]()
