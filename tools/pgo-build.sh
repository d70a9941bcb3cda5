#!/usr/bin/env bash
# Builds a profile-guided (PGO) quince for play: an instrumented build
# searches the `quince bench` positions, llvm-profdata merges the profile,
# and a second build optimises with it.
#
#   tools/pgo-build.sh [TARGET_CPU]     # default x86-64-v2, e.g. x86-64-v3 or native
#
# The result is target/pgo/<cpu>/use/release/quince. Needs rustc's own
# llvm-profdata (`rustup component add llvm-tools`): a system llvm-profdata
# of another LLVM version writes profiles rustc cannot read.
# Measured gains are in reports/strength.md ("Build for play").
set -euo pipefail
cd "$(dirname "$0")/.."
cpu=${1:-x86-64-v2}
profdata=$(find "$(rustc --print sysroot)" -name llvm-profdata -type f | head -n 1)
if [[ ! -x "$profdata" ]]; then
    echo "error: rustc's llvm-profdata is missing; run: rustup component add llvm-tools" >&2
    exit 2
fi
dir="$PWD/target/pgo/$cpu"
rm -rf "$dir/profiles" "$dir/merged.profdata"
echo "== instrumented build ($cpu)" >&2
RUSTFLAGS="-C target-cpu=$cpu -C profile-generate=$dir/profiles" \
    cargo build --release --bin quince --target-dir "$dir/gen"
echo "== training run: quince bench" >&2
"$dir/gen/release/quince" bench --depth 11 >/dev/null
"$profdata" merge -o "$dir/merged.profdata" "$dir/profiles"
echo "== optimised build" >&2
RUSTFLAGS="-C target-cpu=$cpu -C profile-use=$dir/merged.profdata" \
    cargo build --release --bin quince --target-dir "$dir/use"
echo "$dir/use/release/quince"
