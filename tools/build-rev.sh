# Sourced by the SPRT scripts (tools/sprt-vs.sh, tools/sprt-threads.sh):
# `build_rev REV [BASE]` builds the engine of commit REV (a short hash) in
# a scratch worktree and keeps the binary as target/sprt/REV, once. Expects
# to run in the repository root with `root` set to it.
#
# A change that did not pass its SPRT lives on a side branch, and side
# branches do not travel with a clone of `main`; its patch in
# reports/sprt/tested/REV-*.patch (or, for a change prepared but not yet
# tested, reports/sprt/queued/REV-*.patch) does. So when REV is not a commit here,
# that patch is applied to BASE (the commit it was tested against) and the
# result is built under REV's name: the pages' resume commands
# (`tools/sprt-vs.sh 4002fa4 5612cff`) work on any clone. tools/match.py
# records the binary's SHA-256 in each run's segment, so a rebuild that is
# not byte-identical is on the record.

# The patch of side-branch commit $1 under reports/sprt/tested/ (tested,
# not kept) or reports/sprt/queued/ (prepared, not yet tested), or an
# error saying there is none.
patch_of_rev() {
    local f
    for f in reports/sprt/tested/"$1"-*.patch reports/sprt/queued/"$1"-*.patch; do
        [[ -f $f ]] && { echo "$f"; return 0; }
    done
    echo "error: $1 is not a commit in this clone and there is no reports/sprt/tested/$1-*.patch or reports/sprt/queued/$1-*.patch to rebuild it from" >&2
    return 1
}

build_rev() {
    local rev=$1 base=${2:-} scratch patch= tree=$1
    [[ -x target/sprt/$rev ]] && return
    if ! git cat-file -e "$rev^{commit}" 2>/dev/null; then
        patch=$(patch_of_rev "$rev") || return 1
        [[ -n $base ]] || { echo "error: $rev is only a patch ($patch); give the commit it applies to" >&2; return 1; }
        tree=$base
    fi
    scratch=$(mktemp -d)
    git worktree add --detach "$scratch" "$tree" >/dev/null
    if [[ -n $patch ]]; then
        echo "building $rev from $patch on $base" >&2
        git -C "$scratch" apply "$root/$patch" || { git worktree remove --force "$scratch"; return 1; }
    else
        echo "building $rev" >&2
    fi
    (cd "$scratch" && CARGO_TARGET_DIR="$root/target/sprt-build" cargo build --release --quiet --bin quince)
    mkdir -p target/sprt
    cp target/sprt-build/release/quince "target/sprt/$rev"
    git worktree remove --force "$scratch"
}
