#!/usr/bin/env bash
# The whole cairn story against the bundled Immich test server, on 127.0.0.1 only:
# seed, delete a few files, dry run, real run, inspect the run, restore. No network, no root.
# Everything it makes lives in demo-work/ and is removed at the end (KEEP=1 keeps it).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
work=$top/demo-work

bold() { if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then printf '\n\033[1m== %s\033[0m\n' "$*"; else printf '\n== %s\n' "$*"; fi; }
say() { printf '   %s\n' "$*"; }
run() { printf '\n$ %s\n' "$*"; eval "$@"; }

bold "Building cairn"
swift build 2>&1 | tail -n 1
bin=$(swift build --show-bin-path)
export PATH="$bin:$PATH"

rm -rf "$work"
mkdir -p "$work"
# The review page outlives demo-work/, so it can be opened after the demo.
page=${REVIEW_PAGE:-${TMPDIR:-/tmp}/cairn-demo-review.html}
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  [ -n "$server_pid" ] && wait "$server_pid" 2>/dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then echo "(kept $work)"; else rm -rf "$work"; fi
}
trap cleanup EXIT

# A private HOME and XDG folders: the demo never touches your real cairn state.
export HOME=$work/home XDG_STATE_HOME=$work/state XDG_CACHE_HOME=$work/cache
export XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data
unset IMMICH_URL IMMICH_API_KEY IMMICH_EMAIL IMMICH_PASSWORD
mkdir -p "$HOME"

bold "A photo library of real image files"
python3 scripts/make-sample-library.py "$work/Photos" >/dev/null
(cd "$work/Photos" && find . -type f | sort | sed 's|^\./|   |')

bold "Starting the Immich test server (a stand-in for your real server)"
python3 scripts/demo-scenario.py "$work/Photos" > "$work/scenario.json"
immich-testserver --port 0 --scenario "$work/scenario.json" > "$work/server.url" 2> "$work/server.log" &
server_pid=$!
for _ in $(seq 100); do [ -s "$work/server.url" ] && break; sleep 0.1; done
url=$(head -n 1 "$work/server.url")
[ -n "$url" ] || { echo "demo: the test server did not start:"; cat "$work/server.log"; exit 1; }
say "listening on $url"
say "it holds every photo above (uploaded from the phone), one photo that was never in this"
say "folder, and a partner's shared copy of IMG_0003.PNG"
export IMMICH_URL=$url IMMICH_API_KEY=demo-secret

bold "1. Check the server, the key and its permissions"
run "cairn-fetch check > /dev/null"

bold "2. First run: cairn learns what the library holds, and trashes nothing"
run "cairn-hash '$work/Photos' | cairn-reconcile | cairn-gate | cairn-trash > /dev/null"

bold "3. Delete three photos locally (one is a Live Photo: still + motion video)"
run rm "'$work/Photos/2024/06/IMG_0003.PNG'" "'$work/Photos/2024/07/IMG_0042.PNG'" "'$work/Photos/2024/07/IMG_0042.MOV'"
run mv "'$work/Photos/2025/01/IMG_0100.PNG'" "'$work/Photos/2025/IMG_0100-renamed.PNG'"
say "(a rename is not a deletion)"

bold "4. The first run that finds something is always a dry run"
say "(stderr shows the plan; stdout carries records, summarised here with jq)"
say "(--review also writes the plan as a page of Immich's own thumbnails, to look at by sight)"
run "cairn-hash '$work/Photos' | cairn-reconcile | cairn-gate --review '$page' | cairn-trash | jq -c 'select(.type==\"result\") | {action, originalFileName, livePhotoVideo}'"
say "the review page: $page (open it in a browser; it loads nothing from anywhere)"

bold "5. The real run"
run "cairn-hash '$work/Photos' | cairn-reconcile | cairn-gate | cairn-trash --yes | jq -c 'select(.type==\"result\") | {action, originalFileName, livePhotoVideo}'"

bold "What the server holds now"
run "curl -s '$url/__testserver/state' | jq -c '{trashed: .trashedIds}'"

bold "6. Inspect the run: the server's own record (the run tag) and the local journal"
run "cairn-tag | jq -c 'select(.type==\"run\") | {runId, assets, inTrash}'"
run "cairn-restore list | jq -c '{runId, assets, inTrash, completed}'"

bold "7. Restore the run"
run_id=$(cairn-tag 2>/dev/null | jq -r 'select(.type=="run") | .runId' | tail -n 1)
run "cairn-restore --run-id '$run_id' | jq -c 'select(.type==\"result\") | {action, originalFileName}'"
run "curl -s '$url/__testserver/state' | jq -c '{trashed: .trashedIds}'"
say "the restored photos are now excluded, so the next run leaves them alone:"
run "cairn-hash '$work/Photos' | cairn-reconcile | cairn-gate | cairn-trash --dry-run > /dev/null"

bold "Done"
say "the review page of step 4 is at $page"
say "the never-local photo and the partner's copy were never touched;"
say "everything cairn did is in the journal and on the server's tags."
