#!/bin/sh
# The release build of cairn's own modules, at two commits, in turns: what a change to the
# module layout (CairnCore's floors as targets) costs the person who builds cairn.
# Usage: bench/build.sh [runs] [commit A] [commit B]   (from the repository root)
#        defaults: 3 runs, A = HEAD, B = 275adc4 (the last commit with CairnCore one module)
# Each commit is checked out once under bench/out/build/ and built whole once, so its
# dependencies are built; each timed run then removes only cairn's own products (its modules,
# tools and the test double; the dependencies stay) and builds `cairn` again. Prints each
# side's median wall and CPU time and the median of the ratios A/B.
set -eu
runs=${1:-3}
commit_a=${2:-HEAD}
commit_b=${3:-275adc4}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/bench/out/build
. "$root/bench/lib/paired.sh"

# A work tree of the commit, built once (the untimed build that leaves the dependencies built).
prepare() {
  tree=$out/$1
  if [ ! -d "$tree" ]; then
    git -C "$root" worktree add --detach "$tree" "$2" > /dev/null
  fi
  git -C "$tree" checkout --quiet --detach "$2"
  (cd "$tree" && swift build -c release --product cairn > /dev/null)
}

# The command that removes cairn's own release products in a tree and builds `cairn` again.
rebuild() {
  products=$out/$1/.build/release
  echo "rm -f '$out/$1/.build/release.yaml'; \
    (cd '$products' && rm -rf Cairn* cairn* Immich* immich* Modules/Cairn* Modules/cairn* Modules/Immich*); \
    cd '$out/$1' && swift build -c release --product cairn"
}

mkdir -p "$out"
prepare a "$commit_a"
prepare b "$commit_b"
echo "release build of cairn's own modules: A = $commit_a, B = $commit_b ($runs pairs, load $(cut -d' ' -f1-3 /proc/loadavg))"
paired "$runs" "$(rebuild a)" "$(rebuild b)"
