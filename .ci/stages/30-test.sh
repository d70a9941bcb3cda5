# The README's test command.
set -euo pipefail
cargo test --release
