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

# The machine may be shared: contenders of a group run in turns (A B C, A B C, ...), so a burst
# of load from elsewhere hits them alike. Each prints the median of its wall times in seconds.
times=$out/times
once() {  # NAME PREPARE COMMAND: time one run, append to $times.NAME
  sh -c "$2"
  start=$(date +%s.%N)
  sh -c "$3" > /dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l >> "$times.$1"
}
median() { sort -g "$times.$1" | awk '{a[NR]=$1} END {printf "%.4f", a[int((NR+1)/2)]}'; }
ratio() { echo "scale=2; $1 / $2" | bc -l; }
nocache="rm -rf '$XDG_CACHE_HOME'"
rm -f "$times".*

echo "cairn-hash bench: $(nproc) cores, $runs runs each, medians in seconds"
n=0
while [ $n -lt "$runs" ]; do
  once big_ours "$nocache" "'$bin' -q '$out/big'"
  once big_ours_nc true "'$bin' -q --no-cache '$out/big'"
  once big_openssl true "find '$out/big' -type f -print0 | xargs -0 -P$jobs -n 16 openssl dgst -sha1"
  once big_sha1sum true "sha1sum '$out'/big/*"
  n=$(( n + 1 ))
done
echo "big   cairn-hash (empty cache) $(median big_ours)  --no-cache $(median big_ours_nc)"
echo "big   xargs -P$jobs openssl    $(median big_openssl)  ratio $(ratio "$(median big_openssl)" "$(median big_ours)") (bar >= 0.8)"
echo "big   sha1sum                 $(median big_sha1sum)  ratio $(ratio "$(median big_sha1sum)" "$(median big_ours)") (bar >= 2)"

n=0
while [ $n -lt "$runs" ]; do
  once small_ours "$nocache" "'$bin' -q '$out/small'"
  once small_ours_nc true "'$bin' -q --no-cache '$out/small'"
  once small_sha1sum true "find '$out/small' -type f -print0 | xargs -0 -P$jobs sha1sum"
  n=$(( n + 1 ))
done
echo "small cairn-hash (empty cache) $(median small_ours)  --no-cache $(median small_ours_nc)"
echo "small xargs -P$jobs sha1sum    $(median small_sha1sum)  ratio $(ratio "$(median small_sha1sum)" "$(median small_ours)") (bar >= 1; --no-cache $(ratio "$(median small_sha1sum)" "$(median small_ours_nc)"))"

# Warm: fill the cache (the files are older than the racy margin), then time.
"$bin" -q "$out/small" > /dev/null
cached=$("$bin" -q "$out/small" | tail -n 1 | sed 's/.*"cached":\([0-9]*\).*/\1/')
n=0
while [ $n -lt "$runs" ]; do
  once warm_ours true "'$bin' -q '$out/small'"
  once warm_find true "find '$out/small' -type f -printf '%s %T@ %p\\n'"
  once start_ours true "'$bin' --version"
  n=$(( n + 1 ))
done
echo "warm  cairn-hash ($cached cached) $(median warm_ours)"
echo "warm  find -printf            $(median warm_find)  ratio $(ratio "$(median warm_ours)" "$(median warm_find)") (bar <= 1.5)"
echo "start cairn-hash --version    $(median start_ours) (bar < 0.030)"
