#!/usr/bin/env bash
# Man page checks for `make check`:
#   lint     every page passes `mandoc -Tlint` (warnings included)
#   options  every option a tool's --help shows appears in its page
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-lint}
command -v mandoc >/dev/null || { echo "check-man: mandoc is not installed (apt-get install mandoc)" >&2; exit 1; }

if [ "$mode" = lint ]; then
  status=0
  for page in man/*.[157]; do
    # -W warning: style notes are advisory; warnings and errors fail the check.
    if ! out=$(mandoc -Tlint -W warning "$page" 2>&1) || [ -n "$out" ]; then
      echo "$out"
      status=1
    fi
  done
  [ $status -eq 0 ] && echo "check-man: $(ls man/*.[157] | wc -l) pages lint clean"
  exit $status
fi

bin=$(swift build --show-bin-path)
render() { mandoc -Tascii "$1" | sed 's/.\x08//g'; }
options_of() { "$@" --help 2>/dev/null | grep -oE '(^|[ ,])--[a-z0-9][a-z0-9-]*' | sed 's/^[ ,]*//' | sort -u; }
subcommands_of() {
  "$@" --help 2>/dev/null | awk '/^SUBCOMMANDS:/{on=1;next} /^[A-Z]+:/{on=0} on && /^  [a-z]/{print $1}'
}

missing=0
for dir in Sources/cairn Sources/cairn-* Sources/immich-testserver; do
  tool=$(basename "$dir")
  page="man/$tool.1"
  [ -f "$page" ] || { echo "check-man: $tool has no $page"; missing=1; continue; }
  text=$(render "$page")
  for invocation in "$tool" $(subcommands_of "$bin/$tool" | sed "s|^|$tool:|"); do
    sub=${invocation#"$tool"}; sub=${sub#:}
    for option in $(options_of "$bin/$tool" $sub); do
      [ "$option" = --help ] && continue
      if ! grep -qF -- "$option" <<<"$text"; then
        echo "check-man: $page does not document ${sub:+$sub }$option"
        missing=1
      fi
    done
  done
done
[ $missing -eq 0 ] && echo "check-man: every --help option is in its man page"
exit $missing
