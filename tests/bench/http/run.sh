#!/usr/bin/env bash
# run.sh - `make bench-http`: sudokud against Debian's nginx answering a
# fixed JSON body of the same size, driven by wrk on 127.0.0.1, side by side.
# Every figure that matters is a ratio from one run: the two servers
# alternate, each scenario is repeated, and the medians are compared.
#   usage: tests/bench/http/run.sh BUILD_DIR DATA_DIR
#   env:   BENCH_SECONDS (10) per run, BENCH_REPEATS (3), BENCH_THREADS (2),
#          BENCH_ONLY (an extended regex: run only the scenarios it matches,
#          "worst" for the worst-case figure)
set -euo pipefail

build=${1:-build}
data=${2:-../shared/data}
secs=${BENCH_SECONDS:-10}
repeats=${BENCH_REPEATS:-3}
threads=${BENCH_THREADS:-2}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
clk=$(getconf CLK_TCK)
pids=()

cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

need=""
command -v wrk >/dev/null || need="$need wrk"
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need="$need nginx-light"
if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ]; then
        apt-get install -y --no-install-recommends $need >/dev/null
    else
        echo "missing packages; as root run: apt-get install -y --no-install-recommends$need" >&2
        exit 1
    fi
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# ---------------------------------------------------------------- servers

# start_sudokud [--bare] ARGS...: sets SPID and SPORT. --bare starts the
# library-only reference (bare_mhd.c) instead.
start_sudokud() {
    local log=$tmp/sudokud.$RANDOM.log bin=$build/sudokud
    if [ "${1:-}" = --bare ]; then
        bin=$build/bench_bare_mhd
        shift
    fi
    "$bin" --port 0 --bind 127.0.0.1 --threads "$threads" "$@" >"$log" 2>&1 &
    SPID=$!
    pids+=("$SPID")
    for _ in $(seq 100); do
        SPORT=$(sed -n 's/.*"msg":"listening".*"port":\([0-9]*\).*/\1/p' "$log" | head -n1)
        [ -n "$SPORT" ] && return 0
        sleep 0.05
    done
    echo "sudokud did not start: $(cat "$log")" >&2
    exit 1
}

stop_sudokud() {
    kill "$SPID" 2>/dev/null || true
    wait "$SPID" 2>/dev/null || true
}

# sudokud's answer to the example, so nginx sends as many bytes.
BODY='{"solution":["957214386","824736591","361859742","495372618","786491235","132568974","519687423","273145869","648923157"],"stats":{"guesses":0,"nodes":1,"solve_us":5}}'

# start_nginx: sets NPID (the master) and NPORT.
start_nginx() {
    local prefix=$tmp/nginx
    mkdir -p "$prefix"
    for _ in $(seq 20); do
        NPORT=$((20000 + RANDOM % 40000))
        sed -e "s|@PREFIX@|$prefix|g" -e "s|@PORT@|$NPORT|g" -e "s|@BODY@|$BODY|g" \
            "$here/nginx.conf.in" >"$prefix/nginx.conf"
        : >"$prefix/error.log"
        "$NGINX" -p "$prefix" -c "$prefix/nginx.conf" 2>>"$prefix/error.log" &
        NPID=$!
        sleep 0.3
        if kill -0 "$NPID" 2>/dev/null; then
            pids+=("$NPID")
            return 0
        fi
    done
    echo "nginx did not start: $(cat "$prefix/error.log")" >&2
    exit 1
}

# cpu_ticks PID: user+system clock ticks of the process and its children
# processes (nginx's workers); threads are included in a process's figures.
cpu_ticks() {
    local total=0 p
    for p in "$1" $(pgrep -P "$1" || true); do
        [ -r "/proc/$p/stat" ] || continue
        # Fields after the command name: utime is the 12th, stime the 13th.
        total=$((total + $(sed 's/.*) //' "/proc/$p/stat" | awk '{ print $12 + $13 }')))
    done
    echo "$total"
}

# ---------------------------------------------------------------- runs

# run_wrk PID PORT THREADS CONNS [ENV=VAL...]: prints
# "rps p50 p99 cpu_us_per_request errors".
run_wrk() {
    local pid=$1 port=$2 t=$3 c=$4 before after out
    shift 4
    before=$(cpu_ticks "$pid")
    out=$(env "$@" wrk -t"$t" -c"$c" -d"${secs}s" --timeout 10s -s "$here/post.lua" \
        "http://127.0.0.1:$port/solve" 2>&1 | grep '^RESULT') || {
        echo "wrk failed" >&2
        exit 1
    }
    after=$(cpu_ticks "$pid")
    echo "$out" | awk -v ticks=$((after - before)) -v clk="$clk" '{
        for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        cpu = v["requests"] > 0 ? ticks * 1e6 / clk / v["requests"] : 0
        printf "%.1f %d %d %.2f %d\n", v["rps"], v["p50"], v["p99"], cpu, v["errors"]
    }'
}

median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# scenario NAME THREADS CONNS SUDOKUD_ARGS [ENV...]: alternates the servers,
# repeats, prints one table row.
scenario() {
    local name=$1 t=$2 c=$3 args=$4
    shift 4
    [[ -z ${BENCH_ONLY:-} || $name =~ $BENCH_ONLY ]] || return 0
    local ours=$tmp/ours.${name//[^A-Za-z0-9]/_} nginx=$tmp/nginx.${name//[^A-Za-z0-9]/_}
    : >"$ours"
    : >"$nginx"
    # shellcheck disable=SC2086
    start_sudokud $args
    for _ in $(seq "$repeats"); do
        run_wrk "$SPID" "$SPORT" "$t" "$c" "$@" >>"$ours"
        run_wrk "$NPID" "$NPORT" "$t" "$c" "$@" >>"$nginx"
    done
    stop_sudokud
    local o_rps n_rps o50 n50 o99 n99 ocpu ncpu oerr nerr
    o_rps=$(cut -d' ' -f1 "$ours" | median); n_rps=$(cut -d' ' -f1 "$nginx" | median)
    o50=$(cut -d' ' -f2 "$ours" | median); n50=$(cut -d' ' -f2 "$nginx" | median)
    o99=$(cut -d' ' -f3 "$ours" | median); n99=$(cut -d' ' -f3 "$nginx" | median)
    ocpu=$(cut -d' ' -f4 "$ours" | median); ncpu=$(cut -d' ' -f4 "$nginx" | median)
    oerr=$(awk '{ s += $5 } END { print s }' "$ours"); nerr=$(awk '{ s += $5 } END { print s }' "$nginx")
    awk -v n="$name" -v or="$o_rps" -v nr="$n_rps" -v o50="$o50" -v n50="$n50" \
        -v o99="$o99" -v n99="$n99" -v oc="$ocpu" -v nc="$ncpu" -v oe="$oerr" -v ne="$nerr" 'BEGIN {
        printf "%-22s %9.0f %9.0f  x%-5.2f %6d/%-7d %6d/%-7d x%-5.2f %7.2f %7.2f  x%-5.2f %d/%d\n",
            n, or, nr, or / nr, o50, o99, n50, n99, (n99 > 0 ? o99 / n99 : 0), oc, nc,
            (nc > 0 ? oc / nc : 0), oe, ne
    }'
}

echo "sudokud ($build/sudokud, $threads threads) vs nginx ($("$NGINX" -v 2>&1 | sed 's/.*\///'), 2 workers, fixed body) on $(nproc) cores"
echo "wrk ${secs}s per run, $repeats runs per server, servers alternating; medians; latency in us; CPU us per request of the server"
echo "POST /solve with the example board unless said otherwise (GET /livez: our HTTP path without JSON or solving;"
echo "static: wrk sends one prepared request instead of calling Lua per request; bare libmicrohttpd: the library alone,"
echo "sudokud's daemon flags, a fixed answer built once, in place of sudokud)"
start_nginx
printf '%-22s %9s %9s  %-6s %-14s %-14s %-6s %7s %7s  %-6s %s\n' scenario ours/s nginx/s ratio "ours p50/p99" "nginx p50/p99" "p99 x" "cpu us" "nginx" "cpu x" "errors"
scenario "GET /livez 2x64" 2 64 "--access-log off" GET_PATH=/livez
scenario "keep-alive 1x1" 1 1 "--access-log off"
scenario "keep-alive 2x16" 2 16 "--access-log off"
scenario "keep-alive 2x64" 2 64 "--access-log off"
scenario "keep-alive 2x64 static" 2 64 "--access-log off" STATIC=1
scenario "bare libmicrohttpd 2x64" 2 64 "--bare"
scenario "keep-alive 2x256" 2 256 "--access-log off"
scenario "close 2x64" 2 64 "--access-log off" CLOSE=1
scenario "access log 2x64" 2 64 "--access-log on"

# Worst case: one connection in eight sends a forum-hardest puzzle.
[[ -z ${BENCH_ONLY:-} || worst =~ $BENCH_ONLY ]] || exit 0
hard=$tmp/hard.txt
if [ -r "$data/puzzles5_forum_hardest_1905_11+" ]; then
    grep -v '^#' "$data/puzzles5_forum_hardest_1905_11+" | awk 'NR % 97 == 0' | head -n 500 >"$hard"
else
    grep -v '^#' tests/data/puzzles5_forum_hardest_1905_11+ >"$hard"
fi
echo
echo "worst case: 2x56 connections send the example while 1x8 send forum-hardest puzzles (sudokud, access log off)"
start_sudokud --access-log off
for _ in $(seq "$repeats"); do
    run_wrk "$SPID" "$SPORT" 1 8 BODY_FILE="$hard" >>"$tmp/hard.res" &
    w=$!
    run_wrk "$SPID" "$SPORT" 2 56 >>"$tmp/easy.res"
    wait "$w"
done
stop_sudokud
printf '  example requests: %.0f/s, p50 %d us, p99 %d us\n' "$(cut -d' ' -f1 "$tmp/easy.res" | median)" \
    "$(cut -d' ' -f2 "$tmp/easy.res" | median)" "$(cut -d' ' -f3 "$tmp/easy.res" | median)"
printf '  hard requests:    %.0f/s, p50 %d us, p99 %d us\n' "$(cut -d' ' -f1 "$tmp/hard.res" | median)" \
    "$(cut -d' ' -f2 "$tmp/hard.res" | median)" "$(cut -d' ' -f3 "$tmp/hard.res" | median)"
