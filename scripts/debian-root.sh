#!/usr/bin/env bash
# The minimal Debian root the release checks run in (make check-dist, make check-container):
# debootstrap's minbase plus what a release needs, built once into .build-rootfs/SUITE and
# reused (delete that folder to rebuild it); DEBIAN_MIRROR picks another mirror.
#   debian-root.sh     builds the root if needed; prints its path on stdout, progress on stderr
# Needs Linux, root and debootstrap.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD

# The /proc mounted while apt runs in the root must vanish with this script, whatever happens.
if [ -z "${CAIRN_DEBIAN_ROOT_NS:-}" ]; then
  exec env CAIRN_DEBIAN_ROOT_NS=1 unshare -m --propagation private "$0" "$@"
fi

# What the binaries still need beyond a minimal Debian (see README, "Install"): glibc,
# libstdc++, libgcc and zlib are in every Debian; SQLite is not.
suite=bookworm
packages="libsqlite3-0"
rootfs=$top/.build-rootfs/$suite
started=$(date +%s)
if [ ! -f "$rootfs/.cairn-root" ] || [ "$(cat "$rootfs/.cairn-root")" != "$packages" ]; then
  command -v debootstrap > /dev/null || { echo "debian-root: debootstrap is not installed" >&2; exit 1; }
  rm -rf "$rootfs"
  mkdir -p "$top/.build-rootfs"
  # A debootstrap that finished is kept even if installing the packages fails after it.
  if [ ! -f "$rootfs.tmp/.cairn-debootstrap" ]; then
    rm -rf "$rootfs.tmp"
    debootstrap --variant=minbase "$suite" "$rootfs.tmp" \
      "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" > "$top/.build-rootfs/debootstrap.log" 2>&1 \
      || { tail -n 20 "$top/.build-rootfs/debootstrap.log" >&2; exit 1; }
    touch "$rootfs.tmp/.cairn-debootstrap"
  fi
  cp /etc/resolv.conf "$rootfs.tmp/etc/resolv.conf"
  mount -t proc proc "$rootfs.tmp/proc"
  apt_log=$top/.build-rootfs/apt.log
  # shellcheck disable=SC2086 # a list of package names
  { chroot "$rootfs.tmp" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
    chroot "$rootfs.tmp" env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -qq --no-install-recommends $packages; } > "$apt_log" 2>&1 \
    || { tail -n 20 "$apt_log" >&2; exit 1; }
  chroot "$rootfs.tmp" apt-get clean
  umount "$rootfs.tmp/proc"
  echo "$packages" > "$rootfs.tmp/.cairn-root"
  mv "$rootfs.tmp" "$rootfs"
  echo "debian-root: built the $suite root in $(($(date +%s) - started))s" >&2
else
  echo "debian-root: reusing the $suite root in .build-rootfs/" >&2
fi

echo "$rootfs"
