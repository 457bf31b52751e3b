#!/bin/sh
# Benchmarks cairn-trash: trashing N candidates (default 10000; several sizes may be given, each
# run on its own server) against immich-testserver, with the number of HTTP requests, the wall
# time and cairn-trash's own CPU time, against a baseline run in the same script: the bare HTTP
# work (the same tag and DELETE batches sent by curl, no journal, no checks).
#
#   bench/trash.sh [N...]            # e.g. bench/trash.sh 10000 100000
#
# Needs a release build: swift build -c release --product cairn-fetch --product cairn-observe \
#   --product cairn-reconcile --product cairn-gate --product cairn-trash --product immich-testserver
# (BIN=<bin path> to use another build; TRASH_BIN=<bin path> to take cairn-trash alone from
# another.) Writes under bench/out/ (ignored by git).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${BIN:-$(cd "$here/.." && swift build -c release --show-bin-path)}
trash_bin=${TRASH_BIN:-$bin}
[ $# -gt 0 ] || set -- 10000

now() { python3 -c 'import time; print(time.time())'; }
seconds() { python3 -c 'import sys; print("%.2f" % (float(sys.argv[2]) - float(sys.argv[1])))' "$@"; }
# Runs a command with stdin from $1 and stdout to $2; prints its wall and CPU (user + system)
# seconds.
timed() {
  python3 -c '
import resource, subprocess, sys, time
start = time.time()
code = subprocess.run(sys.argv[3:], stdin=open(sys.argv[1]), stdout=open(sys.argv[2], "w")).returncode
used = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.2f %.2f" % (time.time() - start, used.ru_utime + used.ru_stime))
sys.exit(code)' "$@"
}

trash_benchmark() {
n=$1
out="$here/out/trash-$n"
rm -rf "$out"
mkdir -p "$out"
export XDG_STATE_HOME="$out/state" XDG_CACHE_HOME="$out/cache" XDG_CONFIG_HOME="$out/config"
export XDG_DATA_HOME="$out/data" HOME="$out/home" LC_ALL=C

"$bin/immich-testserver" --generate "$n" > "$out/server.url" 2> "$out/server.err" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT INT TERM
while [ ! -s "$out/server.url" ]; do sleep 0.1; done
base=$(head -1 "$out/server.url")
export IMMICH_URL="$base/api" IMMICH_API_KEY=demo-secret
key="x-api-key: demo-secret"
requests() { curl -s "$base/__testserver/requests" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))'; }

# A plan cairn-trash accepts is one cairn computed: a library holding every asset's bytes is
# observed, then scanned without them (one other file keeps the root from looking unmounted),
# and cairn-reconcile proposes every asset from that scan; the gate passes the plan.
user=$(curl -s -H "$key" "$base/api/users/me" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
curl -s "$base/__testserver/assets" > "$out/assets.json"
"$bin/cairn-fetch" -q > "$out/listing.ndjson"
python3 "$here/scans-from-server.py" "$out" "$IMMICH_URL" "$user"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
ids = [a["id"] for a in json.load(open(out + "/assets.json"))]
for i in range(0, len(ids), 1000):
    with open(out + "/batch.%05d" % i, "w") as f:
        f.write(json.dumps(ids[i:i + 1000]))
PY
"$bin/cairn-observe" -q --no-trash < "$out/scan-full.ndjson" > /dev/null
"$bin/cairn-reconcile" -q --server "$out/listing.ndjson" < "$out/scan-gone.ndjson" \
  > "$out/candidates.ndjson"

# The threshold would (rightly) refuse trashing everything, in the gate and again in cairn-trash;
# this is a benchmark.
export CAIRN_THRESHOLD_PERCENT=100
"$bin/cairn-gate" -q < "$out/candidates.ndjson" > "$out/plan.ndjson"

# Baseline: the same batches with curl (one tag upsert, then per 1000 ids a tag and a trash),
# bodies prepared beforehand.
curl -s -X POST "$base/__testserver/reset-log" > /dev/null
t0=$(now)
tag=$(curl -s -X PUT -H "$key" -H 'content-type: application/json' -d '{"tags":["bench/baseline"]}' \
  "$base/api/tags" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
for batch in "$out"/batch.*; do
  ids=$(cat "$batch")
  curl -s -o /dev/null -X PUT -H "$key" -H 'content-type: application/json' \
    -d "{\"tagIds\":[\"$tag\"],\"assetIds\":$ids}" "$base/api/tags/assets"
  curl -s -o /dev/null -X DELETE -H "$key" -H 'content-type: application/json' \
    -d "{\"ids\":$ids,\"force\":false}" "$base/api/assets"
done
t1=$(now)
baseline=$(seconds "$t0" "$t1")
baseline_requests=$(requests)
curl -s -o /dev/null -X POST -H "$key" "$base/api/trash/restore"

# cairn-trash: the first run is a dry run (no requests but the checks), then the real one.
curl -s -X POST "$base/__testserver/reset-log" > /dev/null
set -- $(timed "$out/plan.ndjson" "$out/dry.ndjson" "$trash_bin/cairn-trash" -q)
dry=$1 dry_cpu=$2
dry_requests=$(requests)
curl -s -X POST "$base/__testserver/reset-log" > /dev/null
set -- $(timed "$out/plan.ndjson" "$out/results.ndjson" "$trash_bin/cairn-trash" -q --yes)
real=$1 real_cpu=$2
real_requests=$(requests)
trashed=$(grep -c '"action":"trashed"' "$out/results.ndjson" || true)
journal_lines=$(cat "$out"/state/cairn/servers/*/journal.ndjson | wc -l)
kill $server 2>/dev/null || true

ratio=$(python3 -c 'import sys; print("%.2f" % (float(sys.argv[1]) / max(float(sys.argv[2]), 0.001)))' "$real" "$baseline")
echo "cairn-trash, $n candidates"
echo "  baseline (curl: tag + DELETE batches): ${baseline} s, $baseline_requests requests"
echo "  dry run:                               ${dry} s (${dry_cpu} s CPU), $dry_requests requests"
echo "  real run:                              ${real} s (${real_cpu} s CPU), $real_requests requests, $trashed trashed, $journal_lines journal lines"
echo "  ratio real / baseline:                 $ratio"
}

for n in "$@"; do trash_benchmark "$n"; done
