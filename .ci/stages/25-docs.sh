# API docs build without warnings (broken intra-doc links, private links),
# for the default build and with every slider backend compiled in. The doc
# examples themselves run in the test stage (`cargo test` includes doctests).
set -euo pipefail
RUSTDOCFLAGS='-D warnings' cargo doc --no-deps
RUSTFLAGS='-C target-cpu=x86-64-v3' RUSTDOCFLAGS='-D warnings -C target-cpu=x86-64-v3' \
  cargo doc --no-deps --no-default-features --features pext,all-sliders --target-dir target/doc-pext
