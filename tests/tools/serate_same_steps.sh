#!/bin/sh
# serate_same_steps.sh - checks that two builds of serate_tool take the same
# SE steps (name, rating, placement, removals, order) on the same puzzles:
# every speed-up of the rater must leave the step lists unchanged.
# usage: tests/tools/serate_same_steps.sh BASE_TOOL NEW_TOOL FILE...
#   Prints per file: puzzles, differing puzzles, CPU ms per puzzle of each
#   tool (its own per-puzzle CPU times, summed) and their ratio; exits 1 if
#   any step list differs. The two tools run one after the other per file.
set -eu
base=$1
new=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
# strip the per-puzzle time (field 3 of a puzzle line) for the comparison
strip() { awk '/^[^ ]/ { print $1, $2, $4; next } { print }' "$1"; }
ms() { awk '/^[^ ]/ { s += $3; n++ } END { printf "%.2f", s / n }' "$1"; }
printf '%-24s %5s %5s %9s %9s %6s\n' set n diff base_ms new_ms ratio
for f in "$@"; do
    grep -v '^#' "$f" | cut -c1-81 > "$tmp/in.txt"
    "$base" -v < "$tmp/in.txt" > "$tmp/a.txt"
    "$new" -v < "$tmp/in.txt" > "$tmp/b.txt"
    strip "$tmp/a.txt" > "$tmp/a.s"
    strip "$tmp/b.txt" > "$tmp/b.s"
    # puzzles whose block (header line and steps) differs
    d=$(awk 'FNR == 1 { k++ } /^[^ ]/ { p = $1 } { t[k, p] = t[k, p] $0 "\n"; ps[p] = 1 }
        END { for (p in ps) if (t[1, p] != t[2, p]) n++; print n + 0 }' \
        "$tmp/a.s" "$tmp/b.s")
    [ "$d" -eq 0 ] || bad=1
    a=$(ms "$tmp/a.txt")
    b=$(ms "$tmp/b.txt")
    awk -v f="$(basename "$f")" -v n="$(wc -l < "$tmp/in.txt")" -v d="$d" \
        -v a="$a" -v b="$b" 'BEGIN { printf "%-24s %5d %5d %9.2f %9.2f %5.2fx\n",
        f, n, d, a, b, a / b }'
done
exit $bad
