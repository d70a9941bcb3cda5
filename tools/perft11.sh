#!/usr/bin/env bash
# perft(11) of the start position (2,097,651,003,696,806 leaves) on this
# machine through work units, resumable: the recipe of
# docs/perft-at-scale.md ("Perft(11) and beyond") as one script.
#
#   tools/perft11.sh [DIR]        # default DIR: reports/perft11
#
# `quince perft split` cuts the count into the 5,362 distinct positions at
# ply 3 (DIR/units.jsonl); one `quince perft work --resume` process counts
# them in order with every core and one shared hash table, which stays
# warm from unit to unit, appending each result to DIR/results.jsonl as it
# finishes. Run the same line again after an interruption (a reboot, the
# end of a work session): the units already in results.jsonl are skipped,
# so at most the unit under way is lost. When all are there, `quince perft
# merge` checks that every unit is counted exactly once and prints the
# total. Progress lines go to DIR/progress.log (not committed).
#
# Environment: HASH_MB (default 12288), THREADS (default 0 = every core),
# QUINCE (a quince binary; by default one is built with the pext backend
# for this CPU into target/perft11), NICE (default 19: the run yields to
# anything else on the machine).
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
dir=${1:-reports/perft11}
hash_mb=${HASH_MB:-12288}
threads=${THREADS:-0}
niceness=${NICE:-19}
bin=${QUINCE:-}
if [[ -z $bin ]]; then
    echo "building quince (pext, target-cpu=native) into target/perft11" >&2
    CARGO_TARGET_DIR="$root/target/perft11" RUSTFLAGS="-C target-cpu=native" \
        cargo build --release --quiet --bin quince --features pext
    bin=$root/target/perft11/release/quince
fi
bin=$(realpath "$bin")

mkdir -p "$dir"
cd "$dir"
[[ -s units.jsonl ]] || "$bin" perft split --depth 11 --split-depth 3 > units.jsonl
nice -n "$niceness" "$bin" perft work units.jsonl --resume results.jsonl \
    --threads "$threads" --hash "$hash_mb" --make copy --progress 2>> progress.log
"$bin" perft merge results.jsonl --units units.jsonl
