#!/usr/bin/env bash
# cli.sh - the command-line and batch part of `make bench`, run by run.sh:
# per set, the CLI's whole process (read, solve, print) next to the
# solver's own CPU time from bench_sudoku's output; POST /solve/batch with
# one worker next to the CLI; and the speed-up of `--threads 2`.
#   usage: tests/bench/cli.sh BUILD_DIR DATA_DIR BENCH_SUDOKU_OUTPUT
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

build=$1
data=$2
bench_out=$3
reps=${CLI_REPS:-5}
# CLI_FIFO=1: the thread-scaling runs under SCHED_FIFO (this shell set
# with chrt -f 1, as root), so that other jobs on a shared machine do not
# take the cores.
fifo=${CLI_FIFO:-}
status=0
tmp=$(mktemp -d)
daemon=""
cleanup() {
    [ -n "$daemon" ] && kill "$daemon" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# CPU seconds (user + system) of one run of `sudoku ARGS`, the mean of
# $reps runs, from the shell's `times` (children's CPU).
cli_cpu() {
    (
        for ((i = 0; i < reps; i++)); do "$build/sudoku" "$@" >/dev/null 2>&1 || true; done
        times
    ) | awk -v r="$reps" 'function s(x, a) { split(x, a, "m"); sub("s", "", a[2]); return a[1] * 60 + a[2] }
        NR == 2 { print (s($1) + s($2)) / r }'
}

# Wall seconds of one run of `sudoku ARGS` (stdout to $out).
out=/dev/null
cli_wall() {
    local t0=$EPOCHREALTIME
    "$build/sudoku" "$@" >"$out" 2>/dev/null || true
    awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }'
}

echo
echo "command line: sudoku --threads 1 count SET, the whole process (read, solve,"
echo "print), CPU per puzzle (mean of $reps runs), next to the solver's own (bench"
echo "above: check, cpu mean); goal: CLI within 1.2x of the solver"
printf '  %-34s %10s %10s %8s\n' set "solver us" "CLI us" "CLI/solver"
# bench_sudoku's lines "NAME: N puzzles" and "  check N/s cpu mean X |".
awk '/^[^ ].*: [0-9]+ puzzles$/ { name = $1; sub(":$", "", name); n = $2 }
     /^  check +[0-9]+\/s/ && name != "" {
         for (i = 1; i < NF; i++) if ($i == "mean") { print name, n, $(i + 1); break }
         name = "" }' \
    "$bench_out" >"$tmp/solver"
while read -r name n solver_us; do
    [ -r "$data/$name" ] || continue
    cpu=$(cli_cpu --threads 1 count "$data/$name")
    awk -v s="$name" -v n="$n" -v c="$cpu" -v us="$solver_us" \
        'BEGIN { printf "  %-34s %10.2f %10.2f %8.2f%s\n", s, us, c * 1e6 / n, c * 1e6 / n / us,
                 n < 1000 ? "  (few puzzles: the process start counts)" : "" }'
done <"$tmp/solver"

# POST /solve/batch, one worker, against the CLI on the same puzzles.
set_file="$data/puzzles2_17_clue"
if [ -r "$set_file" ] && [ -x "$build/sudokud" ] && command -v curl >/dev/null; then
    awk '!/^#/ && length($0) >= 81 { print substr($0, 1, 81); if (++c == 10000) exit }' \
        "$set_file" >"$tmp/puzzles.txt"
    n=$(wc -l <"$tmp/puzzles.txt")
    awk 'BEGIN { printf "{\"boards\":[" } { printf "%s\"%s\"", (NR > 1 ? "," : ""), $0 } END { print "]}" }' \
        "$tmp/puzzles.txt" >"$tmp/batch.json"
    "$build/sudokud" --port 0 --bind 127.0.0.1 --access-log off --batch-workers 1 >"$tmp/log" 2>&1 &
    daemon=$!
    port=$(bench_port "$tmp/log" "$daemon")
    # The daemon's CPU in ns: its threads' se.sum_exec_runtime (ms) where
    # the kernel has /proc/PID/task/TID/sched, else the 10 ms ticks of
    # /proc/PID/stat.
    cpu_ns() {
        if [ -r "/proc/$daemon/sched" ]; then
            awk '$1 == "se.sum_exec_runtime" { s += $3 } END { printf "%.0f\n", s * 1e6 }' /proc/"$daemon"/task/*/sched
        else
            awk -v hz="$(getconf CLK_TCK)" '{ printf "%.0f\n", ($14 + $15) * 1e9 / hz }' "/proc/$daemon/stat"
        fi
    }
    t0=$(cpu_ns)
    for ((i = 0; i < reps; i++)); do
        curl -sf -o /dev/null -w '%{time_total}\n' -H 'Content-Type: application/json' \
            --data-binary "@$tmp/batch.json" "http://127.0.0.1:$port/solve/batch"
    done >"$tmp/batch.wall"
    t1=$(cpu_ns)
    batch_cpu=$(awk -v a="$t0" -v b="$t1" -v r="$reps" 'BEGIN { print (b - a) / 1e9 / r }')
    batch_wall=$(median <"$tmp/batch.wall")
    cli_cpu=$(cli_cpu --threads 1 solve "$tmp/puzzles.txt")
    cli_wall=$(for ((i = 0; i < reps; i++)); do cli_wall --threads 1 solve "$tmp/puzzles.txt"; done | median)
    echo
    echo "POST /solve/batch (JSON, 1 worker) and sudoku --threads 1 solve on the same"
    echo "$n 17-clue puzzles; wall: median of $reps (the request as curl times it);"
    echo "goal: batch time within 1.25x of the CLI's"
    awk -v n="$n" -v bc="$batch_cpu" -v bw="$batch_wall" -v cc="$cli_cpu" -v cw="$cli_wall" 'BEGIN {
        printf "  CLI   %8.0f puzzles/s  %6.1f ms wall  %6.1f ms CPU\n", n / cw, cw * 1e3, cc * 1e3
        printf "  batch %8.0f puzzles/s  %6.1f ms wall  %6.1f ms CPU (daemon, all threads)\n", n / bw, bw * 1e3, bc * 1e3
        printf "  batch/CLI: x%.2f wall, x%.2f CPU\n", bw / cw, bc / cc }'
fi

# Thread scaling: --threads 1 and 2, runs interleaved; the outputs must be
# identical (input order is kept). Wall time on a shared machine is noisy:
# the load average is printed with it.
echo
echo "thread scaling: sudoku solve --threads N, wall, median of $reps interleaved runs${fifo:+ (SCHED_FIFO)}"
[ -n "$fifo" ] && chrt -f -p 1 $$
for name in puzzles2_17_clue "puzzles5_forum_hardest_1905_11+"; do
    [ -r "$data/$name" ] || continue
    : >"$tmp/t1" && : >"$tmp/t2"
    for ((i = 0; i < reps; i++)); do
        for t in 1 2; do
            out=$tmp/out$t cli_wall --threads "$t" solve "$data/$name" >>"$tmp/t$t"
        done
    done
    w1=$(median <"$tmp/t1")
    w2=$(median <"$tmp/t2")
    same="outputs identical"
    cmp -s "$tmp/out1" "$tmp/out2" || { same="FAIL: outputs differ"; status=1; }
    awk -v s="$name" -v a="$w1" -v b="$w2" -v c="$same" 'BEGIN {
        printf "  %-34s 1: %7.3f s  2: %7.3f s  x%.2f (goal >= 1.8)  %s\n", s, a, b, a / b, c }'
done
[ -n "$fifo" ] && chrt -o -p 0 $$
echo "  (cores: $(nproc); load average: $(cut -d' ' -f1-3 /proc/loadavg))"
exit $status
