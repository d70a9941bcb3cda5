# The machine's rustup toolchain plus the components CI uses.
set -euo pipefail
rustup component add rustfmt clippy 2>/dev/null || true
cargo --version
rustc --version
