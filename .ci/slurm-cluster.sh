# shellcheck shell=bash
# Throwaway one-node Slurm cluster for CI (Debian 12, slurm-wlm 22.05, munge).
# Usage:  source slurm-cluster.sh; slurm_up DIR; trap slurm_down EXIT
#         jid=$(sbatch --parsable ...); slurm_wait "$jid"
# Written to be safe under the caller's `set -euo pipefail`.

# Ports can be overridden if something else already listens on 6817/6818.
: "${SLURM_CI_CTLD_PORT:=6817}" "${SLURM_CI_SLURMD_PORT:=6818}"

_slurm_log() { echo "slurm-cluster: $*" >&2; }

# Print every daemon log under the cluster dir to stderr (for debugging).
_slurm_dump_logs() {
  local f
  for f in "${SLURM_CLUSTER_DIR:?}"/log/*; do
    [[ -s $f ]] || continue
    echo "===== $f (last 100 lines) =====" >&2
    tail -n 100 "$f" >&2 || true
  done
}

slurm_up() {
  local dir host node_hw i d
  [[ $# -eq 1 ]] || { _slurm_log "usage: slurm_up DIR"; return 2; }
  mkdir -p "$1" && dir=$(cd "$1" && pwd) || return 1
  # Stop a cluster this shell started before, and any left running in DIR:
  # both would hold the ports / munge socket.
  slurm_down
  SLURM_CLUSTER_DIR=$dir slurm_down
  # munged insists that every client can reach its socket (o+x on the dir),
  # while mktemp -d creates 0700 dirs.
  chmod 755 "$dir"
  mkdir -p "$dir"/{etc,log,run,munge,state,spool}
  # Forget anything left by an earlier cluster in the same DIR.
  rm -rf "$dir"/state/* "$dir"/spool/* "$dir"/run/* "$dir"/munge/munge.socket*
  export SLURM_CLUSTER_DIR=$dir SLURM_CONF=$dir/etc/slurm.conf

  # --- munge: private key + daemon with every path under DIR -------------
  if [[ ! -s $dir/munge/munge.key ]]; then
    if command -v mungekey >/dev/null; then
      mungekey --create --keyfile="$dir/munge/munge.key"
    else
      dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    fi
  fi
  chmod 400 "$dir/munge/munge.key"
  # --force: downgrade munged's path-permission checks (e.g. a group-writable
  # CI workspace above DIR) from errors to warnings; the key is throwaway.
  # --origin: else an unresolvable hostname makes slurmctld log
  # "auth_p_get_host: Lookup failed for 0.0.0.0".
  /usr/sbin/munged --force --origin=127.0.0.1 --key-file="$dir/munge/munge.key" \
    --socket="$dir/munge/munge.socket" --pid-file="$dir/run/munged.pid" \
    --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed" \
    </dev/null >>"$dir/log/munged.out" 2>&1 \
    || { _slurm_log "munged failed to start"; _slurm_dump_logs; return 1; }

  # --- slurm.conf ----------------------------------------------------------
  # slurmctld only runs on the host named in SlurmctldHost, so it must be
  # this machine's short hostname; the address is forced to loopback so the
  # name never needs to resolve.
  host=$(hostname -s)
  # `slurmd -C` prints the hardware exactly as slurmd will report it, so the
  # node is not drained for "low RealMemory/CPUs". Drop NodeName= and UpTime.
  node_hw=$(/usr/sbin/slurmd -C | sed -n '1s/^NodeName=[^ ]* //p') || true
  [[ -n $node_hw ]] || node_hw="CPUs=$(nproc)"
  cat >"$SLURM_CONF" <<CONF
ClusterName=ci
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$SLURM_CI_CTLD_PORT
SlurmdPort=$SLURM_CI_SLURMD_PORT
SlurmUser=root
SlurmdUser=root
# Talk to our own munged instead of /run/munge (used by auth/ and cred/munge).
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
# Keep plugstack.conf from /etc/slurm out of this throwaway cluster.
PlugStackConfig=$dir/etc/plugstack.conf
# No cgroups: a CI container may have no writable cgroup hierarchy.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
# There is no mail(1) here; avoid the "MailProg is invalid" error.
MailProg=/bin/true
# Schedule single CPUs so array elements run side by side.
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
# Finished jobs stay visible to scontrol for an hour (no sacct here).
MinJobAge=3600
MaxArraySize=10001
# Start pending jobs (e.g. the next array elements) as soon as CPUs free up
# instead of in 3 s batches (default batch_sched_delay=3): demo 16 s -> 7 s.
SchedulerParameters=batch_sched_delay=0
# Finished jobs count against MaxJobCount for MinJobAge; leave room for them.
MaxJobCount=100000
# A job whose afterok dependency failed is cancelled instead of pending forever.
DependencyParameters=kill_invalid_depend
# If slurmd was briefly unresponsive (busy CI box) the node returns to
# service when it re-registers instead of staying DOWN.
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=60
NodeName=$host NodeAddr=127.0.0.1 NodeHostname=$host $node_hw State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  : >"$dir/etc/plugstack.conf"

  # --- Slurm daemons (they daemonise and write their pid files) ------------
  # -c: start from empty job state; -N: node name independent of DNS.
  /usr/sbin/slurmctld -c -f "$SLURM_CONF" </dev/null >>"$dir/log/slurmctld.out" 2>&1 \
    || { _slurm_log "slurmctld failed to start"; _slurm_dump_logs; return 1; }
  /usr/sbin/slurmd -N "$host" -f "$SLURM_CONF" </dev/null >>"$dir/log/slurmd.out" 2>&1 \
    || { _slurm_log "slurmd failed to start"; _slurm_dump_logs; return 1; }

  # --- wait (bounded) for the node to be idle -----------------------------
  for ((i = 0; i < 60; i++)); do
    if [[ $(sinfo -h -n "$host" -o %T 2>/dev/null) == idle ]]; then
      _slurm_log "cluster up in $dir (node $host idle after ${i}s)"
      return 0
    fi
    # Fail fast if a daemon died after daemonising (e.g. port already in use).
    for d in munged slurmctld slurmd; do
      if [[ -s $dir/run/$d.pid ]] && ! kill -0 "$(<"$dir/run/$d.pid")" 2>/dev/null; then
        _slurm_log "$d exited"; i=60
      fi
    done
    sleep 1
  done
  _slurm_log "node $host not idle; giving up (another cluster on ports" \
    "$SLURM_CI_CTLD_PORT/$SLURM_CI_SLURMD_PORT? see SLURM_CI_*_PORT)"
  sinfo -N -l >&2 || true
  slurm_down
  _slurm_dump_logs
  return 1
}

# slurm_wait JOBID...: wait until the jobs (all array elements) left the queue,
# then require JobState=COMPLETED and ExitCode=0:0 for each of them.
slurm_wait() {
  local timeout=${SLURM_WAIT_SECONDS:-1800} start=$SECONDS ids q id recs line
  local failed=0 f
  [[ $# -gt 0 ]] || { _slurm_log "usage: slurm_wait JOBID..."; return 2; }
  ids=$(IFS=,; echo "$*")
  # squeue's default states (pending/running/completing) plus the rarer
  # non-final ones. A failing squeue must not look like an empty queue.
  while q=$(squeue -h -j "$ids" -o %i -t PD,R,CG,CF,S,ST,SO,RD,RF,RH,RQ,RS,SI) \
        || { _slurm_log "squeue failed"; return 1; }; [[ -n $q ]]; do
    if ((SECONDS - start >= timeout)); then
      _slurm_log "timeout after ${timeout}s; still queued: ${q//$'\n'/ }"
      return 1
    fi
    sleep 1
  done
  for id in "$@"; do
    # One id per call; for an array job scontrol -o prints one line per
    # element. MinJobAge keeps finished jobs here (no sacct without slurmdbd).
    recs=$(scontrol -o show job "$id") || { _slurm_log "job $id unknown"; failed=1; continue; }
    while IFS= read -r line; do
      line=" $line"   # so that every field is preceded by a space
      [[ $line == *" JobState=COMPLETED "* && $line == *" ExitCode=0:0 "* ]] && continue
      failed=1
      _slurm_log "FAILED:$(grep -o ' \(JobId\|ArrayJobId\|ArrayTaskId\|JobState\|Reason\|ExitCode\)=[^ ]*' <<<"$line" | tr -d '\n')"
      grep -o ' Std\(Out\|Err\)=[^ ]*' <<<"$line" | cut -d= -f2- | sort -u |
        while IFS= read -r f; do
          [[ -f $f ]] || continue
          echo "----- $f (last 50 lines) -----" >&2
          tail -n 50 "$f" >&2 || true
        done
    done <<<"$recs"
  done
  return "$failed"
}

# _slurm_stop NAME...: SIGTERM the daemons named by DIR/run/NAME.pid, wait up
# to 20 s for them to exit (each takes 1-2 s), then SIGKILL.
_slurm_stop() {
  local d pid pids=() i
  for d in "$@"; do
    [[ -s $SLURM_CLUSTER_DIR/run/$d.pid ]] || continue
    pid=$(<"$SLURM_CLUSTER_DIR/run/$d.pid")
    if kill -TERM "$pid" 2>/dev/null; then pids+=("$pid"); fi
    rm -f "$SLURM_CLUSTER_DIR/run/$d.pid"
  done
  for pid in ${pids[@]+"${pids[@]}"}; do
    for ((i = 0; i < 100; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    kill -KILL "$pid" 2>/dev/null || true
  done
}

# Stop slurmd, slurmctld and munged; keep DIR. Idempotent (pid files are
# removed), so it can run from an EXIT trap and again by hand.
slurm_down() {
  local -x SLURM_CLUSTER_DIR=${SLURM_CLUSTER_DIR:-}; local i
  [[ -n $SLURM_CLUSTER_DIR && -d $SLURM_CLUSTER_DIR/run ]] || return 0
  local -x SLURM_CONF=$SLURM_CLUSTER_DIR/etc/slurm.conf
  # Cancel leftover jobs and give slurmd up to 15 s to kill them: stopping
  # slurmd first would orphan their slurmstepd processes.
  if [[ -s $SLURM_CLUSTER_DIR/run/slurmctld.pid ]] \
      && timeout 10 scancel --user="$(id -un)" >/dev/null 2>&1; then
    for ((i = 0; i < 15; i++)); do
      [[ -z $(timeout 10 squeue -h -t R,CG,CF,S -o %i 2>/dev/null) ]] && break
      sleep 1
    done
  fi
  _slurm_stop slurmd slurmctld
  _slurm_stop munged   # last: the Slurm daemons authenticate while exiting
  return 0
}
