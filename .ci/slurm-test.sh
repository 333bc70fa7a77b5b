#!/usr/bin/env bash
# The README's Slurm job array on a real one-node Slurm cluster: brings the cluster up on the
# loopback address (.ci/slurm-cluster.sh), runs examples/slurm.sh for a `run`, a `diff` and a
# `flags --global`, waits for the arrays and their merges, checks each merged result against
# the single-process run byte for byte, and shuts the cluster down.
# Needs the Debian packages slurm-wlm and munge, root, and target/release/ludotrace.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# shellcheck source=.ci/slurm-cluster.sh
source .ci/slurm-cluster.sh

work=$(mktemp -d)
trap 'slurm_down' EXIT
slurm_up "$work/cluster"

export LUDOTRACE="$root/target/release/ludotrace"
export LUDOTRACE_STORE="$work/store.sqlite"

cases=(
  "run um-el-bagara --all-interpretations -n 20000"
  "diff um-el-tuweisat ludii-1.0.8 ludii-intended -n 4000"
  "flags seega -n 200 --global --design 152 --global-games 20"
)
jobs=()
for i in "${!cases[@]}"; do
  # shellcheck disable=SC2086 # each case is a command line
  read -r array merge < <(UNITS=12 FORMAT=json examples/slurm.sh "$work/case-$i" ${cases[$i]})
  echo "slurm: case $i (${cases[$i]}): array $array, merge $merge"
  jobs+=("$array" "$merge")
done
SLURM_WAIT_SECONDS=1800 slurm_wait "${jobs[@]}"

status=0
for i in "${!cases[@]}"; do
  # shellcheck disable=SC2086
  "$LUDOTRACE" --no-store --format json ${cases[$i]} > "$work/case-$i/single.json"
  units=$(ls "$work/case-$i"/plan.unit-*.json | wc -l)
  if cmp -s "$work/case-$i/single.json" "$work/case-$i/result.txt"; then
    echo "slurm: case $i: $units units merged on the cluster = the single-process run, byte for byte"
  else
    echo "slurm: case $i: the merged result differs from the single-process run:" >&2
    diff "$work/case-$i/single.json" "$work/case-$i/result.txt" | head -40 >&2 || true
    status=1
  fi
done
# The merge jobs wrote the store: every block of every case, once.
"$LUDOTRACE" --format json run um-el-bagara --all-interpretations -n 20000 > "$work/again.json" 2> "$work/again.err"
cmp "$work/again.json" "$work/case-0/single.json"
grep -q "taken from the results store" "$work/again.err" || {
  echo "slurm: the merge did not write the results store" >&2
  status=1
}
exit "$status"
