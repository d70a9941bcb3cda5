#!/usr/bin/env bash
# Self-play data sets, one after another, each committed as it is done.
#
#   tools/dataset-sets.sh REV "EVALUATION" SEED [SEED ...]
#
# e.g. tools/dataset-sets.sh 3b2f8b3 "NNUE v11" 31 32 33
#      (GAMES=N for another size; UNTIMED=1 when other work shares the cores)
#
# For each seed: plays 20,000 games with the engine of commit REV (built
# once into target/sprt/REV by tools/build-rev.sh) at nice 19, into
# data/sSEED.qdg; packs it with this tree's `quince pack` (moves as
# ordinals, scores as changes: about 40 % fewer bytes once compressed) and
# xz as data/sSEED.qdp.xz; adds the .qdg's checksum to
# data/SHA256SUMS (once); commits those two files; writes the set's
# record reports/data/dataset-sSEED.json with `xtask dataset` and commits
# it. Each commit names only its own files, so other work in the tree is
# left alone. The pages are not touched: afterwards render them
# (`cargo run -p xtask -- report --render`), add the sets' datagen lines
# to reports/nnue.md's "data from scratch" block, and commit.
#
# Generation time: when a set is played from its first game to its last
# in one run, datagen's closing line (wall seconds, threads) goes into the
# record, from which reports/nnue.md renders scored plies per core-hour; a
# set finished over several runs gets no time, and neither does any set
# when UNTIMED=1 is given (for runs that share the cores with other work,
# whose wall time would understate the rate). The times of a run are kept
# in target/datasets/ until the record is written.
#
# Why a script: the steps are the same for every set, a set takes about
# half an hour on two cores, and data must survive between stretches of
# work, so several sets run unattended and each is committed when done.
# Every step resumes: an interrupted `datagen` goes on from its last game
# when started again with the same arguments, and the later steps are
# skipped when their output is already there. Do not time anything
# (SPRTs, matches, benchmarks) while it runs.
set -euo pipefail
usage="usage: tools/dataset-sets.sh REV \"EVALUATION\" SEED [SEED ...]"
rev=${1:?$usage}
evaluation=${2:?$usage}
shift 2
[[ $# -gt 0 ]] || { echo "$usage" >&2; exit 2; }
games=${GAMES:-20000}
root=$(git rev-parse --show-toplevel)
cd "$root"
mkdir -p target/sprt target/datasets data
source tools/build-rev.sh
rev=$(git rev-parse --short "$rev")
build_rev "$rev"
xtask=target/debug/xtask
[[ -x $xtask ]] || cargo build -q -p xtask
# This tree's engine binary, for `quince pack` (REV's may predate it).
cargo build -q --release --bin quince
quince=target/release/quince

# `git commit` of the named paths only, retried while another git command
# holds the index.
commit_paths() {
    local message=$1 tries
    shift
    git add -- "$@"
    for tries in 1 2 3 4 5 6; do
        git commit -q -m "$message" -- "$@" && return
        sleep 10
    done
    return 1
}

for seed in "$@"; do
    [[ $seed =~ ^[0-9]+$ ]] || { echo "seed '$seed' is not a number" >&2; exit 2; }
    set_file=data/s$seed.qdg
    packed=data/s$seed.qdp.xz
    # A set committed before packing existed keeps its .qdg.xz.
    [[ -e data/s$seed.qdg.xz ]] && packed=data/s$seed.qdg.xz
    record=reports/data/dataset-s$seed.json
    timing=target/datasets/s$seed.timing
    command="quince datagen --out $set_file --seed $seed --games $games"
    if [[ ! -e $packed ]]; then
        log=target/datasets/s$seed.log
        echo "s$seed: $command (engine $rev)" >&2
        nice -n 19 "target/sprt/$rev" datagen --out "$set_file" --seed "$seed" --games "$games" \
            2> >(tee "$log" >&2)
        # datagen's last line: "datagen: G games, P scored positions in S s
        # (R positions/s on T threads, ...)"; G counts this run's games only.
        closing=$(grep '^datagen: ' "$log" | tail -1 || true)
        pattern='^datagen: ([0-9]+) games, .* in ([0-9.]+) s \(.* on ([0-9]+) threads'
        if [[ ${UNTIMED:-0} != 1 && $closing =~ $pattern && ${BASH_REMATCH[1]} == "$games" ]]; then
            echo "--seconds ${BASH_REMATCH[2]} --threads ${BASH_REMATCH[3]}" > "$timing"
        fi
        echo "s$seed: packing" >&2
        # Packed under another name first, so an interrupted run never
        # leaves a half-written .xz that a later run would take as done.
        # `quince pack` checks that its output gives back the .qdg exactly.
        nice -n 19 "$quince" pack "$set_file" --out "data/s$seed.qdp" --force
        nice -n 19 xz -9 -T1 -c "data/s$seed.qdp" > "$packed.part"
        rm "data/s$seed.qdp"
        mv "$packed.part" "$packed"
    fi
    if ! grep -q " $set_file\$" data/SHA256SUMS; then
        sha256sum "$set_file" >> data/SHA256SUMS
    fi
    if ! git ls-files --error-unmatch "$packed" >/dev/null 2>&1; then
        commit_paths "Data set s$seed: $games self-play games by $rev ($evaluation), seed $seed, packed (quince pack, xz), with its checksum" \
            "$packed" data/SHA256SUMS
    fi
    if [[ ! -e $record ]]; then
        # shellcheck disable=SC2046 # the timing file holds two options
        "$xtask" dataset "$set_file" --commit "$rev" --evaluation "$evaluation" --command "$command" \
            $( [[ -e $timing ]] && cat "$timing" )
        commit_paths "Record of data set s$seed (xtask dataset)" "$record"
    fi
    echo "s$seed: done and committed" >&2
done
echo "now: cargo run -p xtask -- report --render, the datagen lines in reports/nnue.md, commit" >&2
