#!/bin/sh
# Benchmarks the review page at N candidates (default 5000) against immich-testserver: the page's
# bytes; the time cairn-gate takes with --review (thumbnails fetched, page written) against the
# same gate without it, in turns; and headless Chromium's time to a first rendered frame (a
# screenshot of the window) and its peak memory, against a one-tile page as the baseline. All
# timing is in turns, A B A B (bench/lib/paired.sh: medians, ratios pair by pair); /usr/bin/time -v
# gives the browser's largest process besides.
#
#   bench/review-page.sh [N]
#
# Needs cairn-fetch, cairn-observe, cairn-reconcile, cairn-gate and immich-testserver
# (BIN=<bin path>, default the release build) and Debian's chromium. Writes under bench/out/
# (ignored by git).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${BIN:-$(cd "$here/.." && swift build -c release --show-bin-path)}
n=${1:-5000}
out="$here/out/review-$n"
rm -rf "$out"
mkdir -p "$out"
export XDG_STATE_HOME="$out/state" XDG_CACHE_HOME="$out/cache" XDG_CONFIG_HOME="$out/config"
export XDG_DATA_HOME="$out/data" HOME="$out/home" LC_ALL=C
chromium=$(command -v chromium || command -v chromium-browser)

"$bin/immich-testserver" --generate "$n" > "$out/server.url" 2> "$out/server.err" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT INT TERM
while [ ! -s "$out/server.url" ]; do sleep 0.1; done
base=$(head -1 "$out/server.url")
export IMMICH_URL="$base/api" IMMICH_API_KEY=demo-secret
key="x-api-key: demo-secret"

# The candidates cairn computes when every asset's file is gone from a library that held them.
user=$(curl -s -H "$key" "$base/api/users/me" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
curl -s "$base/__testserver/assets" > "$out/assets.json"
"$bin/cairn-fetch" -q > "$out/listing.ndjson"
python3 "$here/scans-from-server.py" "$out" "$IMMICH_URL" "$user" 100
"$bin/cairn-observe" -q --no-trash < "$out/scan-full.ndjson" > /dev/null
"$bin/cairn-reconcile" -q --server "$out/listing.ndjson" < "$out/scan-gone.ndjson" \
  > "$out/candidates.ndjson"
# The threshold would (rightly) refuse trashing everything; the page is written either way,
# but the benchmark times a gate that passes.
export CAIRN_THRESHOLD_PERCENT=100
head -n 2 "$out/candidates.ndjson" > "$out/one.ndjson"
grep '^{"type":"end"' "$out/candidates.ndjson" >> "$out/one.ndjson" || true

echo "== cairn-gate --review ($n candidates) / cairn-gate alone"
. "$here/lib/paired.sh"
paired 3 "exec '$bin/cairn-gate' -q --review '$out/page.html' < '$out/candidates.ndjson'" \
  "exec '$bin/cairn-gate' -q < '$out/candidates.ndjson'"
"$bin/cairn-gate" -q --review "$out/small.html" < "$out/one.ndjson" > /dev/null 2>&1 || true
echo "== page bytes: $(wc -c < "$out/page.html") ($n candidates), $(wc -c < "$out/small.html") (one)"
echo "   tiles with a picture: $(grep -c 'data-src="data:' "$out/page.html" || true)"

# First paint: the browser opens the page and draws one frame of its window into a PNG.
paint() { # paint PAGE PROFILE
  echo "exec \"$chromium\" --headless=new --no-sandbox --disable-gpu --no-first-run \
--disable-background-networking --disable-component-update --user-data-dir=\"$out/$2\" \
--window-size=1280,900 --screenshot=\"$out/$2.png\" \"file://$1\""
}
echo "== chromium first frame: $n-candidate page / one-tile page"
paired 5 "$(paint "$out/page.html" large)" "$(paint "$out/small.html" small)"
echo "== chromium's largest process (kB), /usr/bin/time -v"
for page in page small; do
  /usr/bin/time -v sh -c "$(paint "$out/$page.html" "time-$page")" 2> "$out/time-$page.txt" > /dev/null || true
  echo "   $page: $(sed -n 's/.*Maximum resident set size (kbytes): //p' "$out/time-$page.txt")"
done
