#!/usr/bin/env bash
# `swift format lint` with the repository's .swift-format; any finding fails the check.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! swift format --version >/dev/null 2>&1; then
  echo "check-format: swift format is not available in this toolchain" >&2
  exit 1
fi
swift format lint --strict --recursive --parallel --configuration .swift-format Sources Tests fuzz
echo "check-format: clean"
