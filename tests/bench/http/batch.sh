#!/usr/bin/env bash
# batch.sh - `make bench-batch`: POST /solve/batch against the CLI on the
# same 10,000 17-clue puzzles, and the latency of single /solve requests on
# other connections while batches run (and, for reference, while none do).
#   usage: tests/bench/http/batch.sh BUILD_DIR DATA_DIR
set -euo pipefail

build=${1:-build}
data=${2:-../shared/data}
n=${BATCH_PUZZLES:-10000}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib.sh
. "$here/../lib.sh"
tmp=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for tool in wrk curl; do
    command -v "$tool" >/dev/null || {
        if [ "$(id -u)" = 0 ]; then apt-get install -y --no-install-recommends "$tool" >/dev/null
        else echo "missing $tool; as root: apt-get install -y --no-install-recommends $tool" >&2; exit 1; fi
    }
done

set_file="$data/puzzles2_17_clue"
[ -r "$set_file" ] || set_file=tests/data/puzzles2_17_clue
awk -v n="$n" '!/^#/ && length($0) >= 81 { print substr($0, 1, 81); if (++c == n) exit }' \
    "$set_file" >"$tmp/puzzles.txt"
n=$(wc -l <"$tmp/puzzles.txt")
awk 'BEGIN { printf "{\"boards\":[" } { printf "%s\"%s\"", (NR > 1 ? "," : ""), $0 } END { print "]}" }' \
    "$tmp/puzzles.txt" >"$tmp/batch.json"
sed 's/.*/"&"/' "$tmp/puzzles.txt" >"$tmp/batch.ndjson"

now() { date +%s.%N; }
secs() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%8.0f puzzles/s (%6.1f ms)", n / t, t * 1000 }'; }

echo "batch throughput: $n puzzles of $(basename "$set_file") ($(du -k "$tmp/batch.json" | cut -f1) KiB as JSON), best of 3"
# The CLI: the whole process (read, solve, print), wall time, the clock
# read by bash itself ($EPOCHREALTIME: no process of its own).
cli_best() {
    local out=$1 best="" t0 t1
    shift
    for _ in 1 2 3; do
        t0=$EPOCHREALTIME; "$build/sudoku" "$@" >"$out"; t1=$EPOCHREALTIME
        best=$(awk -v a="${best:-1e9}" -v b="$t0" -v c="$t1" 'BEGIN { print (c - b < a) ? c - b : a }')
    done
    echo "$best"
}
cli1=$(cli_best "$tmp/cli.out" solve "$tmp/puzzles.txt")
echo "  CLI sudoku solve, 1 thread:               $(secs "$n" "$cli1")"
cli2=$(cli_best /dev/null solve --threads 2 "$tmp/puzzles.txt")
echo "  CLI sudoku solve, 2 threads:              $(secs "$n" "$cli2")  x$(awk -v a="$cli1" -v b="$cli2" 'BEGIN { printf "%.2f", a / b }') of 1 thread"

log=$tmp/sudokud.log
"$build/sudokud" --port 0 --bind 127.0.0.1 --access-log off --batch-workers 1 >"$log" 2>&1 &
pids+=("$!")
port=$(bench_port "$log" "$!")
url="http://127.0.0.1:$port"

for form in json ndjson; do
    type=application/json
    [ "$form" = ndjson ] && type=application/x-ndjson
    best=""
    # The request's time as curl measures it (%{time_total}): curl's own
    # start (several ms, loading its libraries) is not the server's.
    for _ in 1 2 3; do
        took=$(curl -sf -o "$tmp/out.$form" -w '%{time_total}' -H "Content-Type: $type" \
            --data-binary "@$tmp/batch.$form" "$url/solve/batch")
        best=$(awk -v a="${best:-1e9}" -v b="$took" 'BEGIN { print (b < a) ? b : a }')
    done
    solved=$(grep -o '"solution"' "$tmp/out.$form" | wc -l)
    printf '  POST /solve/batch (%-6s), 1 worker:    %s  %s solved; time x%s the CLI'"'"'s (goal <= 1.25)\n' "$form" \
        "$(secs "$n" "$best")" "$solved" "$(awk -v a="$best" -v b="$cli1" 'BEGIN { printf "%.2f", a / b }')"
done
# The answers agree with the CLI's, in order.
grep -o '"solution":"[0-9]*"' "$tmp/out.json" | cut -d'"' -f4 >"$tmp/http.sol"
if cmp -s "$tmp/http.sol" "$tmp/cli.out"; then echo "  solutions identical to the CLI's"; else echo "  FAIL: solutions differ from the CLI's"; exit 1; fi

echo
echo "single POST /solve (example board) on 8 other connections, wrk 1 thread, 5 s"
result() { grep '^RESULT' | awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    printf "%8.0f req/s  p50 %5d us  p99 %6d us  errors %d\n", v["rps"], v["p50"], v["p99"], v["errors"] }'; }
printf '  no batch running:      '
wrk -t1 -c8 -d5s -s "$here/post.lua" "$url/solve" 2>&1 | result
( end=$(( $(date +%s) + 6 )); while [ "$(date +%s)" -lt "$end" ]; do
    curl -sf -H 'Content-Type: application/json' --data-binary "@$tmp/batch.json" "$url/solve/batch" >/dev/null; done ) &
loop=$!
pids+=("$loop")
sleep 0.3
printf '  batches back to back:  '
wrk -t1 -c8 -d5s -s "$here/post.lua" "$url/solve" 2>&1 | result
wait "$loop" 2>/dev/null || true
