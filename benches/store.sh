#!/usr/bin/env bash
# What the results store and merging cost, on the release binary: the figures of
# BENCHMARKS.md, "The results store and merge".
#
#   benches/store.sh [BINARY] [ROUNDS]      (default target/release/ludotrace, 5 rounds)
#
# 1. One thread plays Um el-Bagara `davies`, 256 000 games: 1000 blocks of 256. The same run,
#    in interleaved rounds: without a store, into a new store, into a new store with a row per
#    game (--store-games), and again from the filled store. Prints each median wall time and
#    the store's cost per block (its time less the storeless run's, over 1000 blocks), also
#    as a share of a block's play.
# 2. The issue's case: one thread plays Um el Tuweisat `ludii-1.0.8`, 2 000 000 games (7 813
#    blocks of 256, the fastest reading's games), without a store and into a new store, in
#    interleaved rounds: the store's share of the run's time, and the store's size.
# 3. `plan` cuts that run into 1000 units (one a block), `work` computes each, and `merge`
#    joins the 1000 partial results (median of the rounds, without and with the store); the
#    merged output is checked against the single run's, byte for byte.
set -euo pipefail
bin=${1:-target/release/ludotrace}
rounds=${2:-5}
if [ ! -x "$bin" ]; then
  echo "store.sh: $bin is not an executable file (cargo build --release first)" >&2
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmd=(run um-el-bagara -i davies -n 256000 --threads 1 --format json)
blocks=1000

# Wall time of a command in microseconds (its output discarded).
time_of() {
  local s e
  s=$(date +%s%N)
  "$@" >/dev/null 2>&1
  e=$(date +%s%N)
  echo $(((e - s) / 1000))
}
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

none=() store=() games=() taken=()
for ((r = 0; r < rounds; r++)); do
  none+=("$(time_of "$bin" --no-store "${cmd[@]}")")
  rm -f "$tmp"/s.sqlite*
  store+=("$(time_of "$bin" --store "$tmp/s.sqlite" "${cmd[@]}")")
  rm -f "$tmp"/g.sqlite*
  games+=("$(time_of "$bin" --store "$tmp/g.sqlite" --store-games "${cmd[@]}")")
  taken+=("$(time_of "$bin" --store "$tmp/s.sqlite" "${cmd[@]}")")
done
n=$(median "${none[@]}") s=$(median "${store[@]}") g=$(median "${games[@]}") t=$(median "${taken[@]}")
echo "run ${cmd[*]} ($blocks blocks, median of $rounds)"
awk -v n="$n" -v s="$s" -v g="$g" -v t="$t" -v b="$blocks" 'BEGIN {
  printf "  no store:              %8.3f s (%.0f us a block)\n", n / 1e6, n / b
  printf "  into a new store:      %8.3f s (+%.0f us a block, %.1f %% of its play)\n", s / 1e6, (s - n) / b, 100 * (s - n) / n
  printf "  with a row per game:   %8.3f s (+%.0f us a block, %.1f %% of its play)\n", g / 1e6, (g - n) / b, 100 * (g - n) / n
  printf "  from the filled store: %8.3f s\n", t / 1e6
}'
echo "store sizes: $(du -k "$tmp/s.sqlite" | cut -f1) kB; with games $(du -k "$tmp/g.sqlite" | cut -f1) kB"

# The fastest reading, 2 000 000 games.
fast=(run um-el-tuweisat -i ludii-1.0.8 -n 2000000 --threads 1 --format json)
fn=() fs=()
for ((r = 0; r < rounds; r++)); do
  fn+=("$(time_of "$bin" --no-store "${fast[@]}")")
  rm -f "$tmp"/t.sqlite*
  fs+=("$(time_of "$bin" --store "$tmp/t.sqlite" "${fast[@]}")")
done
a=$(median "${fn[@]}") b=$(median "${fs[@]}")
echo "run ${fast[*]} (median of $rounds; each round's pair: ${fn[*]} / ${fs[*]} us)"
awk -v n="$a" -v s="$b" 'BEGIN {
  printf "  no store:         %8.3f s\n", n / 1e6
  printf "  into a new store: %8.3f s (%+.1f %%)\n", s / 1e6, 100 * (s - n) / n
}'
echo "store size: $(du -k "$tmp/t.sqlite" | cut -f1) kB"

# Merging 1000 units.
plan=(run um-el-bagara -i davies -n 256000 --format json)
units=$("$bin" plan --quiet -o "$tmp/plan.json" "${plan[@]:0:6}")
start=$(date +%s%N)
for ((k = 0; k < units; k++)); do
  "$bin" work "$tmp/plan.json" --unit "$k" --quiet --threads 1
done
end=$(date +%s%N)
echo "plan: $units units; working them one after another took $(((end - start) / 1000000)) ms"
"$bin" --no-store "${plan[@]}" > "$tmp/single.json"
"$bin" --no-store --format json merge "$tmp/plan.json" "$tmp"/plan.unit-*.json > "$tmp/merged.json"
cmp "$tmp/single.json" "$tmp/merged.json"
m=() ms=()
for ((r = 0; r < rounds; r++)); do
  m+=("$(time_of "$bin" --no-store --format json merge "$tmp/plan.json" "$tmp"/plan.unit-*.json)")
  rm -f "$tmp"/m.sqlite*
  ms+=("$(time_of "$bin" --store "$tmp/m.sqlite" --format json merge "$tmp/plan.json" "$tmp"/plan.unit-*.json)")
done
echo "merge of $units units (= the single run, byte for byte): $(median "${m[@]}") us; writing the store too: $(median "${ms[@]}") us (median of $rounds)"
echo "partial results: $(du -ck "$tmp"/plan.unit-*.json | tail -1 | cut -f1) kB in all; plan $(du -k "$tmp/plan.json" | cut -f1) kB"
