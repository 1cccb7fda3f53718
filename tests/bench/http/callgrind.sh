#!/usr/bin/env bash
# callgrind.sh - instructions per keep-alive POST /solve, the HTTP path's
# CPU in a figure that a loaded machine does not move: sudokud (one loop,
# no access log) runs under callgrind twice, serving R1 and then R2 rounds
# of CONNS connections (keepalive.py), and the difference of the two
# totals over the difference of the request counts is the cost of one
# request, start-up and shutdown cancelled out.
#   usage: tests/bench/http/callgrind.sh [BUILD_DIR] [CONNS] [R1] [R2]
set -euo pipefail

build=${1:-build}
conns=${2:-64}
r1=${3:-20}
r2=${4:-60}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
tmp=$(mktemp -d)
pid=""
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT

# total ROUNDS: callgrind's instruction total for a run serving ROUNDS.
total() {
    local out=$tmp/cg.$1 log=$tmp/log.$1 port
    valgrind --tool=callgrind --callgrind-out-file="$out" \
        "$build/sudokud" --port 0 --bind 127.0.0.1 --threads 1 \
        --access-log off >"$log" 2>&1 &
    pid=$!
    port=$(bench_port "$log" "$pid" 60)
    python3 "$here/keepalive.py" "$port" "$conns" "$1"
    kill -TERM "$pid"
    wait "$pid" || true
    pid=""
    awk '/^(summary|totals):/ { print $2; exit }' "$out"
}

a=$(total "$r1")
b=$(total "$r2")
echo "callgrind: $conns connections, $r1 and $r2 rounds: $a and $b instructions"
awk -v a="$a" -v b="$b" -v n=$(((r2 - r1) * conns)) \
    'BEGIN { printf "instructions per request: %.0f\n", (b - a) / n }'
