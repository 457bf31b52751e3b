# Sourced by the shell checks (check-dist.sh, check-nightly.sh): one "ok - …" / "not ok - …"
# line per check, counted in $failures for the script's exit status.
failures=0
pass() { echo "ok - $*"; }
fail() { echo "not ok - $*"; failures=$((failures + 1)); }
check() { # check DESCRIPTION COMMAND...: COMMAND must succeed (quietly)
  local what=$1; shift
  if "$@" > /dev/null; then pass "$what"; else fail "$what"; fi
}
