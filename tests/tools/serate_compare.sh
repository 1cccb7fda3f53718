#!/bin/sh
# serate_compare.sh - CPU per puzzle of build/serate_tool, skfr and SE
# 1.2.1.3 side by side, in one run, on the same puzzles (docs/rating.md).
# usage: tests/tools/serate_compare.sh SKFR SE_CLASSES SE_N FILE[:N]...
#   SKFR        skfr binary (V2.0.2, run with OMP_NUM_THREADS=1)
#   SE_CLASSES  javac output of SE 1.2.1.3 (diuf.sudoku.test.serate)
#   SE_N        SE rates only the first SE_N puzzles of each file (0: none);
#               FILE:N sets N for that file
# Prints per file: puzzles, then CPU ms per puzzle for ours (the tool's
# own per-puzzle CPU times, summed; and user + sys of its process), skfr
# and SE (user + sys of each process, start-up and SE's JIT included),
# and on how many of SE's puzzles our ER/EP/ED equal SE's.
set -eu
skfr=$1
se=$2
sen=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpu() { # command...: prints user+sys seconds of the command
    /usr/bin/time -f '%U %S' -o "$tmp/time" "$@" > /dev/null 2>&1
    awk '{ print $1 + $2 }' "$tmp/time"
}
printf '%-28s %5s %9s %9s %9s %6s %9s %7s\n' set n ours_ms ours_proc \
    skfr_ms se_n se_ms exact
for arg in "$@"; do
    f=${arg%:*}
    m=$sen
    [ "$f" != "$arg" ] && m=${arg##*:}
    grep -v '^#' "$f" | cut -c1-81 > "$tmp/in.txt"
    n=$(wc -l < "$tmp/in.txt")
    ours=$(cpu ./build/serate_tool < "$tmp/in.txt")
    ./build/serate_tool < "$tmp/in.txt" > "$tmp/ours.txt" 2> /dev/null
    own=$(awk '{ s += $3 } END { print s }' "$tmp/ours.txt")
    sk=$(cd "$tmp" && OMP_NUM_THREADS=1 cpu "$skfr" -iin)
    [ "$m" -gt "$n" ] && m=$n
    s=0
    ex=-
    if [ "$m" -gt 0 ]; then
        head -n "$m" "$tmp/in.txt" > "$tmp/se.txt"
        /usr/bin/time -f '%U %S' -o "$tmp/time" java -cp "$se" \
            diuf.sudoku.test.serate --input="$tmp/se.txt" \
            --format='%g %r/%p/%d' > "$tmp/se.out" 2> /dev/null
        s=$(awk '{ print $1 + $2 }' "$tmp/time")
        ex=$(head -n "$m" "$tmp/ours.txt" | paste -d' ' "$tmp/se.out" - |
            awk '{ n++; ok += $2 == $4 } END { printf "%d/%d", ok, n }')
    fi
    awk -v f="$(basename "$f")" -v n="$n" -v w="$own" -v o="$ours" -v k="$sk" \
        -v m="$m" -v s="$s" -v e="$ex" 'BEGIN {
        printf "%-28s %5d %9.2f %9.2f %9.2f %6d %9s %7s\n", f, n, w / n,
        o * 1000 / n, k * 1000 / n, m, m ? sprintf("%.1f", s * 1000 / m) : "-", e }'
done
