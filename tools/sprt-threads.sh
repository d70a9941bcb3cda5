#!/usr/bin/env bash
# SPRT of Lazy SMP: one commit's engine with Threads 2 against the same
# engine with Threads 1.
#
#   tools/sprt-threads.sh [REV] [THREADS] [ELO0,ELO1] [more tools/match.py arguments]
#
# REV defaults to HEAD, THREADS to 2, the bounds to 0,50 (the bar:
# two threads at least +50 Elo over one). One game at a time (the engine
# with more threads uses the cores while it thinks; the other waits), the
# 500 openings of tools/openings.epd, 10+0.1, adjudication on, at most
# 2000 games. Resumable like tools/sprt-vs.sh: every finished pair goes to
# reports/sprt/threads<N>-vs-threads1-<rev>.jsonl, the header record to
# reports/data/match-sprt-threads<N>-vs-threads1-<rev>.json. Run it on an
# otherwise idle machine: it is a timed measurement.
set -euo pipefail
rev=$(git rev-parse --short "${1:-HEAD}")
threads=${2:-2}
bounds=${3:-0,50}
shift $(( $# < 3 ? $# : 3 ))
root=$(git rev-parse --show-toplevel)
cd "$root"
mkdir -p target/sprt reports/sprt
source tools/build-rev.sh
build_rev "$rev"
name="threads$threads-vs-threads1-$rev"
commit=$(git rev-parse "$rev")
exec python3 tools/match.py --a "target/sprt/$rev" --a-name "$rev Threads $threads" --a-opt "Threads=$threads" \
    --b "target/sprt/$rev" --b-name "$rev Threads 1" --b-opt "Threads=1" \
    --a-commit "$commit" --b-commit "$commit" \
    --kind sprt --title "Lazy SMP: $threads threads against 1 thread" \
    --openings tools/openings.epd --tc 10+0.1 --concurrency 1 --adjudicate \
    --sprt="$bounds" --games 2000 --state "reports/sprt/$name.jsonl" --pgn "reports/sprt/$name.pgn" "$@"
