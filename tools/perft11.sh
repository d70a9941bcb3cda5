#!/usr/bin/env bash
# perft(11) of the start position (2,097,651,003,696,806 leaves) on this
# machine through work units, resumable: the recipe of
# docs/perft-at-scale.md ("Perft(11) and beyond") as one script.
#
#   tools/perft11.sh [DIR]        # default DIR: reports/perft11
#
# The 5,362 distinct positions at ply 3 are cut into 100 chunks; GNU
# parallel counts one chunk at a time with every core and a shared hash
# table, and records each finished chunk in DIR/jobs.log. Run the same
# line again after an interruption (a reboot, the end of a work session):
# finished chunks are skipped, the unfinished one is counted again. When
# all 100 are there, `quince perft merge` checks that every unit is
# counted exactly once and prints the total.
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
command -v parallel >/dev/null || { echo "GNU parallel is needed (Debian: apt-get install parallel)" >&2; exit 2; }

mkdir -p "$dir/chunks"
cd "$dir"
[[ -s units.jsonl ]] || "$bin" perft split --depth 11 --split-depth 3 > units.jsonl
[[ -e chunks/u.00 ]] || split -n l/100 -d -a 2 units.jsonl chunks/u.
nice -n "$niceness" parallel -j 1 --joblog jobs.log --resume \
    "'$bin' perft work {} --threads $threads --hash $hash_mb --make copy --progress > {}.out 2> {}.log" \
    ::: chunks/u.??
"$bin" perft merge chunks/u.??.out --units units.jsonl
