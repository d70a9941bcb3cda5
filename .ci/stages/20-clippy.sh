# Clippy for every feature set CI builds, and the build-time crates.
set -euo pipefail
cargo clippy --all-targets -- -D warnings
cargo clippy --all-targets --no-default-features --features magic -- -D warnings
RUSTFLAGS='-C target-cpu=x86-64-v3' cargo clippy --all-targets --no-default-features --features pext -- -D warnings
cargo clippy -p quince-codegen -p xtask --all-targets -- -D warnings
