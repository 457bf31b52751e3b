#!/usr/bin/env bash
# Removes what install.sh put under a prefix (`make uninstall` runs it):
#   uninstall.sh DEST        (DEST is DESTDIR and PREFIX together)
# The names come from this source tree the way stage.sh lays out the release, so whatever a
# release installs — each tool, its man page and completions, the nightly script, every unit
# in dist/ — is removed again. Folders stay: other programs may share them.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 1 ] || { echo "usage: uninstall.sh DEST" >&2; exit 64; }
dest=${1%/}
share=$dest/share

files=()
for tool in cairn $(cd Sources && ls -d cairn-*) cairn-nightly; do
  files+=("$dest/bin/$tool" "$share/bash-completion/completions/$tool"
    "$share/zsh/site-functions/_$tool" "$share/fish/vendor_completions.d/$tool.fish")
done
for page in man/cairn*.1 man/*.5 man/*.7; do
  files+=("$share/man/man${page##*.}/${page#man/}")
done
for unit in dist/*.service.in dist/*.timer; do
  unit=${unit#dist/}
  files+=("$share/systemd/user/${unit%.in}")
done
removed=0
for file in "${files[@]}"; do
  if [ -e "$file" ] || [ -L "$file" ]; then rm -f "$file" && removed=$((removed + 1)); fi
done
echo "removed $removed file(s) of cairn from $dest"
