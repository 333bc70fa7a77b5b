#!/usr/bin/env bash
# Times two release builds of ludotrace side by side, in one session, on the same readings:
# the way BENCHMARKS.md's speed-ups are measured (the machine's speed varies between sessions,
# so only builds timed in the same run compare).
#
#   benches/compare.sh OLD_BINARY NEW_BINARY ROUNDS "GAME READING GAMES" ...
#
# For each reading, the two binaries run `run GAME -i READING -n GAMES --threads 1` in
# interleaved rounds (old, new, old, new, ...); the script prints each binary's median CPU
# time (user + system seconds: on one thread, close to the wall time on an idle machine and
# less disturbed than it by other work on a busy one), the ratio old/new, and, less the
# median time of a run of one game (the start-up: loading the corpus), the games' own rate
# in playouts per second and its ratio (CPU time is counted in hundredths of a second: give
# runs of a few seconds). It checks that both printed the same results (the JSON less the
# version and corpus hash lines), so a speed-up never hides a change of outcome.
#
# With CALLGRIND=1 it counts instructions instead (one round each, under valgrind's
# callgrind): repeatable whatever else the machine is doing. It counts the games' own
# instructions: those of the run minus those of a run of one game (corpus loading, output).
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,14p' "$0" >&2
  exit 2
fi
old=$1 new=$2 rounds=$3
shift 3
for bin in "$old" "$new"; do
  if [ ! -x "$bin" ]; then
    echo "compare.sh: $bin is not an executable file (give two ludotrace release binaries)" >&2
    exit 2
  fi
done
case $rounds in
  '' | *[!0-9]* | 0) echo "compare.sh: ROUNDS must be a whole number of at least 1, not '$rounds'" >&2; exit 2 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

printf '%-32s %8s %10s %10s %8s\n' reading games old new speedup
for spec in "$@"; do
  read -r game reading games <<<"$spec"
  args=(run "$game" -i "$reading" -n "$games" --threads 1 --quiet --format json)
  if [ "${CALLGRIND:-0}" = 1 ]; then
    # The games' instructions: the run minus a run of one game (loading, output).
    one=(run "$game" -i "$reading" -n 1 --threads 1 --quiet --format json)
    for which in old new; do
      bin=${!which}
      valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$which" "$bin" "${args[@]}" \
        >"$tmp/out.$which" 2>"$tmp/vg.$which"
      valgrind --tool=callgrind --callgrind-out-file="$tmp/cg1.$which" "$bin" "${one[@]}" \
        >/dev/null 2>"$tmp/vg1.$which"
      all=$(grep -o 'Collected : [0-9]*' "$tmp/vg.$which" | awk '{print $3}')
      base=$(grep -o 'Collected : [0-9]*' "$tmp/vg1.$which" | awk '{print $3}')
      echo $((all - base)) >"$tmp/t.$which"
    done
  else
    : >"$tmp/t.old"
    : >"$tmp/t.new"
    : >"$tmp/s.old"
    : >"$tmp/s.new"
    one=(run "$game" -i "$reading" -n 1 --threads 1 --quiet --format json)
    for _ in $(seq "$rounds"); do
      for which in old new; do
        bin=${!which}
        /usr/bin/time -f '%U %S' -o "$tmp/one" "$bin" "${args[@]}" >"$tmp/out.$which"
        awk '{print $1 + $2}' "$tmp/one" >>"$tmp/t.$which"
        # The start-up (loading the corpus, output), to find the games' own rate.
        /usr/bin/time -f '%U %S' -o "$tmp/one" "$bin" "${one[@]}" >/dev/null
        awk '{print $1 + $2}' "$tmp/one" >>"$tmp/s.$which"
      done
    done
    so=$(median <"$tmp/s.old")
    sn=$(median <"$tmp/s.new")
  fi
  o=$(median <"$tmp/t.old")
  n=$(median <"$tmp/t.new")
  same=same
  # The results, less what names the build and the corpus rather than the games.
  results() { grep -v -e '"version"' -e '"corpus_hash"' "$1"; }
  if ! diff -q <(results "$tmp/out.old") <(results "$tmp/out.new") >/dev/null; then
    same=DIFFERENT
  fi
  if [ "${CALLGRIND:-0}" = 1 ]; then
    printf '%-32s %8s %10s %10s %7.2fx %s\n' "$game/$reading" "$games" "$o" "$n" \
      "$(awk -v o="$o" -v n="$n" 'BEGIN {print (n > 0 ? o / n : 0)}')" "$same"
  else
    # Games per second without the start-up, and the speed-up of the games alone.
    awk -v g="$games" -v o="$o" -v n="$n" -v so="$so" -v sn="$sn" -v r="$game/$reading" \
      -v same="$same" 'BEGIN {
        go = o - so; gn = n - sn
        if (go <= 0) go = 0.001
        if (gn <= 0) gn = 0.001
        printf "%-32s %8s %10s %10s %7.2fx %s  games/s %.0f -> %.0f (%.2fx)\n",
          r, g, o, n, (n > 0 ? o / n : 0), same, g / go, g / gn, go / gn
      }'
  fi
done
