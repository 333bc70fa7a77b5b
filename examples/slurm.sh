#!/usr/bin/env bash
# Runs a ludotrace command (`run`, `diff` or `flags`) on a Slurm cluster as a job array, one
# array task per unit of work, then a merge job that starts once every task has succeeded.
# The merged result is byte for byte what the command prints in one process.
#
#   examples/slurm.sh DIR COMMAND...
#   examples/slurm.sh results/bagara run um-el-bagara --all-interpretations -n 1000000
#
# DIR gets the plan, one partial result per unit, each task's log, and the result in
# DIR/result.txt. Prints the two job ids (array, merge): wait for the second.
# Environment: LUDOTRACE (the binary, default `ludotrace` on PATH: it must be the same build
# on every node), UNITS (at most this many units, default 64), FORMAT (the result's
# --format, default table), SBATCH_OPTIONS (more sbatch options, e.g. "--partition=long").
# The merge writes the results store (LUDOTRACE_STORE, or the default in the data directory
# of the user the job runs as); the units write none.
set -euo pipefail

if [ "$#" -lt 2 ]; then
  echo "usage: $0 DIR COMMAND..." >&2
  exit 2
fi
dir=$1
shift
ludotrace=${LUDOTRACE:-ludotrace}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

# The plan lists the units; with -o it prints how many there are.
units=$("$ludotrace" plan --quiet --units "${UNITS:-64}" -o "$dir/plan.json" "$@")

# Shell-quoted words, for the jobs' command lines.
q() { printf '%q ' "$@"; }
q1() { printf '%q' "$1"; }
# shellcheck disable=SC2086 # SBATCH_OPTIONS is a list of options.
array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --job-name=ludotrace-units \
  --array="0-$((units - 1))" --output="$dir/unit-%a.log" \
  --wrap "$(q "$ludotrace" work "$dir/plan.json") --unit \$SLURM_ARRAY_TASK_ID")
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTIONS:-} --job-name=ludotrace-merge \
  --dependency="afterok:$array" --output="$dir/merge.log" \
  --wrap "$(q "$ludotrace" --format "${FORMAT:-table}" merge "$dir/plan.json") $(q1 "$dir")/plan.unit-*.json > $(q1 "$dir/result.txt")")
echo "$array $merge"
