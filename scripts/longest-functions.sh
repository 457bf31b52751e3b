#!/usr/bin/env bash
# Lists the longest functions, initializers and computed properties of cairn's product code, by
# lines from the declaration to its closing brace: the list the STYLE's "functions of one phase"
# is held against. The test double (ImmichTestServer) is not product code.
#   usage: scripts/longest-functions.sh [COUNT]   (default 10)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-10}
find Sources -name '*.swift' -not -path 'Sources/ImmichTestServer/*' -print0 | sort -z |
  xargs -0 awk '
    function strip(s) { gsub(/"([^"\\]|\\.)*"/, "", s); sub(/\/\/.*/, "", s); return s }
    FNR == 1 { open = 0 }
    !open && /^[[:space:]]*((@[A-Za-z]+(\([^)]*\))?|public|package|private|fileprivate|internal|static|final|override|mutating|nonisolated|convenience|required)[[:space:]]+)*(func[[:space:]]|init[?(<]|deinit|var[[:space:]]+[A-Za-z_]+[[:space:]]*:[^=]*\{[[:space:]]*$)/ {
      open = 1; start = FNR; depth = 0; begun = 0; name = $0
      sub(/^[[:space:]]+/, "", name); name = substr(name, 1, 70)
    }
    open {
      line = strip($0)
      n = split(line, ch, "")
      for (i = 1; i <= n; i++) {
        if (ch[i] == "{") { depth++; begun = 1 } else if (ch[i] == "}") depth--
      }
      if (begun && depth <= 0) { printf "%5d %s:%d %s\n", FNR - start + 1, FILENAME, start, name; open = 0 }
      else if (!begun && FNR - start > 8) open = 0
    }' | sort -rn | head -n "$count"
