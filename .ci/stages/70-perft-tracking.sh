# Perft tracking: a fixed perft workload (every standard position, bulk, plus
# two full runs; hq backend, release) under callgrind. Prints instructions per
# node and the change against reports/perft-baseline.json, and fails when
# instructions per node rise more than 3 % (threshold_percent in the
# baseline). Instruction counts are deterministic; wall-clock Mnodes/s is
# printed for information only and never gated.
#
# Refresh the baseline after an intended change (e.g. after merging a
# move-generation optimisation):
#   cargo run -p xtask -- perft-track --update
set -euo pipefail
if ! command -v valgrind >/dev/null; then
  echo "installing valgrind"
  sudo apt-get install -y valgrind >/dev/null 2>&1 || apt-get install -y valgrind >/dev/null
fi
valgrind --version
cargo run -p xtask -- perft-track
