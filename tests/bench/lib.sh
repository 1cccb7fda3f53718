# lib.sh - what the benchmark scripts share (sourced, bash): waiting for a
# server on state that exists, never on a file that may not yet be there
# nor through a pipe that `set -o pipefail` turns into an exit.

# bench_port LOG PID [SECONDS]: prints the port of the first "listening"
# line the daemon PID writes to LOG. Fails, printing the log, when PID has
# exited or after SECONDS (10).
bench_port() {
    local log=$1 pid=$2 deadline port
    deadline=$(($(date +%s) + ${3:-10}))
    while [ "$(date +%s)" -le "$deadline" ]; do
        if [ -s "$log" ]; then
            # awk reads the whole line and stops at the first match: no
            # early-closed pipe (SIGPIPE) for pipefail to see.
            port=$(awk 'match($0, /"msg":"listening".*"port":[0-9]+/) {
                s = substr($0, RSTART, RLENGTH); sub(/.*"port":/, "", s); print s; exit }' "$log")
            if [ -n "$port" ]; then
                echo "$port"
                return 0
            fi
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    echo "the daemon (pid $pid) did not start listening: $(cat "$log" 2>/dev/null)" >&2
    return 1
}

# bench_accepts PORT PID [SECONDS]: succeeds once 127.0.0.1:PORT accepts a
# TCP connection while PID runs; fails when PID has exited or after SECONDS.
bench_accepts() {
    local port=$1 pid=$2 deadline
    deadline=$(($(date +%s) + ${3:-10}))
    while [ "$(date +%s)" -le "$deadline" ]; do
        kill -0 "$pid" 2>/dev/null || return 1
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            return 0
        fi
        sleep 0.05
    done
    return 1
}

# bench_cpu: one line naming the CPU the figures come from and the widest
# x86 vector sets it has (a ratio to another solver changes with them).
bench_cpu() {
    local model isa="" f
    model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
    for f in avx512f avx512bw avx512vl avx512vbmi avx512ifma avx2 bmi2 popcnt sse4_2 sse2 asimd; do
        grep -qw "$f" /proc/cpuinfo 2>/dev/null && isa="$isa $f"
    done
    echo "cpu: ${model:-$(uname -m)}, $(nproc) cores; vector sets:${isa:- none known}"
}

# bench_cpu_ns PID: nanoseconds on a CPU of the process, its threads and its
# children's (nginx's workers), from the scheduler's own accounting
# (/proc/PID/task/TID/schedstat), exact where the tick-sampled utime and
# stime of /proc/PID/stat are not.
bench_cpu_ns() {
    local total=0 p f
    for p in "$1" $(pgrep -P "$1" || true); do
        for f in /proc/"$p"/task/*/schedstat; do
            [ -r "$f" ] || continue
            total=$((total + $(cut -d' ' -f1 "$f")))
        done
    done
    echo "$total"
}
