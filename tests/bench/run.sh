#!/bin/sh
# run.sh - `make bench`: tests/bench/run.sh BUILD_DIR DATA_DIR. Runs the
# single-thread benchmark (timings, verification of every set, textbook
# race, node budget), the generic engine's sets (bench_cover), then the
# thread scaling of `sudoku solve --threads`.
set -eu

build=${1:-build}
data=${2:-../shared/data}
cap=${TEXTBOOK_CAP:-3}

status=0
"$build/bench_sudoku" "$data" "$cap" || status=$?
echo; "$build/bench_cover" tests/data/cover || status=$?

now() { date +%s.%N; }

# Scaling: the largest set that takes real CPU time, solved with 1 and 2
# threads; the outputs must be identical (input order is kept).
set_file="$data/puzzles5_forum_hardest_1905_11+"
if [ -r "$set_file" ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    echo
    echo "thread scaling: sudoku solve --threads N $(basename "$set_file")"
    for n in 1 2; do
        t0=$(now)
        "$build/sudoku" solve --threads "$n" "$set_file" >"$tmp/out$n" 2>"$tmp/err$n" || true
        t1=$(now)
        echo "$n $t0 $t1" >>"$tmp/times"
        printf '  threads %s: %6.2f s wall, %s solutions, %s errors\n' "$n" \
            "$(awk "BEGIN { print $t1 - $t0 }")" "$(wc -l <"$tmp/out$n")" "$(wc -l <"$tmp/err$n")"
    done
    if cmp -s "$tmp/out1" "$tmp/out2"; then
        echo "  outputs identical"
    else
        echo "  FAIL: outputs differ"
        status=1
    fi
    awk '{ t[$1] = $3 - $2 } END { printf "  speed-up with 2 threads: x%.2f (cores: %d)\n", t[1] / t[2], '"$(nproc)"' }' "$tmp/times"
fi
exit $status
