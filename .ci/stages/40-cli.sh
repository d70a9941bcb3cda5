# The README's main command, and every shared suite through the CLI,
# so the JSON contract is exercised on real output.
set -euo pipefail
cargo build --release
./target/release/quince perft --depth 5
./target/release/quince perft --depth 5 --json
./target/release/quince suite tests/data/standard.epd --max-nodes 20000000
