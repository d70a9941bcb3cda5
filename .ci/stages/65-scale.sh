# Perft at scale: split -> GNU parallel -> merge on a small depth, checked
# against the known total, and a threads + hash perft.
set -euo pipefail
if ! command -v parallel >/dev/null; then
  apt-get update -qq && apt-get install -y -qq parallel >/dev/null
fi
cargo build --release
q=./target/release/quince
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Kiwipete perft(5) = 193,690,690 as 2 plies of units (transpositions merged),
# one unit per parallel job, with a job log so an interrupted run can --resume.
kiwipete='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'
$q perft split --fen "$kiwipete" --depth 5 --split-depth 2 > "$work/units.jsonl"
parallel --will-cite --pipe -N 50 --joblog "$work/joblog" \
  "$q" perft work - < "$work/units.jsonl" > "$work/results.jsonl"
nodes=$($q perft merge "$work/results.jsonl" --units "$work/units.jsonl" --json \
  | sed -n 's/.*"nodes":\([0-9]*\).*/\1/p')
echo "split/parallel/merge: kiwipete perft(5) = $nodes"
test "$nodes" = 193690690

# Start position perft(6) with two threads and a shared hash table.
nodes=$($q perft --depth 6 --threads 2 --hash 64 --json | sed -n 's/.*"nodes":\([0-9]*\).*/\1/p')
echo "threads + hash: perft(6) = $nodes"
test "$nodes" = 119060324
