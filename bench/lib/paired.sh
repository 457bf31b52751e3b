# Sourced by the benchmark scripts: two commands timed in turns (A B, A B, ...), so a burst of
# load from elsewhere on a shared machine hits both alike, with GNU time's own accounting.
#
#   paired RUNS 'COMMAND A' 'COMMAND B'
#
# Each command is run by `sh -c`, once untimed first (a warm-up), then RUNS times each. Prints,
# for each, the median wall and CPU seconds and the largest peak memory, then the median of
# the ratios A/B taken pair by pair.
paired() {
  _runs=$1 _a=$2 _b=$3
  _dir=$(mktemp -d)
  sh -c "$_a" > /dev/null 2>&1 || true
  sh -c "$_b" > /dev/null 2>&1 || true
  _i=0
  while [ "$_i" -lt "$_runs" ]; do
    for _side in a b; do
      if [ $_side = a ]; then _cmd=$_a; else _cmd=$_b; fi
      /usr/bin/time -f '%e %U %S %M' -o "$_dir/one" sh -c "$_cmd" > /dev/null 2>&1 || true
      tail -n 1 "$_dir/one" >> "$_dir/$_side"
    done
    _i=$((_i + 1))
  done
  paste -d ' ' "$_dir/a" "$_dir/b" | awk '
    function median(v, n,   i, j, t) {
      for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
        t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
      }
      return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    { aw[NR] = $1; ac[NR] = $2 + $3; bw[NR] = $5; bc[NR] = $6 + $7
      if ($4 > am) am = $4; if ($8 > bm) bm = $8
      rw[NR] = $5 > 0 ? $1 / $5 : 0; rc[NR] = bc[NR] > 0 ? ac[NR] / bc[NR] : 0 }
    END {
      printf "  A  wall %.3f s  cpu %.3f s  peak %.1f MiB\n", median(aw, NR), median(ac, NR), am / 1024
      printf "  B  wall %.3f s  cpu %.3f s  peak %.1f MiB\n", median(bw, NR), median(bc, NR), bm / 1024
      printf "  A/B  wall %.2f  cpu %.2f  (medians of %d pairs)\n", median(rw, NR), median(rc, NR), NR
    }'
  rm -rf "$_dir"
}
