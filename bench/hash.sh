#!/bin/sh
# Measures cairn-hash against baselines run in the same script, on the same page-cached corpus.
# Usage: bench/hash.sh [runs]   (from the repository root; needs a release build:
#        swift build -c release --product cairn-hash)
# Prints median wall times and the ratios docs/BENCHMARKS.md reports.
set -eu
runs=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${CAIRN_HASH_BIN:-$root/.build/release/cairn-hash}
out=$root/bench/out/hash
jobs=$(nproc)
[ -x "$bin" ] || { echo "build first: swift build -c release --product cairn-hash" >&2; exit 1; }
mkdir -p "$out"
export XDG_CACHE_HOME="$out/cache"

# Corpus: ~1 GiB in 100 files of 1-20 MiB, and 50,000 files of 4 KiB in 100 folders.
if [ ! -f "$out/.ready" ]; then
  rm -rf "$out/big" "$out/small"
  mkdir -p "$out/big" "$out/small"
  i=0
  while [ $i -lt 100 ]; do
    mib=$(( i % 20 + 1 ))
    openssl rand -out "$out/big/IMG_$i.JPG" $(( mib * 1048576 ))
    i=$(( i + 1 ))
  done
  openssl rand -out "$out/seed" 4096
  d=0
  while [ $d -lt 100 ]; do
    mkdir -p "$out/small/d$d"
    f=0
    while [ $f -lt 500 ]; do
      # 4 KiB each, all different: the seed with the file's number in front.
      { printf '%08d%08d' $d $f; head -c 4080 "$out/seed"; } > "$out/small/d$d/$f.jpg"
      f=$(( f + 1 ))
    done
    d=$(( d + 1 ))
  done
  touch "$out/.ready"
fi
# Page-cache both corpora.
cat "$out"/big/* > /dev/null
find "$out/small" -type f -print0 | xargs -0 cat > /dev/null

# median SECONDS of $runs runs of a shell command; `prepare` runs untimed before each.
median() {
  prepare=$1; shift
  times=""
  n=0
  while [ $n -lt "$runs" ]; do
    sh -c "$prepare"
    start=$(date +%s.%N)
    sh -c "$*" > /dev/null
    end=$(date +%s.%N)
    times="$times $(echo "$end - $start" | bc -l)"
    n=$(( n + 1 ))
  done
  echo $times | tr ' ' '\n' | sort -g | awk '{a[NR]=$1} END {printf "%.4f", a[int((NR+1)/2)]}'
}
ratio() { echo "scale=2; $1 / $2" | bc -l; }
nocache="rm -rf '$XDG_CACHE_HOME'"

echo "cairn-hash bench: $(nproc) cores, $runs runs each, medians in seconds"
big_ours=$(median "$nocache" "'$bin' -q '$out/big'")
big_ours_nc=$(median true "'$bin' -q --no-cache '$out/big'")
big_openssl=$(median true "find '$out/big' -type f -print0 | xargs -0 -P$jobs -n 16 openssl dgst -sha1")
big_sha1sum=$(median true "sha1sum '$out'/big/*")
echo "big   cairn-hash (empty cache) $big_ours  --no-cache $big_ours_nc"
echo "big   xargs -P$jobs openssl    $big_openssl  ratio $(ratio "$big_openssl" "$big_ours") (bar >= 0.8)"
echo "big   sha1sum                 $big_sha1sum  ratio $(ratio "$big_sha1sum" "$big_ours") (bar >= 2)"

small_ours=$(median "$nocache" "'$bin' -q '$out/small'")
small_ours_nc=$(median true "'$bin' -q --no-cache '$out/small'")
small_sha1sum=$(median true "find '$out/small' -type f -print0 | xargs -0 -P$jobs sha1sum")
echo "small cairn-hash (empty cache) $small_ours  --no-cache $small_ours_nc"
echo "small xargs -P$jobs sha1sum    $small_sha1sum  ratio $(ratio "$small_sha1sum" "$small_ours") (bar >= 1)"

# Warm: fill the cache (files must be older than the racy margin: they are), then time.
"$bin" -q "$out/small" > /dev/null
warm_ours=$(median true "'$bin' -q '$out/small'")
warm_find=$(median true "find '$out/small' -type f -printf '%s %T@ %p\n'")
cached=$("$bin" -q "$out/small" | tail -n 1 | sed 's/.*"cached":\([0-9]*\).*/\1/')
echo "warm  cairn-hash ($cached cached) $warm_ours"
echo "warm  find -printf            $warm_find  ratio $(ratio "$warm_ours" "$warm_find") (bar <= 3)"

start_ours=$(median true "'$bin' --version")
echo "start cairn-hash --version    $start_ours (bar < 0.030)"
