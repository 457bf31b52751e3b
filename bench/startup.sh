#!/bin/sh
# Start-up of the multi-call binary (cairn-hash as a link to cairn) against the per-tool binary
# it replaced (cairn-hash built alone), run in turns in the same script.
# Usage: bench/startup.sh [runs]   (from the repository root; needs both release builds, static
#        as a release is:
#        swift build -c release --static-swift-stdlib --product cairn
#        swift build -c release --static-swift-stdlib --product cairn-hash)
# Prints, per form, the median wall time of 200 starts, and the ratio docs/BENCHMARKS.md reports.
set -eu
runs=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
release=${CAIRN_RELEASE_BIN:-$root/.build/release}
out=$root/bench/out/startup
starts=200
for product in cairn cairn-hash; do
  [ -x "$release/$product" ] || {
    echo "build first: swift build -c release --static-swift-stdlib --product $product" >&2
    exit 1
  }
done
# Stripped, as a release installs them, each in a folder of its own.
rm -rf "$out"
mkdir -p "$out/alone" "$out/multi" "$out/empty"
strip -o "$out/alone/cairn-hash" "$release/cairn-hash"
strip -o "$out/multi/cairn" "$release/cairn"
ln -s cairn "$out/multi/cairn-hash"
export XDG_CACHE_HOME="$out/cache"

# starts BIN ARGS...: milliseconds for $starts runs of BIN ARGS.
starts() {
  t0=$(date +%s%N)
  i=0
  while [ $i -lt $starts ]; do
    "$@" > /dev/null
    i=$((i + 1))
  done
  echo $((($(date +%s%N) - t0) / 1000000))
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# --version parses and prints; hashing an empty folder also opens the hash cache.
for form in "--version" "$out/empty"; do
  : > "$out/alone.ms"
  : > "$out/multi.ms"
  turn=0
  while [ $turn -lt "$runs" ]; do
    starts "$out/alone/cairn-hash" "$form" >> "$out/alone.ms"
    starts "$out/multi/cairn-hash" "$form" >> "$out/multi.ms"
    turn=$((turn + 1))
  done
  alone=$(median < "$out/alone.ms")
  multi=$(median < "$out/multi.ms")
  label=$form
  [ "$form" = "$out/empty" ] && label="an empty folder"
  echo "cairn-hash $label, $starts starts: alone $alone ms, multi-call $multi ms," \
    "ratio $(awk "BEGIN { printf \"%.2f\", $multi / $alone }")"
done
echo "sizes (stripped): cairn-hash alone $(du -m "$out/alone/cairn-hash" | cut -f1) MiB," \
  "cairn $(du -m "$out/multi/cairn" | cut -f1) MiB"
