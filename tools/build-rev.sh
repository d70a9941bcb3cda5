# Sourced by the SPRT scripts (tools/sprt-vs.sh, tools/sprt-threads.sh):
# `build_rev REV` builds the engine of commit REV (a short hash) in a
# scratch worktree and keeps the binary as target/sprt/REV, once. Expects
# to run in the repository root with `root` set to it.
build_rev() {
    local rev=$1 scratch
    [[ -x target/sprt/$rev ]] && return
    scratch=$(mktemp -d)
    git worktree add --detach "$scratch" "$rev" >/dev/null
    echo "building $rev" >&2
    (cd "$scratch" && CARGO_TARGET_DIR="$root/target/sprt-build" cargo build --release --quiet --bin quince)
    cp target/sprt-build/release/quince "target/sprt/$rev"
    git worktree remove --force "$scratch"
}
