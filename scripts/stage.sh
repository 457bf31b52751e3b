#!/usr/bin/env bash
# Lays out a release tree (what `make dist` packs and `make install` installs):
#   stage.sh [--strip] BIN_DIR OUT_DIR
# BIN_DIR holds the built cairn binary; OUT_DIR becomes bin/, share/man, share/<shell
# completions>, share/cairn/ (the nightly script and units, still to be given their prefix)
# and install.sh, which installs the tree under a prefix and substitutes it.
set -euo pipefail
cd "$(dirname "$0")/.."
strip=0
[ "${1:-}" = --strip ] && { strip=1; shift; }
[ $# -eq 2 ] || { echo "usage: stage.sh [--strip] BIN_DIR OUT_DIR" >&2; exit 64; }
bin=$1 out=$2
tools=$(cd Sources && ls -d cairn-* | sort)

rm -rf "$out"
mkdir -p "$out/bin" "$out/share/man/man1" "$out/share/man/man5" "$out/share/man/man7" \
  "$out/share/bash-completion/completions" "$out/share/zsh/site-functions" \
  "$out/share/fish/vendor_completions.d" "$out/share/cairn"
# One binary, cairn, holds every tool; each tool's name is a symbolic link to it, and it runs
# the tool it is called by (Sources/cairn). A link, not a copy: eight copies would weigh eight
# times as much (see README, "Install").
[ -x "$bin/cairn" ] || { echo "stage: $bin/cairn is missing; build first" >&2; exit 1; }
if [ $strip = 1 ]; then
  # A release drops its debug information: it halves the binary (see README).
  strip -o "$out/bin/cairn" "$bin/cairn"  # all symbols, on GNU and macOS alike
else
  # A hard link where the file system allows it: a debug tree is large.
  ln "$bin/cairn" "$out/bin/cairn" 2>/dev/null || cp "$bin/cairn" "$out/bin/cairn"
fi
for tool in $tools; do
  ln -s cairn "$out/bin/$tool"
  cp "completions/bash/$tool" "$out/share/bash-completion/completions/$tool"
  cp "completions/zsh/_$tool" "$out/share/zsh/site-functions/_$tool"
  cp "completions/fish/$tool.fish" "$out/share/fish/vendor_completions.d/$tool.fish"
done
# cairn itself lists the tools and hands the rest to each tool's completion.
cp dist/completions/cairn.bash "$out/share/bash-completion/completions/cairn"
cp dist/completions/_cairn "$out/share/zsh/site-functions/_cairn"
cp dist/completions/cairn.fish "$out/share/fish/vendor_completions.d/cairn.fish"
# cairn-nightly is a script: its completions are written by hand.
cp dist/completions/cairn-nightly.bash "$out/share/bash-completion/completions/cairn-nightly"
cp dist/completions/_cairn-nightly "$out/share/zsh/site-functions/_cairn-nightly"
cp dist/completions/cairn-nightly.fish "$out/share/fish/vendor_completions.d/cairn-nightly.fish"
cp man/cairn.1 man/cairn-*.1 "$out/share/man/man1/"
cp man/*.5 "$out/share/man/man5/"
cp man/*.7 "$out/share/man/man7/"
cp dist/cairn-nightly.in dist/cairn-nightly.service.in dist/cairn-nightly.timer dist/container/cairn-schedule \
  dist/cairn-watch.service.in dist/cairn-watch@.service.in "$out/share/cairn/"
cp dist/install.sh "$out/install.sh"
cp LICENSE "$out/LICENSE"
chmod 0755 "$out/install.sh"
