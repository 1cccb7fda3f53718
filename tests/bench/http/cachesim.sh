#!/usr/bin/env bash
# cachesim.sh - what one keep-alive POST /solve costs in simulated cache
# misses as well as instructions, per function, for a server binary
# (sudokud or bench_bare_mhd): as callgrind.sh, the server runs under
# callgrind --cache-sim=yes twice, serving R1 and R2 rounds on CONNS
# connections (keepalive.py), and each count's difference over the
# difference of the requests is its cost per request, start-up and shutdown
# cancelled out. Valgrind runs one thread at a time on one simulated cache,
# so the figures say which lines a request touches, not the machine's
# timing; they do not move with the machine's load.
# The simulated last level is the machine's L3 unless CACHESIM_LL gives
# another (as valgrind's --LL=size,assoc,line: "2097152,16,64" is one
# core's L2 here, the level that 256 connections' pools outgrow).
#   usage: tests/bench/http/cachesim.sh [BIN] [CONNS] [R1] [R2] [TOP]
set -euo pipefail

bin=${1:-build/sudokud}
conns=${2:-64}
r1=${3:-10}
r2=${4:-30}
top=${5:-12}
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

# run ROUNDS: a callgrind profile of BIN serving ROUNDS, in $tmp/cg.ROUNDS.
run() {
    local log=$tmp/log.$1 port
    valgrind --tool=callgrind --cache-sim=yes \
        ${CACHESIM_LL:+--LL=$CACHESIM_LL} \
        --callgrind-out-file="$tmp/cg.$1" \
        "$bin" --port 0 --bind 127.0.0.1 --threads 1 \
        --access-log off >"$log" 2>&1 &
    pid=$!
    port=$(bench_port "$log" "$pid" 60)
    python3 "$here/keepalive.py" "$port" "$conns" "$1"
    kill -TERM "$pid"
    wait "$pid" || true
    pid=""
    callgrind_annotate --threshold=100 --show-percs=no --auto=no \
        "$tmp/cg.$1" >"$tmp/an.$1"
}

run "$r1"
run "$r2"
echo "cachesim: $bin, $conns connections, rounds $r1 and $r2"
python3 - "$tmp/an.$r1" "$tmp/an.$r2" $(((r2 - r1) * conns)) "$top" <<'PY'
import re
import sys

def parse(path):
    """Event names, the program's totals and each function's counts."""
    events, total, funcs = None, None, {}
    for line in open(path):
        if line.startswith("Events shown:"):
            events = line.split(":", 1)[1].split()
            continue
        m = re.match(r"^\s*([\d,]+(?:\s+[\d,]+)+)\s+(\(.*\)|\S.*)$", line)
        if not m or events is None:
            continue
        nums = [int(x.replace(",", "")) for x in m.group(1).split()]
        if len(nums) != len(events):
            continue
        name = m.group(2).strip()
        if "PROGRAM TOTALS" in name:
            total = nums
        else:
            funcs[name] = [a + b for a, b in
                           zip(funcs.get(name, [0] * len(nums)), nums)]
    return events, total, funcs

ev, ta, fa = parse(sys.argv[1])
_, tb, fb = parse(sys.argv[2])
n, top = int(sys.argv[3]), int(sys.argv[4])
ix = {e: i for i, e in enumerate(ev)}

def pick(v):
    """Ir, D1 misses (read + write), LL data misses (read + write)."""
    return (v[ix["Ir"]], v[ix["D1mr"]] + v[ix["D1mw"]],
            v[ix["DLmr"]] + v[ix["DLmw"]])

a, b = pick(ta), pick(tb)
print("per request: Ir %.0f  D1 misses %.1f  LL data misses %.1f"
      % tuple((y - x) / n for x, y in zip(a, b)))
rows = []
for name in set(fa) | set(fb):
    x = pick(fa.get(name, [0] * len(ev)))
    y = pick(fb.get(name, [0] * len(ev)))
    rows.append((tuple((q - p) / n for p, q in zip(x, y)), name))
rows.sort(key=lambda r: -r[0][1])
print("%8s %8s %8s  function (top %d by D1 misses)" % ("Ir", "D1miss", "LLmiss", top))
for (ir, d1, ll), name in rows[:top]:
    print("%8.0f %8.1f %8.1f  %s" % (ir, d1, ll, name[:90]))
PY
