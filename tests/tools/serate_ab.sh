#!/bin/sh
# serate_ab.sh - CPU per puzzle of two serate_tool builds, interleaved: each
# chunk of 10 puzzles is rated by both in turn (which goes first
# alternates), so load from other work falls on both alike. The figure is each tool's own
# per-puzzle CPU time (its third column).
# usage: tests/tools/serate_ab.sh A_TOOL B_TOOL FILE...
#   Prints per file: puzzles, mean and median ms of A and of B, A / B
#   (means), and how many puzzles' ER/EP/ED differ.
set -eu
a=$1
b=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-24s %5s %9s %9s %9s %9s %7s %5s\n' set n a_mean a_med b_mean \
    b_med a/b diff
for f in "$@"; do
    grep -v '^#' "$f" | cut -c1-81 > "$tmp/in.txt"
    : > "$tmp/a.txt"
    : > "$tmp/b.txt"
    i=$(wc -l < "$tmp/in.txt")
    rm -f "$tmp"/chunk.*
    split -l 10 -a 4 "$tmp/in.txt" "$tmp/chunk."
    k=0
    for c in "$tmp"/chunk.*; do
        if [ $((k % 2)) -eq 0 ]; then
            "$a" < "$c" >> "$tmp/a.txt"
            "$b" < "$c" >> "$tmp/b.txt"
        else
            "$b" < "$c" >> "$tmp/b.txt"
            "$a" < "$c" >> "$tmp/a.txt"
        fi
        k=$((k + 1))
    done
    d=$(paste -d' ' "$tmp/a.txt" "$tmp/b.txt" |
        awk '$2 != $5 { n++ } END { print n + 0 }')
    sa=$(awk '{ print $3 }' "$tmp/a.txt" | sort -g | awk '{ v[NR] = $1; s += $1 }
        END { printf "%.2f %.2f", s / NR, NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    sb=$(awk '{ print $3 }' "$tmp/b.txt" | sort -g | awk '{ v[NR] = $1; s += $1 }
        END { printf "%.2f %.2f", s / NR, NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    echo "$(basename "$f") $i $sa $sb $d" | awk '{ printf "%-24s %5d %9.2f %9.2f %9.2f %9.2f %6.2fx %5d\n",
        $1, $2, $3, $4, $5, $6, $3 / $5, $7 }'
done
