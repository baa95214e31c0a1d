#!/bin/sh
# Runs in vm-latency's guest (as root, in the host's root read-only) in place of a server: counts the
# system calls and sleeps of SERVER over one stream, in the kernel (tracefs histograms on
# raw_syscalls:sys_enter and sched_switch; not strace, which stops the server at every call and so
# batches frames that would not batch), and writes $LB_OUT/syscalls-LABEL-<pid>.txt for tools/bench-live.
# Then execs SERVER, so the PID vm-latency measures is the server's.
#
#   count-syscalls.sh LABEL SOCK RUNDIR FRAMES RATE -- SERVER ARGS...
#
# The histograms count from before the exec; two snapshots, taken with shell builtins only (under
# emulation a fork takes the guest's CPU for long enough to move the figures), bound the stream: one
# once the clients are connected, one after the writer's last frame (its log appears) and a moment for
# the server to serve it, before the clients leave (they idle a second). The frames between the two
# (from the writer's log, by the guest's clock) divide the difference. Counts the server's main thread
# (the process's id): pressured and the relays have no other (the file says how many there were). Which
# M a file is for, tools/bench-live tells from the order of the process ids (vm-latency runs every
# server for each M in turn).
set -u
label=$1 sock=$2 run=$3 frames=$4 rate=$5
shift 6
T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs tracefs $T 2>/dev/null
pid=$$
sys="hist:keys=id.syscall:vals=hitcount:size=512 if common_pid == $pid"
sched="hist:keys=prev_state:vals=hitcount if prev_pid == $pid"
echo "$sys" > $T/events/raw_syscalls/sys_enter/trigger || echo "count-syscalls: no histogram trigger" >&2
echo "$sched" > $T/events/sched/sched_switch/trigger
snapshot() { # FILE: both histograms, the guest's clock (seconds since boot) and the server's
    # /proc/PID/stat (its user and system time), with builtins only
    read -r up _ < /proc/uptime
    read -r st < /proc/$pid/stat
    {
        echo "uptime $up"
        echo "stat $st"
        while IFS= read -r l; do printf '%s\n' "$l"; done < $T/events/raw_syscalls/sys_enter/hist
        echo "# sched_switch"
        while IFS= read -r l; do printf '%s\n' "$l"; done < $T/events/sched/sched_switch/hist
    } > "$1"
}
count() {
    tries=0
    while [ ! -e "$run/ready" ] && [ $tries -lt 1200 ]; do sleep 0.05; tries=$((tries + 1)); done
    snapshot "$run/sc0"
    threads=0
    for t in /proc/$pid/task/*; do threads=$((threads + 1)); done
    sleep "$(awk -v f="$frames" -v r="$rate" 'BEGIN {print f / r}')"
    while [ ! -e "$run/writer.log" ] && kill -0 $pid 2>/dev/null; do sleep 0.1; done
    sleep 0.3
    snapshot "$run/sc1"
    t0=$(sed -n 's/^uptime //p' "$run/sc0") t1=$(sed -n 's/^uptime //p' "$run/sc1")
    # writer.log: k t_before_ns t_after_ns (CLOCK_MONOTONIC, which is the uptime's clock in a guest that never suspends)
    n=$(awk -v a="$t0" -v b="$t1" '$2 / 1e9 >= a && $2 / 1e9 <= b {n++} END {print n + 0}' "$run/writer.log")
    {
        echo "label=$label frames=$n planned=$frames threads=$threads"
        echo "# before"
        cat "$run/sc0"
        echo "# after"
        cat "$run/sc1"
    } > "$LB_OUT/syscalls-$label-$pid.txt"
    echo "!$sys" > $T/events/raw_syscalls/sys_enter/trigger
    echo "!$sched" > $T/events/sched/sched_switch/trigger
}
count </dev/null >>"$LB_OUT/count-syscalls-$label.err" 2>&1 &
exec "$@"
