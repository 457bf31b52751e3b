#!/usr/bin/env bash
# The container image (Containerfile) built from the release tarball, as a NAS beside Immich
# would run it: the library mounted read-only, the state in a named volume, the API key from a
# secret file, the network the host's (the test server listens on its loopback). The scheduler
# seeds at start, then a deletion goes through the dry run and the real run, in fresh
# containers that share only the volume; last, the watcher sees a deletion as it happens.
#   check-container.sh TARBALL
# Needs Linux, root and podman (scripts/setup.sh installs it). Docker Hub is out of reach, so
# the base image is the Debian root scripts/debian-root.sh builds, imported; podman runs with
# its own storage and configuration in .build-container/ (runc, cgroupfs, no default ulimits).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
[ $# -eq 1 ] || { echo "usage: check-container.sh TARBALL" >&2; exit 64; }
if [ "$(uname -s)" != Linux ] || [ "$(id -u)" != 0 ]; then
  echo "check-container: skipped: it needs Linux and root; CI runs it"
  exit 0
fi
command -v podman > /dev/null || { echo "check-container: podman is not installed" >&2; exit 1; }
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
started=$(date +%s)

# shellcheck source=scripts/checks.sh
. "$(dirname "$0")/checks.sh"

# --- podman of its own: storage, configuration, the base image --------------------------------
state=$top/.build-container
mkdir -p "$state"
cat > "$state/containers.conf" <<CONF
[containers]
default_ulimits = []
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
cat > "$state/storage.conf" <<CONF
[storage]
driver = "overlay"
graphroot = "$state/storage"
runroot = "$state/run"
CONF
export CONTAINERS_CONF=$state/containers.conf CONTAINERS_STORAGE_CONF=$state/storage.conf

root=$(scripts/debian-root.sh)
# The base, imported once per root: the time the root was finished names the tag.
base=localhost/cairn-debian:bookworm-$(stat -c %Y "$root/.cairn-root")
if ! podman image exists "$base"; then
  tar -C "$root" --exclude=./proc/* -c . | podman import -q - "$base" > /dev/null
fi

# --- the image, from the release tarball ------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-container.XXXXXX")
image=localhost/cairn:check
volume=cairn-check-state
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2> /dev/null || true
  wait 2> /dev/null || true
  podman rm -f -t 0 cairn-check-schedule cairn-check-watch > /dev/null 2>&1 || true
  podman volume rm -f "$volume" > /dev/null 2>&1 || true
  # Earlier bases and the layers nothing names any more.
  podman images --format '{{.Repository}}:{{.Tag}}' | grep '^localhost/cairn-debian:' \
    | grep -vxF "${base:-}" | xargs -r podman rmi > /dev/null 2>&1 || true
  podman image prune -f > /dev/null 2>&1 || true
  if [ "${KEEP:-0}" = 1 ]; then echo "(kept $work)"; else rm -rf "$work"; fi
}
trap cleanup EXIT
mkdir "$work/context"
ln "$tarball" "$work/context/" 2> /dev/null || cp "$tarball" "$work/context/"
# SWIFT_IMAGE names the base too: the source stage is not built, and nothing is pulled.
if ! podman build -q --network host -f Containerfile -t "$image" --build-arg BASE="$base" \
  --build-arg SWIFT_IMAGE="$base" --build-arg TREE=release \
  --build-arg RELEASE="$(basename "$tarball")" "$work/context" > "$work/build.log" 2>&1; then
  tail -n 30 "$work/build.log"
  echo "check-container: the image did not build"
  exit 1
fi
check "the image has no Swift toolchain" podman run --rm "$image" sh -c '! command -v swift'
check "cairn runs in the image as the unprivileged user cairn" \
  podman run --rm "$image" sh -c '[ "$(id -un)" = cairn ] && cairn --version'
check "every tool's name runs cairn" podman run --rm "$image" sh -c \
  'for t in hash observe fetch reconcile gate trash tag restore; do cairn-$t --version || exit 1; done'

# --- the test server on the host, the library and the key beside the containers --------------
photos=$work/Photos
start_test_server check-container "$photos"
# The key as a secret file readable by the container's user alone.
printf 'demo-secret\n' > "$work/immich_api_key"
chown 1000:1000 "$work/immich_api_key"
chmod 0400 "$work/immich_api_key"
# As the compose example passes it: a secret file named by IMMICH_API_KEY_FILE.
key=(-v "$work/immich_api_key:/run/secrets/immich_api_key:ro"
  -e IMMICH_API_KEY_FILE=/run/secrets/immich_api_key)
podman volume create "$volume" > /dev/null
cairn_run=(podman run --network host -v "$photos:/photos:ro" -v "$volume:/var/lib/cairn"
  "${key[@]}" -e IMMICH_URL="$url")

# in_container NAME COMMAND...: a fresh container, removed after; stdout, stderr and status land
# in $work/NAME.{out,err,status}.
in_container() {
  local name=$1 status=0
  shift
  "${cairn_run[@]}" --rm "$image" "$@" > "$work/$name.out" 2> "$work/$name.err" || status=$?
  echo "$status" > "$work/$name.status"
  [ "$status" = 0 ] || { echo "# $name exited $status:"; sed 's/^/#   /' "$work/$name.err"; }
}
server_trashed() { curl -s "$url/__testserver/state" | jq -r '.trashedIds | length'; }

# The image's own command: the scheduler, told to run once at start.
"${cairn_run[@]}" -d --name cairn-check-schedule "$image" cairn-schedule --at-start 03:30 > /dev/null
for _ in $(seq 300); do
  podman logs cairn-check-schedule 2>&1 | grep -q 'next run at 03:30' && break
  sleep 0.2
done
podman logs cairn-check-schedule > "$work/schedule.out" 2> "$work/schedule.err"
podman stop -t 10 cairn-check-schedule > /dev/null
check "the scheduler's run at start seeds, and trashes nothing" \
  grep -q 'cairn-nightly: trashed 0 ' "$work/schedule.out"
check "the scheduler then waits for 03:30" grep -q 'next run at 03:30' "$work/schedule.err"
check "the scheduler stops cleanly on docker stop" \
  [ "$(podman inspect -f '{{.State.ExitCode}}' cairn-check-schedule)" = 0 ]
podman rm cairn-check-schedule > /dev/null
check "the first run trashed nothing" [ "$(server_trashed)" = 0 ]

check "the library is read-only in the container" \
  "${cairn_run[@]}" --rm "$image" sh -c '! touch /photos/cairn-was-here 2> /dev/null'

rm "$photos/2024/06/IMG_0003.PNG" "$photos/2024/07/IMG_0042.PNG" "$photos/2024/07/IMG_0042.MOV"
in_container dry cairn-nightly
check "the next run, in a new container, remembers the seed: a dry run of the deletion" \
  grep -q 'cairn-nightly: dry run, would trash 2,' "$work/dry.out"
check "the dry run trashed nothing" [ "$(server_trashed)" = 0 ]
in_container real cairn-nightly
check "the real run exits 0" [ "$(cat "$work/real.status")" = 0 ]
check "the real run trashed the deletion" grep -q 'cairn-nightly: trashed 2 (+1 Live' "$work/real.out"
check "the server's trash holds exactly those three assets" [ "$(server_trashed)" = 3 ]
in_container restore cairn restore list
check "cairn restore list, from the volume's journal, shows the run" \
  grep -q '"assets":3,"inTrash":3' "$work/restore.out"
# The optional second service: the watcher, in its own container on the same volume.
"${cairn_run[@]}" -d --name cairn-check-watch "$image" cairn-observe watch > /dev/null
watch_log() { podman logs cairn-check-watch 2>&1; }
for _ in $(seq 300); do watch_log | grep -q 'watching 1 root(s)' && break; sleep 0.2; done
rm "$photos/2025/02/beach day.png"
for _ in $(seq 300); do watch_log | grep -q 'deleted at .*beach day.png' && break; sleep 0.2; done
podman stop -t 10 cairn-check-watch > /dev/null
watch_log > "$work/watch.err"
check "the watcher in its container saw the deletion on the host as it happened" \
  grep -q 'deleted at .*: /photos/2025/02/beach day.png' "$work/watch.err"
check "the watcher recorded it in the volume and stopped cleanly" \
  bash -c 'grep -q "stopped; 1 deletion(s) and 0 arrival(s) recorded" "$1" && [ "$(podman inspect -f "{{.State.ExitCode}}" cairn-check-watch)" = 0 ]' _ "$work/watch.err"
podman rm cairn-check-watch > /dev/null

podman inspect "$image" > "$work/inspect.json"
check "the API key is in no output and not in the image" \
  bash -c '! grep -l demo-secret "$1"/*.out "$1"/*.err "$1"/inspect.json' _ "$work"

echo "check-container: the image is $(podman image inspect -f '{{.Size}}' "$image" \
  | awk '{ printf "%d MiB", $1 / 1048576 }'), $(($(date +%s) - started))s in all"
if [ $failures -gt 0 ]; then
  echo "check-container: $failures check(s) failed (KEEP=1 keeps $work)"
  exit 1
fi
echo "check-container: the image runs the pipeline beside the server"
