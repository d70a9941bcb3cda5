# The NNUE pipeline end to end, small: self-play data (and resuming it),
# the trainer's own tests and a one-epoch fit, and the engine's integer
# evaluation checked against the trainer's independent one on the committed
# network. Then the hand-written evaluation's build (`hce`), the A/B side.
# Full-size runs (millions of positions) are documented in reports/nnue.md.
set -euo pipefail
cargo build --release --bin quince
cargo build --release -p quince-trainer
cargo test --release -p quince-trainer
work=$(mktemp -d)
./target/release/quince datagen --out "$work/d.qdg" --games 6 --threads 2 --nodes 1000
./target/release/quince datagen --out "$work/d.qdg" --games 10 --threads 2 --nodes 1000 2>&1 \
  | tee "$work/resume.log"
grep -q "6 of 10 games already there" "$work/resume.log"
./target/release/quince-train stats --data "$work/d.qdg" | tee "$work/stats.txt"
grep -q "^games *: 10$" "$work/stats.txt"
./target/release/quince-train train --data "$work/d.qdg" --out-dir "$work/net" --epochs 1 --hidden 32
test -s "$work/net/last.qnn" && test -s "$work/net/log.json"
for fen in "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" \
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" \
           "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1" \
           "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10" \
           "8/8/8/4k3/8/8/3QK3/8 b - - 0 1"; do
  engine=$(./target/release/quince eval --json --fen "$fen" | python3 -c 'import json,sys; print(json.load(sys.stdin)["nnue"])')
  trainer=$(./target/release/quince-train eval --net nets/quince.qnn --fen "$fen")
  echo "$fen: engine $engine, trainer $trainer"
  [[ "$engine" == "$trainer" ]]
done
# King-bucketed inputs and a hidden layer: the committed network (v16)
# has neither, so the code paths that follow each side's king (a refresh
# when its view changes) and the hidden layer's (pairwise products, the
# sparse dot products of every vector build, the float units) are built
# and tested here with a mirrored four-bucket network with an 8-unit
# hidden layer, from the same games, embedded through
# QUINCE_NETWORK in a target directory of its own: the engine's
# incremental updates against full refreshes, its features against the
# trainer's, its dot products against plain sums, and its evaluation
# against the trainer's independent one. (v13, committed from c8b0ec5 to
# 6069d72, which put v11 back, had the layer; this network then had
# none, so that both output paths stayed covered.) It trains five epochs
# at a high learning rate: one epoch at the default left every unit dead
# on these few positions, so both evaluations were 0 and their agreement
# said nothing (the loop below also wants a nonzero one).
./target/release/quince-train train --data "$work/d.qdg" --out-dir "$work/kb" --epochs 5 --lr 0.05 --hidden 16 \
  --buckets 2 --king-buckets m4 --l1 8
[[ $(head -c 4 "$work/kb/last.qnn") == QNN4 ]]
# `export` quantises the float checkpoint into the very file training
# wrote, and refuses to replace a file without --force (exit 2).
./target/release/quince-train export --from "$work/kb/last.qnf" --out "$work/kb/again.qnn"
cmp "$work/kb/last.qnn" "$work/kb/again.qnn"
set +e
./target/release/quince-train export --from "$work/kb/last.qnf" --out "$work/kb/again.qnn" 2>/dev/null
status=$?
set -e
[[ $status == 2 ]]
#
# These builds, and the `hce` one below, use the `ci-backends` profile
# (release optimisation without fat LTO) in 35-backends' target directory,
# whose dependencies are built already: fat-LTO builds of their own took
# four minutes of this stage, and what they check does not depend on LTO.
export QUINCE_NETWORK="$work/kb/last.qnn"
no_lto=(--profile ci-backends --target-dir target/backends)
cargo test "${no_lto[@]}" --lib nnue
cargo test "${no_lto[@]}" -p quince-trainer features_match_the_engine
cargo build "${no_lto[@]}" --bin quince
for fen in "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" \
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" \
           "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1" \
           "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"; do
  engine=$(target/backends/ci-backends/quince eval --json --fen "$fen" | python3 -c 'import json,sys; print(json.load(sys.stdin)["nnue"])')
  trainer=$(./target/release/quince-train eval --net "$QUINCE_NETWORK" --fen "$fen")
  echo "king buckets, hidden layer: $fen: engine $engine, trainer $trainer"
  [[ "$engine" == "$trainer" ]]
  [[ "$engine" == 0 ]] || nonzero=yes
done
[[ ${nonzero:-} == yes ]] || { echo "the test network says 0 everywhere: its comparison shows nothing" >&2; exit 1; }
unset QUINCE_NETWORK
cargo test "${no_lto[@]}" --features hce --lib search
