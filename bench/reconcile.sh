#!/bin/sh
# Benchmarks cairn-reconcile and cairn-observe against baselines run in the same script.
#
#   bench/reconcile.sh [N]        (N local files and N server assets; default 1000000)
#   TURNS=5                       (turns of baseline and measured runs, medians reported)
#
# Needs a release build: swift build -c release --product cairn-reconcile --product cairn-observe
# Writes its streams and state under bench/out/ (ignored by git).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${BIN:-$(cd "$here/.." && swift build -c release --show-bin-path)}
n=${1:-1000000}
out="$here/out/reconcile-$n"
deleted=$((n / 200))
rm -rf "$out"
mkdir -p "$out"
export XDG_STATE_HOME="$out/state" XDG_CACHE_HOME="$out/cache" XDG_CONFIG_HOME="$out/config"
export XDG_DATA_HOME="$out/data" HOME="$out/home" LC_ALL=C

python3 "$here/gen-streams.py" "$out" "$n" "$n" "$deleted"

seconds() { python3 -c 'import sys; print("%.2f" % (float(sys.argv[2]) - float(sys.argv[1])))' "$@"; }
# GNU date's nanoseconds cost a millisecond; starting Python to ask the time costs a tenth of a
# second, which would land inside every interval measured. (BSD date has no %N.)
now() {
  case $(date +%N) in
    *N) python3 -c 'import time; print(time.time())' ;;
    *) date +%s.%N ;;
  esac
}
peak() { sed -n 's/.*Maximum resident set size (kbytes): //p' "$1" | awk '{printf "%.0f MB", $1/1024}'; }

# Baseline: the set difference with the standard tools. Prints its wall time.
baseline() {
  t0=$(now)
  sort "$out/local.txt" > "$out/local.sorted"
  sort "$out/server.txt" > "$out/server.sorted"
  comm -13 "$out/local.sorted" "$out/server.sorted" > "$out/server-only.txt"
  t1=$(now)
  seconds "$t0" "$t1"
}
baseline > /dev/null  # server-only.txt, which every measured run is checked against

# Seed the observed store (the first run of a partition), then measure the second run.
t0=$(now)
if ! /usr/bin/time -v "$bin/cairn-reconcile" -q --server "$out/server.ndjson" \
  < "$out/scan-1.ndjson" > /dev/null 2> "$out/seed.err"; then
  cat "$out/seed.err" >&2
  exit 1
fi
t1=$(now)
seed=$(seconds "$t0" "$t1")
# The measured run: the scan without the deleted files. Prints its wall time; its candidates'
# checksums go to $1.txt, which must be exactly the deleted files' (the server-only ones here).
measured() {
  t0=$(now)
  /usr/bin/time -v "$bin/cairn-reconcile" -v --server "$out/server.ndjson" \
    < "$out/scan-2.ndjson" > "$out/$1.ndjson" 2> "$out/$1.err"
  t1=$(now)
  sed -n 's/.*"type":"candidate".*"checksum":"\([^"]*\)".*/\1/p' "$out/$1.ndjson" \
    | sort > "$out/$1.txt"
  cmp -s "$out/$1.txt" "$out/server-only.txt" \
    || { echo "$1: the candidates are not the deleted files' checksums" >&2; exit 1; }
  seconds "$t0" "$t1"
}
# Every measured run starts from the seeded state and cache. The seeding run leaves some 450 MB
# of state to be written back; a measured run should not wait on that writeback.
cp -a "$out/state" "$out/state.seeded"
cp -a "$out/cache" "$out/cache.seeded"
reseed() {
  rm -rf "$out/state" "$out/cache"
  cp -a "$out/state.seeded" "$out/state"
  cp -a "$out/cache.seeded" "$out/cache"
  sync
}

# In turns, so that a burst of load from elsewhere meets the baseline and the runs alike: the
# baseline, the measured run (the seeding run's lookups carried over), and the same run with the
# lookups made afresh (no listing-presence), as after a changed listing.
turns=${TURNS:-5}
: > "$out/turns"
i=0
while [ "$i" -lt "$turns" ]; do
  b=$(baseline)
  reseed
  w=$(measured candidates)
  reseed
  rm -f "$out"/cache/cairn/servers/*/listing-presence
  a=$(measured candidates-afresh)
  echo "$b $w $a" >> "$out/turns"
  i=$((i + 1))
done
candidates=$(grep -c '"type":"candidate"' "$out/candidates.ndjson" || true)
# Medians of each column, and of the ratios taken turn by turn.
summary=$(awk '
  function median(v, n,   i, j, t) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
      t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
    }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  { b[NR] = $1; w[NR] = $2; a[NR] = $3; rw[NR] = $2 / $1; ra[NR] = $3 / $1 }
  END {
    printf "%.2f %.2f %.2f %.2f %.2f", median(b, NR), median(w, NR), median(a, NR), median(rw, NR), median(ra, NR)
  }' "$out/turns")
set -- $summary

echo "cairn-reconcile, $n local files against $n server assets ($deleted deleted), $turns turns (load $(cut -d' ' -f1-3 /proc/loadavg)):"
echo "  sort+comm baseline, median:      $1 s"
echo "  first run (seeding):             $seed s, peak memory $(peak "$out/seed.err")"
echo "  cairn-reconcile (whole), median: $2 s, peak memory $(peak "$out/candidates.err"), $candidates candidates"
echo "  phases of the last turn (-v):"
grep -E '^cairn-reconcile: [a-z ]+:' "$out/candidates.err" | sed 's/^/    /'
echo "  ratio whole/baseline, median of the turns: $4"
echo "  the same run, lookups made afresh (no listing-presence): $3 s, ratio $5," \
  "peak memory $(peak "$out/candidates-afresh.err")"

# cairn-observe: recording an unchanged 100,000-file scan.
m=100000
obs="$out/observe"
python3 "$here/gen-streams.py" "$obs" "$m" 1 0
export XDG_STATE_HOME="$obs/state"  # a partition of its own
"$bin/cairn-observe" -q --server "$obs/server.ndjson" --no-trash < "$obs/scan-1.ndjson" > /dev/null
t0=$(now)
cat "$obs/scan-1.ndjson" > /dev/null
t1=$(now)
"$bin/cairn-observe" -q --server "$obs/server.ndjson" --no-trash < "$obs/scan-1.ndjson" > /dev/null
t2=$(now)
echo "cairn-observe, recording an unchanged $m-file scan: $(seconds "$t1" "$t2") s" \
  "(cat of the same stream: $(seconds "$t0" "$t1") s)"
