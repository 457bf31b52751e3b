#!/bin/sh
# Benchmarks cairn-restore: restoring a run of N trashed assets (default 10000), one of them
# purged from the trash, against immich-testserver, with the number of HTTP requests, the time
# and the CPU time, against a baseline run in the same script: the bare HTTP work (the same
# restore batches sent by curl, no journal, no checks, no read-back, nothing purged).
#
#   bench/restore.sh [N]
#
# Needs a build of cairn-restore and immich-testserver (BIN=<bin path>, default the release
# one): swift build -c release --product cairn-restore --product immich-testserver
# Writes under bench/out/ (ignored by git).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${BIN:-$(cd "$here/.." && swift build -c release --show-bin-path)}
n=${1:-10000}
out="$here/out/restore-$n"
rm -rf "$out"
mkdir -p "$out"
export XDG_STATE_HOME="$out/state" XDG_CACHE_HOME="$out/cache" XDG_CONFIG_HOME="$out/config"
export XDG_DATA_HOME="$out/data" HOME="$out/home" LC_ALL=C

now() { python3 -c 'import time; print(time.time())'; }
seconds() { python3 -c 'import sys; print("%.2f" % (float(sys.argv[2]) - float(sys.argv[1])))' "$@"; }

"$bin/immich-testserver" --generate "$n" > "$out/server.url" 2> "$out/server.err" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT INT TERM
while [ ! -s "$out/server.url" ]; do sleep 0.1; done
base=$(head -1 "$out/server.url")
export IMMICH_URL="$base/api" IMMICH_API_KEY=demo-secret
key="x-api-key: demo-secret"
json='content-type: application/json'
requests() { curl -s "$base/__testserver/requests" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))'; }
reset_log() { curl -s -X POST "$base/__testserver/reset-log" > /dev/null; }

# The run as cairn-trash leaves it: every asset tagged cairn/v1/run/<run> and trashed, and the
# journal saying so (written here: the bench measures restoring, not trashing).
run=2026-11-22T10:15:00Z-3F2A9C1B
user=$(curl -s -H "$key" "$base/api/users/me" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
curl -s "$base/__testserver/assets" > "$out/assets.json"
tag=$(curl -s -X PUT -H "$key" -H "$json" -d "{\"tags\":[\"cairn/v1/run/$run\"]}" "$base/api/tags" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
python3 - "$out" "$IMMICH_URL" "$user" "$run" "$tag" <<'PY'
import hashlib, json, os, sys
out, url, user, run, tag = sys.argv[1:]
assets = json.load(open(out + "/assets.json"))
ids = [a["id"] for a in assets]
for i in range(0, len(ids), 1000):
    with open(out + "/batch.%06d" % i, "w") as f:
        f.write(json.dumps(ids[i:i + 1000]))
at = "2026-11-22T10:15:00.000Z"
lines = [{"event": "started", "runId": run, "at": at, "tagId": tag}]
for i in range(0, len(assets), 1000):
    lines.append({"event": "planned", "runId": run, "at": at, "assets": [
        {"id": a["id"], "checksum": a["checksum"], "originalFileName": a["originalFileName"]}
        for a in assets[i:i + 1000]]})
for i in range(0, len(ids), 1000):
    lines.append({"event": "tagged", "runId": run, "at": at, "tagId": tag, "assetIds": ids[i:i + 1000]})
    lines.append({"event": "sending", "runId": run, "at": at, "assetIds": ids[i:i + 1000]})
    lines.append({"event": "trashed", "runId": run, "at": at, "assetIds": ids[i:i + 1000]})
lines.append({"event": "completed", "runId": run, "at": at})
print(json.dumps(lines), file=open(out + "/journal.json", "w"))
PY
for batch in "$out"/batch.*; do
  ids=$(cat "$batch")
  curl -s -o /dev/null -X PUT -H "$key" -H "$json" -d "{\"tagIds\":[\"$tag\"],\"assetIds\":$ids}" \
    "$base/api/tags/assets"
done
trash_all() {
  for batch in "$out"/batch.*; do
    curl -s -o /dev/null -X DELETE -H "$key" -H "$json" -d "{\"ids\":$(cat "$batch"),\"force\":false}" \
      "$base/api/assets"
  done
}
trash_all

# Baseline: the same restore batches with curl, bodies prepared beforehand.
reset_log
t0=$(now)
for batch in "$out"/batch.*; do
  curl -s -o /dev/null -X POST -H "$key" -H "$json" -d "{\"ids\":$(cat "$batch")}" \
    "$base/api/trash/restore/assets"
done
t1=$(now)
baseline=$(seconds "$t0" "$t1")
baseline_requests=$(requests)

# Back in the trash, and one asset deleted for good from it and purged, as a person would.
trash_all
purged=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[0])' "$out/batch.000000")
curl -s -o /dev/null -X DELETE -H "$key" -H "$json" -d "{\"ids\":[\"$purged\"],\"force\":true}" \
  "$base/api/assets"
curl -s -o /dev/null -X POST "$base/__testserver/run-jobs"

# cairn-restore needs the journal where it keeps it: the partition folder is made by a first
# call (--list needs no server), then the journal written there.
"$bin/cairn-restore" -q --dry-run --run-id "$run" > /dev/null 2>&1 || true
dir=$(ls -d "$out"/state/cairn/servers/*/)
python3 -c 'import json,sys
for line in json.load(open(sys.argv[1])): print(json.dumps(line))' "$out/journal.json" \
  > "$dir/journal.ndjson"

reset_log
t0=$(now)
status=0
/usr/bin/time -f '%U %S' -o "$out/cpu" "$bin/cairn-restore" -q --run-id "$run" \
  > "$out/results.ndjson" 2> "$out/restore.err" || status=$?
t1=$(now)
real=$(seconds "$t0" "$t1")
real_requests=$(requests)
breakdown=$(curl -s "$base/__testserver/requests" | python3 -c '
import collections, json, sys
count = collections.Counter(r["method"] + " " + r["path"].split("/api/")[-1] for r in json.load(sys.stdin))
print(", ".join("%d %s" % (n, k) for k, n in sorted(count.items(), key=lambda kv: -kv[1])))')
cpu=$(python3 -c 'import sys; u, s = open(sys.argv[1]).read().split()[-2:]; print("%.2f" % (float(u) + float(s)))' "$out/cpu")
restored=$(grep -c '"action":"restored"' "$out/results.ndjson" || true)
failed=$(grep -c '"action":"failed"' "$out/results.ndjson" || true)

ratio=$(python3 -c 'import sys; print("%.2f" % (float(sys.argv[1]) / max(float(sys.argv[2]), 0.001)))' "$real" "$baseline")
per=$(python3 -c 'import sys; print("%.1f" % (float(sys.argv[1]) * 1000 / int(sys.argv[2])))' "$real_requests" "$n")
echo "cairn-restore, a run of $n assets, one purged"
echo "  baseline (curl: restore batches):  ${baseline} s, $baseline_requests requests"
echo "  cairn-restore (exit $status):             ${real} s, ${cpu} s CPU, $real_requests requests ($per per 1,000), $restored restored, $failed failed"
echo "  requests by route:                 $breakdown"
echo "  ratio cairn-restore / baseline:    $ratio"
