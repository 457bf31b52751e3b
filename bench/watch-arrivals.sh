#!/bin/sh
# An import seen by the watcher: 5,000 photos renamed into a watched library folder (as a sync
# tool puts them there), timed until the watcher has recorded every one as observed, against
# cairn-hash reading the same 5,000 files with no cache, in turns (bench/lib/paired.sh).
# Usage: bench/watch-arrivals.sh [runs]   (from the repository root; needs a build of
#        cairn-observe and cairn-hash: CAIRN_BIN=... names the folder, default .build/debug)
# One measured run is `bench/watch-arrivals.sh once`: the folder is reset, a watcher started
# over it, the photos renamed in, and the run ends when watch-status.json counts 5,000
# arrivals recorded (it is rewritten at most once a second, and arrivals are written at most
# once a second: both are in the time); it prints its own time from the first rename.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${CAIRN_BIN:-$root/.build/debug}
out=$root/bench/out/watch-arrivals
count=5000
for tool in cairn-observe cairn-hash; do
  [ -x "$bin/$tool" ] || { echo "build first: swift build --product $tool" >&2; exit 1; }
done
export XDG_CACHE_HOME="$out/cache" XDG_STATE_HOME="$out/state" XDG_CONFIG_HOME="$out/config"

# Corpus: 5,000 files of 16 KiB (80 MiB), distinct bytes each, and a server identity.
prepare() {
  [ -f "$out/.ready" ] && return
  rm -rf "$out"
  mkdir -p "$out/staging" "$out/library/DCIM" "$out/config"
  openssl rand -out "$out/seed" 16368
  i=0
  while [ $i -lt $count ]; do
    { printf '%015d\n' $i; cat "$out/seed"; } > "$out/staging/IMG_$i.JPG"
    i=$((i + 1))
  done
  printf '%s\n' \
    '{"type":"header","schema":"1.0","tool":"cairn-fetch","roots":[],"server":{"url":"http://bench.invalid/api","userId":"00000000-0000-4000-8000-000000000001","version":"2.7.0"}}' \
    > "$out/server.ndjson"
  touch "$out/.ready"
}

once() {
  # Reset: the photos back where they came from, no state, no cache.
  find "$out/library/DCIM" -name '*.JPG' -exec mv -t "$out/staging" {} +
  rm -rf "$out/state" "$out/cache" "$out/watch.log"
  "$bin/cairn-observe" watch --server "$out/server.ndjson" "$out/library" 2> "$out/watch.log" &
  watcher=$!
  while ! grep -q watching "$out/watch.log"; do sleep 0.02; done
  t0=$(date +%s%N)
  find "$out/staging" -name '*.JPG' -exec mv -t "$out/library/DCIM" {} +
  status=$(find "$out/state" -name watch-status.json 2> /dev/null | head -n 1)
  while [ -z "$status" ] || ! grep -q "\"arrivalsRecorded\":$count[,}]" "$status"; do
    sleep 0.02
    status=$(find "$out/state" -name watch-status.json 2> /dev/null | head -n 1)
  done
  echo "all $count observed $((($(date +%s%N) - t0) / 1000000)) ms after the first rename" >&2
  kill -TERM $watcher
  wait $watcher
  # Back in staging, for cairn-hash's turn.
  find "$out/library/DCIM" -name '*.JPG' -exec mv -t "$out/staging" {} +
}

prepare
case ${1:-} in
  once) once ;;
  *)
    runs=${1:-3}
    . "$root/bench/lib/paired.sh"
    echo "A: the watcher, 5,000 arrivals recorded; B: cairn-hash --no-cache over the same files"
    paired "$runs" "sh '$0' once" "'$bin/cairn-hash' --no-cache '$out/staging'"
    ;;
esac
