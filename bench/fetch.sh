#!/bin/sh
# cairn-fetch: full listing of 100,000 assets versus an incremental refresh after 100 changes.
#
#   bench/fetch.sh [count]          (default 100000; CONFIG=debug to use a debug build)
#
# IMMICH_VERSION=v3.2 (or v2.7; default v3.1) makes the server imitate that release: from 3.2
# on the listing pages with the structured search's cursor instead of page numbers.
#
# Starts immich-testserver with `count` generated assets, then measures with /usr/bin/time -v:
#   1. the page-by-page listing (--no-sync): wall time, requests, peak RSS (target < 200 MB);
#   2. the first sync-stream listing after --login (fills the cache);
#   3. 100 server-side changes (DELETE /api/assets of 100 ids), then the incremental refresh:
#      one stream request and one ack call, target <= 10% of the full listing's time.
set -eu
count=${1:-100000}
config=${CONFIG:-release}
cd "$(dirname "$0")/.."
swift build -c "$config" --product cairn-fetch >/dev/null
swift build -c "$config" --product immich-testserver >/dev/null
bin=$(swift build -c "$config" --show-bin-path)

work=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

"$bin/immich-testserver" --generate "$count" --version "${IMMICH_VERSION:-v3.1}" --port 0 \
  >"$work/url" 2>"$work/server.err" &
server_pid=$!
i=0
while [ ! -s "$work/url" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
url=$(head -n 1 "$work/url")
[ -n "$url" ] || { echo "immich-testserver did not start" >&2; cat "$work/server.err" >&2; exit 1; }

export HOME="$work/home" XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache"
export XDG_CONFIG_HOME="$work/config" IMMICH_URL="$url" IMMICH_API_KEY=demo-secret
export IMMICH_EMAIL=demo@example.com IMMICH_PASSWORD=demo NO_COLOR=1

# run NAME ARGS...: one timed run; prints "NAME seconds requests assets maxRSS-MB".
run() {
  name=$1
  shift
  /usr/bin/time -v -o "$work/$name.time" "$bin/cairn-fetch" "$@" >"$work/$name.out" 2>"$work/$name.err"
  secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0;
    for (k = 1; k <= n; k++) s = s * 60 + p[k]; print s}' "$work/$name.time")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.1f", $2 / 1024}' "$work/$name.time")
  end=$(tail -n 1 "$work/$name.out")
  requests=$(printf '%s' "$end" | sed -n 's/.*"requests":\([0-9]*\).*/\1/p')
  assets=$(printf '%s' "$end" | sed -n 's/.*"assets":\([0-9]*\).*/\1/p')
  printf '%-12s %8.2f s %6s requests %7s assets %7s MB max RSS\n' \
    "$name" "$secs" "$requests" "$assets" "$rss"
  eval "${name}_secs=$secs"
}

echo "cairn-fetch bench: $count assets, Immich ${IMMICH_VERSION:-v3.1}, $config build, $(nproc) cores"
run full --no-sync
"$bin/cairn-fetch" --login -q
run first_sync
# 100 server-side changes: move 100 assets to the trash through the API.
ids=$(grep '"type":"asset"' "$work/full.out" | head -n 100 |
  sed 's/.*"id":"\([^"]*\)".*/"\1"/' | paste -sd, -)
curl -fsS -X DELETE -H "x-api-key: demo-secret" -H 'content-type: application/json' \
  -d "{\"ids\":[$ids],\"force\":false}" "$url/api/assets"
curl -fsS -X POST "$url/__testserver/reset-log" >/dev/null
run incremental
log=$(curl -fsS "$url/__testserver/requests")
streams=$(printf '%s' "$log" | grep -o '"path":"/api/sync/stream"' | wc -l)
acks=$(printf '%s' "$log" | grep -o '"method":"POST","path":"/api/sync/ack"' | wc -l)
trashed=$(grep -c '"isTrashed":true' "$work/incremental.out" || true)
echo "incremental: $streams stream request(s), $acks ack call(s), $trashed trashed assets listed"
awk -v a="$incremental_secs" -v b="$full_secs" \
  'BEGIN { printf "ratio incremental / full listing: %.1f%% (target <= 10%%)\n", 100 * a / b }'
