# Quince as a dependency (issue 28): with default features off the library
# pulls in no runtime crate at all (clap, serde_json and indicatif belong to
# the `cli` feature), it builds alone, and the crate packages: `cargo
# package` builds the packed sources (with the build-time table generator,
# packed beside it) the way a user's download would.
set -euo pipefail
deps=$(cargo tree -p quince --no-default-features --features hq -e normal --prefix none \
  | sed 1d | sort -u)
if [ -n "$deps" ]; then
  echo "the library without default features depends on:"; echo "$deps"; exit 1
fi
cargo check --lib --no-default-features --features hq
cargo package -p quince-codegen -p quince --allow-dirty
