#!/usr/bin/env bash
# The Elo curve of Lazy SMP on a many-core machine: one time-boxed match per
# thread count, N threads against 1 thread of the same binary, games at
# once = cores / N (the side not on move waits, so a game needs N cores).
#
#   tools/threads-elo-curve.sh QUINCE TC THREADS:SECONDS...
#   tools/threads-elo-curve.sh target/device/quince 2+0.02 4:100 8:130 16:160
#
# QUINCE is a binary built by `cargo run -p xtask -- curve --build-only DIR`
# (DIR/build.json names its commit), so a machine without cargo or git can
# run it. Each point writes reports/sprt/threads<N>-vs-threads1-<rev>-<C>cores.jsonl
# and its header record reports/data/match-sprt-<same>.json, rendered on
# reports/strength.md. A point stops starting pairs after SECONDS
# (match.py --max-seconds) and finishes the ones under way.
set -euo pipefail
quince=$1 tc=$2; shift 2
cores=$(nproc)
commit=$(python3 -c "import json,sys;print(json.load(open(sys.argv[1]))['commit']['hash'])" "$(dirname "$quince")/build.json")
short=${commit:0:7}
mkdir -p reports/sprt
for point in "$@"; do
    t=${point%%:*} seconds=${point##*:}
    conc=$(( cores / t )); [ "$conc" -ge 1 ] || conc=1
    name="threads$t-vs-threads1-$short-${cores}cores"
    echo "== $t threads against 1: $conc games at once, $seconds s"
    python3 tools/match.py \
        --a "$quince" --a-name "$short Threads $t" --a-opt "Threads=$t" \
        --b "$quince" --b-name "$short Threads 1" --b-opt "Threads=1" \
        --a-commit "$commit" --b-commit "$commit" --kind match \
        --title "Lazy SMP on $cores cores: $t threads against 1 thread" \
        --openings tools/openings.epd --tc "$tc" --concurrency "$conc" --adjudicate \
        --games 2000 --max-seconds "$seconds" \
        --state "reports/sprt/$name.jsonl" --pgn "reports/sprt/$name.pgn" | grep -v "^pair" | tail -5
done
