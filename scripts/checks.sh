# Sourced by the shell checks (check-dist.sh, check-container.sh, check-nightly.sh): one "ok - …" / "not ok - …"
# line per check, counted in $failures for the script's exit status.
failures=0
pass() { echo "ok - $*"; }
fail() { echo "not ok - $*"; failures=$((failures + 1)); }
check() { # check DESCRIPTION COMMAND...: COMMAND must succeed (quietly)
  local what=$1; shift
  if "$@" > /dev/null; then pass "$what"; else fail "$what"; fi
}

# start_test_server NAME PHOTOS: the sample library written at PHOTOS and the test double serving
# it on the host's loopback, in the background; sets url and server_pid (the caller's trap stops
# it). Needs $work and a debug build.
start_test_server() {
  local bin
  bin=$(swift build --show-bin-path)
  python3 scripts/make-sample-library.py "$2" > /dev/null
  python3 scripts/demo-scenario.py "$2" > "$work/scenario.json"
  "$bin/immich-testserver" --port 0 --scenario "$work/scenario.json" > "$work/server.url" \
    2> "$work/server.log" &
  server_pid=$!
  for _ in $(seq 100); do [ -s "$work/server.url" ] && break; sleep 0.1; done
  url=$(head -n 1 "$work/server.url")
  [ -n "$url" ] || { echo "$1: the test server did not start"; cat "$work/server.log"; exit 1; }
}
