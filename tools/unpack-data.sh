#!/usr/bin/env bash
# Restores the committed self-play data sets as the .qdg files the trainer
# reads, and checks each against data/SHA256SUMS.
#
#   tools/unpack-data.sh [SET ...]      e.g. tools/unpack-data.sh s1 s30
#                                       (no arguments: every committed set)
#
# Sets s1-s29 are committed as data/sN.qdg.xz (the games file, xz-compressed):
# `xz -dk` gives it back. Later sets are committed as data/sN.qdp.xz, the
# packed form that `quince pack` makes (about 40 % smaller, see
# src/datagen/packed.rs): `xz -dk` and then `quince unpack` give back the
# identical .qdg. A set whose .qdg is already there is only checked.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
if [[ $# -eq 0 ]]; then
    mapfile -t sets < <(git ls-files 'data/*.xz' | sed -E 's#^data/(.*)\.qd[gp]\.xz$#\1#' | sort -V)
else
    sets=("$@")
fi
quince=
for set in "${sets[@]}"; do
    [[ $set =~ ^[A-Za-z0-9_-]+$ ]] || { echo "'$set' is not a set name (s1, s30, ...)" >&2; exit 2; }
    qdg=data/$set.qdg
    if [[ ! -e $qdg ]]; then
        if [[ -e data/$set.qdg.xz ]]; then
            xz -dk "data/$set.qdg.xz"
        elif [[ -e data/$set.qdp.xz ]]; then
            if [[ -z $quince ]]; then
                cargo build -q --release --bin quince
                quince=target/release/quince
            fi
            xz -dc "data/$set.qdp.xz" > "data/$set.qdp"
            "$quince" unpack "data/$set.qdp" --out "$qdg"
            rm "data/$set.qdp"
        else
            echo "$set: neither data/$set.qdg.xz nor data/$set.qdp.xz exists" >&2
            exit 2
        fi
    fi
    grep " $qdg\$" data/SHA256SUMS | sha256sum -c --quiet - || { echo "$qdg: checksum differs from data/SHA256SUMS" >&2; exit 1; }
    echo "$qdg: ok"
done
