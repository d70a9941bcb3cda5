#!/usr/bin/env bash
# Instructions per move of move generation alone and make alone, Quince
# against cozy-chess, shakmaty and chess: the deterministic counterpart of
# examples/micro.rs's timed rounds (callgrind counts the instructions of
# each engine's out-of-line function in `micro --once`).
#
#   tools/micro-instructions.sh [PASSES]     (default 20)
#
# Builds the example like the lab's benches (PEXT for Quince and cozy-chess
# where the CPU has BMI2), runs it once under valgrind, prints a Markdown
# table. Needs valgrind (callgrind_annotate comes with it).
set -euo pipefail
passes=${1:-20}
root=$(git rev-parse --show-toplevel)
cd "$root"
if grep -qw bmi2 /proc/cpuinfo; then
    export RUSTFLAGS='-C target-cpu=x86-64-v3'
    features=pext,peers-pext
else
    features=hq
fi
target=target/micro
cargo build --release --quiet --no-default-features --features "$features" \
    --example micro --target-dir "$target"
out=$(mktemp)
trap 'rm -f "$out" "$out.moves"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$target/release/examples/micro" --once "$passes" >"$out.moves" 2>/dev/null
callgrind_annotate --inclusive=yes "$out" | python3 -c '
import re, sys
moves = {}
for line in open(sys.argv[1]):
    m = re.match(r"(.+): (\d+) moves per pass, (\d+) passes", line)
    if m:
        moves[m.group(1)] = int(m.group(2)) * int(m.group(3))
functions = {
    ("movegen", "quince"): "quince_movegen", ("movegen", "cozy-chess"): "cozy_movegen",
    ("movegen", "shakmaty"): "shakmaty_movegen", ("movegen", "chess"): "chess_movegen",
    ("make", "quince"): "quince_make", ("make", "cozy-chess"): "cozy_make",
    ("make", "shakmaty"): "shakmaty_make", ("make", "chess"): "chess_make",
    ("make + key", "shakmaty"): "shakmaty_make_keyed",
}
ir = {}
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) .*micro::Set::(\w+)", line)
    if m:
        ir[m.group(2)] = int(m.group(1).replace(",", ""))
engines = ["quince", "cozy-chess", "shakmaty", "chess"]
print("| workload | " + " | ".join(engines) + " | quince / best peer |")
print("| --- |" + " ---: |" * (len(engines) + 1))
for workload in ["movegen", "make", "make + key"]:
    row = []
    for engine in engines:
        # make + key: only shakmaty does more than in make
        key = (workload if engine == "shakmaty" else workload.replace(" + key", ""), engine)
        row.append(ir[functions[key]] / moves[workload])
    best = min(row[1:])
    cells = " | ".join(f"{x:.1f}" for x in row)
    print(f"| {workload} | {cells} | **{best / row[0]:.2f}x** |")
' "$out.moves"
