# Smoke test of the side-by-side comparison (examples/versus.rs): Quince and
# the three peer crates on the six standard positions, two plies shallower
# than the report's depths, one round. It asserts every engine's counts, so
# the peers' perft functions the benches use are checked too. The full
# comparison (minutes, wall clock) is a documented command, not a CI job:
#   RUSTFLAGS='-C target-cpu=x86-64-v3' cargo run --release --no-default-features \
#       --features pext,peers-pext --example versus -- --rounds 5 --min-time 1
set -euo pipefail
cargo run --release --example versus -- --quick --rounds 1
