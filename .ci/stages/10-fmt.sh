set -euo pipefail
cargo fmt --all --check
