#!/usr/bin/env bash
# Installs the few system tools cairn's demo, checks and tests use, when they are missing:
# mandoc (man-page lint), jq and curl (demo and tests), openssl (checksum tests),
# python3 (the demo's sample library), SQLite's headers (GRDB), rsync and syncthing (the
# field tests drive them for real to reproduce what they do to a library folder), and Debian's
# chromium (the review page's tests render it headless).
# On Debian/Ubuntu as root it installs them with apt-get; elsewhere it says what to install.
set -euo pipefail

need=()
command -v mandoc >/dev/null 2>&1 || need+=(mandoc)
command -v jq >/dev/null 2>&1 || need+=(jq)
command -v curl >/dev/null 2>&1 || need+=(curl)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v rsync >/dev/null 2>&1 || need+=(rsync)
command -v syncthing >/dev/null 2>&1 || need+=(syncthing)
if [ "$(uname)" = Linux ] && [ ! -e /usr/include/sqlite3.h ]; then need+=(libsqlite3-dev); fi
# make check-dist: a Debian root without Swift (debootstrap), stripped release binaries (strip);
# make check-nightly: the systemd units verified (systemd-analyze).
if [ "$(uname)" = Linux ]; then
  command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
  command -v strip >/dev/null 2>&1 || need+=(binutils)
  command -v systemd-analyze >/dev/null 2>&1 || need+=(systemd)
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  # The watcher's tests mount a FUSE file system (a root the watcher must leave to the scan).
  command -v fuse-overlayfs >/dev/null 2>&1 || need+=(fuse-overlayfs)
  # make check-container: the image built and run with podman, on the runc runtime.
  command -v podman >/dev/null 2>&1 || need+=(podman)
  command -v runc >/dev/null 2>&1 || need+=(runc)
  command -v xz >/dev/null 2>&1 || need+=(xz-utils)
fi
[ ${#need[@]} -eq 0 ] && exit 0

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "setup: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
elif command -v apt-get >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1; then
  echo "setup: installing ${need[*]} (sudo)"
  sudo apt-get update -qq
  sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
else
  echo "setup: please install: ${need[*]} (on macOS: brew install ${need[*]/libsqlite3-dev/})" >&2
  exit 1
fi
