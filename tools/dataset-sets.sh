#!/usr/bin/env bash
# Self-play data sets, one after another, each ready to commit.
#
#   tools/dataset-sets.sh REV "EVALUATION" SEED [SEED ...]
#
# e.g. tools/dataset-sets.sh b3b1e61 "NNUE v8" 17 18 19   (GAMES=N for another size)
#
# For each seed: plays 20,000 games with the engine of commit REV (built
# once into target/sprt/REV by tools/build-rev.sh) at nice 19, into
# data/sSEED.qdg; packs it as data/sSEED.qdg.xz; adds its checksum to
# data/SHA256SUMS (once); and writes its record
# reports/data/dataset-sSEED.json with `xtask dataset`. Nothing is
# committed: the script prints the `git add` line for each finished set.
#
# Why a script: the steps are the same for every set, and a set takes
# about half an hour on two cores, so several run unattended between
# stretches of work. Every step resumes: an interrupted `datagen` goes on
# from its last game when started again with the same arguments, and the
# later steps are skipped when their output is already there. Do not time
# anything (SPRTs, matches, benchmarks) while it runs.
set -euo pipefail
usage="usage: tools/dataset-sets.sh REV \"EVALUATION\" SEED [SEED ...]"
rev=${1:?$usage}
evaluation=${2:?$usage}
shift 2
[[ $# -gt 0 ]] || { echo "$usage" >&2; exit 2; }
games=${GAMES:-20000}
root=$(git rev-parse --show-toplevel)
cd "$root"
mkdir -p target/sprt data
source tools/build-rev.sh
rev=$(git rev-parse --short "$rev")
build_rev "$rev"
xtask=target/debug/xtask
[[ -x $xtask ]] || cargo build -q -p xtask

for seed in "$@"; do
    [[ $seed =~ ^[0-9]+$ ]] || { echo "seed '$seed' is not a number" >&2; exit 2; }
    set_file=data/s$seed.qdg
    command="quince datagen --out $set_file --seed $seed --games $games"
    if [[ ! -e $set_file.xz ]]; then
        echo "s$seed: $command (engine $rev)" >&2
        nice -n 19 "target/sprt/$rev" datagen --out "$set_file" --seed "$seed" --games "$games"
        echo "s$seed: packing" >&2
        # Packed under another name first, so an interrupted run never
        # leaves a half-written .xz that a later run would take as done.
        nice -n 19 xz -9 -T1 -c "$set_file" > "$set_file.xz.part"
        mv "$set_file.xz.part" "$set_file.xz"
    fi
    if ! grep -q " $set_file\$" data/SHA256SUMS; then
        sha256sum "$set_file" >> data/SHA256SUMS
    fi
    record=reports/data/dataset-s$seed.json
    if [[ ! -e $record ]]; then
        "$xtask" dataset "$set_file" --commit "$rev" --evaluation "$evaluation" --command "$command"
    fi
    echo "s$seed: done; git add $set_file.xz data/SHA256SUMS $record" >&2
done
