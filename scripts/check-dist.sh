#!/usr/bin/env bash
# The release tarball in a minimal Debian root without Swift: installed there with its own
# install.sh, then the whole pipeline run inside the root against the test server outside it
# (127.0.0.1 is shared): a first run that seeds, a deletion, the dry run, a real run, and the
# installed cairn-nightly.
#   check-dist.sh TARBALL
# Needs Linux, root (chroot) and debootstrap: the root is scripts/debian-root.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
[ $# -eq 1 ] || { echo "usage: check-dist.sh TARBALL" >&2; exit 64; }
if [ "$(uname -s)" != Linux ] || [ "$(id -u)" != 0 ]; then
  echo "check-dist: skipped: it needs Linux and root (chroot); CI runs it"
  exit 0
fi
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")

# The mounts inside the root (/proc) must vanish with this script, whatever happens.
if [ -z "${CAIRN_CHECK_DIST_NS:-}" ]; then
  exec env CAIRN_CHECK_DIST_NS=1 unshare -m --propagation private "$0" "$@"
fi

started=$(date +%s)
root=$(scripts/debian-root.sh)

# shellcheck source=scripts/checks.sh
. "$(dirname "$0")/checks.sh"

# --- the release, unpacked and installed inside the root -------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/cairn-dist.XXXXXX")
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2> /dev/null || true
  wait 2> /dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then
    echo "(kept $work and the release in $root)"
  else
    # The cached root stays as debootstrap and apt left it: 200 MB, not 1.3 GB.
    rm -rf "$work" "$root/opt/cairn" "$root/home/cairn" "$root/tmp/cairn-dist"
  fi
}
trap cleanup EXIT
rm -rf "$root/opt/cairn" "$root/home/cairn" "$root/tmp/cairn-dist"
mkdir -p "$root/tmp/cairn-dist" "$root/home/cairn"
tar -C "$root/tmp/cairn-dist" -xJf "$tarball"
release=$(basename "$tarball" .tar.xz)
mount -t proc proc "$root/proc"
chroot "$root" "/tmp/cairn-dist/$release/install.sh" /opt/cairn > /dev/null
rm -rf "$root/tmp/cairn-dist"

check "the root has no Swift toolchain" chroot "$root" sh -c '! command -v swift'
check "the root has no Swift runtime or Foundation library" \
  bash -c '[ -z "$(find "$1" -xdev \( -name "libswiftCore*" -o -name "libFoundation*" \) -print -quit)" ]' _ "$root"
check "cairn finds every library it needs in the root" \
  chroot "$root" sh -c "! ldd /opt/cairn/bin/cairn | grep -q 'not found'"
check "cairn runs in the root" chroot "$root" /opt/cairn/bin/cairn --version
for tool in "$root"/opt/cairn/bin/cairn-*; do
  name=$(basename "$tool")
  [ "$name" = cairn-nightly ] && continue
  check "$name is a link to cairn" [ "$(readlink "$tool")" = cairn ]
  check "$name runs in the root" chroot "$root" "/opt/cairn/bin/$name" --version
done

# The size budget (README, "Install"): one binary instead of eight keeps a release small, and
# this fails the release that grows past it.
mib() { echo $(($1 / 1048576)); }
installed=$(du -sb "$root/opt/cairn" | cut -f1)
packed=$(stat -c %s "$tarball")
check "the release installs in at most 100 MiB (it takes $(mib "$installed") MiB)" \
  [ "$installed" -le $((100 * 1048576)) ]
check "the release tarball is at most 30 MiB (it is $(mib "$packed") MiB)" \
  [ "$packed" -le $((30 * 1048576)) ]

# --- the test server outside the root, the library inside it ---------------------------------
photos=$root/home/cairn/Photos
start_test_server check-dist "$photos"

# in_root NAME SHELL-COMMAND: run inside the root with a bare environment, as a login would;
# stdout, stderr and status land in $work/NAME.{out,err,status}.
in_root() {
  local status=0
  chroot "$root" env -i HOME=/home/cairn PATH=/opt/cairn/bin:/usr/bin:/bin \
    IMMICH_URL="$url" IMMICH_API_KEY=demo-secret bash -c "set -o pipefail; $2" \
    > "$work/$1.out" 2> "$work/$1.err" || status=$?
  echo "$status" > "$work/$1.status"
  [ "$status" = 0 ] || { echo "# $1 exited $status:"; sed 's/^/#   /' "$work/$1.err"; }
}
pipeline="cairn-hash /home/cairn/Photos | cairn-reconcile | cairn-gate | cairn-trash"
# A Live Photo's motion video is acted on with its still, and its result names no file.
names() {
  jq -r "select(.type==\"result\" and .action==\"$2\") | .originalFileName // \"(motion video)\"" \
    "$work/$1.out" | LC_ALL=C sort | tr '\n' ' '
}
server_trashed() { curl -s "$url/__testserver/state" | jq -r '.trashedIds | sort | join(" ")'; }
result_ids() {
  jq -r "select(.type==\"result\" and .action==\"$2\") | .assetId" "$work/$1.out" | sort \
    | tr '\n' ' ' | sed 's/ $//'
}

in_root seed "$pipeline"
check "the first run inside the root seeds and exits 0" [ "$(cat "$work/seed.status")" = 0 ]
check "the first run trashes nothing" [ -z "$(server_trashed)" ]

rm "$photos/2024/06/IMG_0003.PNG" "$photos/2024/07/IMG_0042.PNG" "$photos/2024/07/IMG_0042.MOV"
deleted="(motion video) IMG_0003.PNG IMG_0042.PNG "

in_root dry "$pipeline --dry-run"
check "the dry run exits 0" [ "$(cat "$work/dry.status")" = 0 ]
check "the dry run would trash exactly the deleted files" [ "$(names dry would-trash)" = "$deleted" ]
check "the dry run trashed nothing" [ -z "$(server_trashed)" ]

in_root real "$pipeline --yes"
check "the real run exits 0" [ "$(cat "$work/real.status")" = 0 ]
check "the real run trashed exactly the deleted files" [ "$(names real trashed)" = "$deleted" ]
check "the server's trash holds exactly what the run reported" \
  [ "$(server_trashed)" = "$(result_ids real trashed)" ]

# The installed nightly command, with the PATH cron gives it (no /opt/cairn/bin).
rm "$photos/2025/02/beach day.png"
in_root nightly "PATH=/usr/bin:/bin /opt/cairn/bin/cairn-nightly /home/cairn/Photos"
check "cairn-nightly runs inside the root and exits 0" [ "$(cat "$work/nightly.status")" = 0 ]
check "cairn-nightly trashed the one deletion" grep -q "cairn-nightly: trashed 1 " "$work/nightly.out"
check "the server's trash holds four assets" \
  [ "$(server_trashed | wc -w)" = 4 ]
check "the API key is in no output" bash -c '! grep -l demo-secret "$1"/*.out "$1"/*.err' _ "$work"

echo "check-dist: $(du -sh "$root/opt/cairn" | cut -f1) installed, $(($(date +%s) - started))s in all"
if [ $failures -gt 0 ]; then
  echo "check-dist: $failures check(s) failed (KEEP=1 keeps $work)"
  exit 1
fi
echo "check-dist: the release runs without Swift"
