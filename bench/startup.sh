#!/bin/sh
# Start-up of the multi-call binary (each tool as a link to cairn) against the per-tool binaries
# it replaced (the tool built alone), run in turns in the same script. cairn-hash is the tool
# that links least beside cairn's core; cairn-fetch already held the HTTP client.
# Usage: bench/startup.sh [runs]   (from the repository root; needs the release builds, static
#        as a release is:
#        swift build -c release --static-swift-stdlib --product cairn
#        swift build -c release --static-swift-stdlib --product cairn-hash
#        swift build -c release --static-swift-stdlib --product cairn-fetch)
# Prints, per form, the median wall time of 200 starts of each, and the ratio docs/BENCHMARKS.md
# reports.
set -eu
runs=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
release=${CAIRN_RELEASE_BIN:-$root/.build/release}
out=$root/bench/out/startup
starts=200
for product in cairn cairn-hash cairn-fetch; do
  [ -x "$release/$product" ] || {
    echo "build first: swift build -c release --static-swift-stdlib --product $product" >&2
    exit 1
  }
done
# Stripped, as a release installs them, each in a folder of its own.
rm -rf "$out"
mkdir -p "$out/alone" "$out/multi" "$out/library"
strip -o "$out/multi/cairn" "$release/cairn"
for tool in cairn-hash cairn-fetch; do
  strip -o "$out/alone/$tool" "$release/$tool"
  ln -s cairn "$out/multi/$tool"
done
head -c 4096 /dev/urandom > "$out/library/IMG_0001.JPG"
export XDG_CACHE_HOME="$out/cache"

# starts BIN ARGS...: milliseconds for $starts runs of BIN ARGS.
starts() {
  t0=$(date +%s%N)
  i=0
  while [ $i -lt $starts ]; do
    "$@" > /dev/null 2>&1
    i=$((i + 1))
  done
  echo $((($(date +%s%N) - t0) / 1000000))
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# compare LABEL TOOL ARGS...: the tool alone and as a link to cairn, in turns.
compare() {
  label=$1 tool=$2
  shift 2
  : > "$out/alone.ms"
  : > "$out/multi.ms"
  turn=0
  while [ $turn -lt "$runs" ]; do
    starts "$out/alone/$tool" "$@" >> "$out/alone.ms"
    starts "$out/multi/$tool" "$@" >> "$out/multi.ms"
    turn=$((turn + 1))
  done
  alone=$(median < "$out/alone.ms")
  multi=$(median < "$out/multi.ms")
  echo "$label, $starts starts: alone $alone ms, multi-call $multi ms," \
    "ratio $(awk "BEGIN { printf \"%.2f\", $multi / $alone }")"
}

# --version parses and prints; hashing a one-photo library (cached after the first start) also
# opens the hash cache and writes records.
compare "cairn-hash --version" cairn-hash --version
compare "cairn-hash on a one-photo library" cairn-hash "$out/library"
compare "cairn-fetch --version" cairn-fetch --version
echo "sizes (stripped): cairn-hash alone $(du -m "$out/alone/cairn-hash" | cut -f1) MiB," \
  "cairn-fetch alone $(du -m "$out/alone/cairn-fetch" | cut -f1) MiB," \
  "cairn $(du -m "$out/multi/cairn" | cut -f1) MiB"
