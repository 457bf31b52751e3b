#!/usr/bin/env bash
# Installs this cairn release tree under a prefix:
#   ./install.sh [PREFIX]        (default /usr/local; DESTDIR=… stages for a package)
# The cairn binary and its tools' links go to PREFIX/bin, man pages and completions under
# PREFIX/share, and the nightly script and systemd user units get PREFIX's absolute paths
# written into them: cron and systemd run them with a PATH that does not hold ~/.local/bin.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
prefix=${1:-${PREFIX:-/usr/local}}
case $prefix in
  /*) ;;
  *) echo "install.sh: PREFIX must be an absolute path (got '$prefix')" >&2; exit 64 ;;
esac
prefix=${prefix%/}
case $prefix in
  *[\'\"\\]* | *$'\n'*)
    echo "install.sh: PREFIX may not hold quotes, backslashes or newlines" >&2; exit 64 ;;
esac
dest=${DESTDIR:-}$prefix

install -d "$dest/bin" "$dest/share/systemd/user"
install -m 0755 "$here/bin/cairn" "$dest/bin/cairn"
# Every tool is the one binary called by the tool's name; a link replaces an older release's
# binary of that name.
for f in "$here"/bin/cairn-*; do ln -sfn cairn "$dest/bin/${f##*/}"; done
for sub in man/man1 man/man5 man/man7 bash-completion/completions zsh/site-functions \
  fish/vendor_completions.d; do
  install -d "$dest/share/$sub"
  for f in "$here/share/$sub"/*; do install -m 0644 "$f" "$dest/share/$sub/"; done
done

# @BINDIR@ is the final path (without DESTDIR): where the files will be when they run.
# In a unit file % starts a specifier, so it is doubled there; & and | are sed's own.
substitute() {
  local value=$prefix/bin
  [ "$3" = unit ] && value=${value//%/%%}
  value=$(printf '%s' "$value" | sed 's/[&|]/\\&/g')
  sed "s|@BINDIR@|$value|g" "$1" > "$2"
}
substitute "$here/share/cairn/cairn-nightly.in" "$dest/bin/cairn-nightly" script
chmod 0755 "$dest/bin/cairn-nightly"
substitute "$here/share/cairn/cairn-nightly.service.in" "$dest/share/systemd/user/cairn-nightly.service" unit
install -m 0644 "$here/share/cairn/cairn-nightly.timer" "$dest/share/systemd/user/"
substitute "$here/share/cairn/cairn-watch.service.in" "$dest/share/systemd/user/cairn-watch.service" unit
substitute "$here/share/cairn/cairn-watch@.service.in" "$dest/share/systemd/user/cairn-watch@.service" unit
chmod 0644 "$dest/share/systemd/user/"cairn-*.service
echo "installed cairn under $dest"
