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
# shellcheck source=../lib.sh
. "$here/../lib.sh"
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
command -v h2o >/dev/null || need="$need h2o"
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
    SPORT=$(bench_port "$log" "$SPID") || exit 1
}

stop_sudokud() {
    kill "$SPID" 2>/dev/null || true
    wait "$SPID" 2>/dev/null || true
}

# sudokud's answer to the example, so nginx sends as many bytes.
BODY='{"solution":["957214386","824736591","361859742","495372618","786491235","132568974","519687423","273145869","648923157"],"stats":{"guesses":0,"nodes":1,"solve_us":5}}'

# start_reference NAME: starts the reference server NAME (nginx or h2o)
# from $here/NAME.conf.in, in $tmp/NAME, on a port found free; sets RPID
# (nginx's master, h2o's one process) and RPORT. h2o started as root
# runs as nobody, so the directory is world-writable.
start_reference() {
    local name=$1 dir=$tmp/$1 cmd
    mkdir -p "$dir"
    chmod 777 "$dir"
    case $name in
    nginx) cmd=("$NGINX" -p "$dir" -c "$dir/nginx.conf") ;;
    h2o) cmd=(h2o -m worker -c "$dir/h2o.conf") ;;
    esac
    for _ in $(seq 20); do
        RPORT=$((20000 + RANDOM % 40000))
        sed -e "s|@PREFIX@|$dir|g" -e "s|@PORT@|$RPORT|g" -e "s|@BODY@|$BODY|g" \
            "$here/$name.conf.in" >"$dir/$name.conf"
        "${cmd[@]}" >>"$dir/out.log" 2>&1 &
        RPID=$!
        # Listening, or gone (the port was taken): try another port.
        if bench_accepts "$RPORT" "$RPID" 5; then
            pids+=("$RPID")
            return 0
        fi
        kill "$RPID" 2>/dev/null || true
        wait "$RPID" 2>/dev/null || true
    done
    echo "$name did not start: $(cat "$dir"/*.log 2>/dev/null)" >&2
    exit 1
}

# Debian's nginx (NPID, NPORT) and h2o 2.2 (HPID, HPORT; the other
# event-driven server of the comparison, 2 threads, the same body from an
# mruby handler).
start_nginx() {
    start_reference nginx
    NPID=$RPID NPORT=$RPORT
}

start_h2o() {
    start_reference h2o
    HPID=$RPID HPORT=$RPORT
}

# machine_ticks: clock ticks all CPUs spent busy (user, nice, system, irq,
# softirq). Per request, this is what the whole machine did for it, the
# client's share included: the kernel's TCP work on loopback is charged to
# whichever of client or server happens to be running, differently with
# different servers, so the server's own figure alone misleads.
machine_ticks() {
    head -n1 /proc/stat | awk '{ print $2 + $3 + $4 + $7 + $8 }'
}

# ---------------------------------------------------------------- runs

# run_wrk PID PORT THREADS CONNS [ENV=VAL...]: prints
# "rps p50 p99 server_cpu_us_per_request errors machine_cpu_us_per_request".
run_wrk() {
    local pid=$1 port=$2 t=$3 c=$4 before after mbefore mafter out
    shift 4
    before=$(bench_cpu_ns "$pid")
    mbefore=$(machine_ticks)
    out=$(env "$@" wrk -t"$t" -c"$c" -d"${secs}s" --timeout 10s -s "$here/post.lua" \
        "http://127.0.0.1:$port/solve" 2>&1 | grep '^RESULT') || {
        echo "wrk failed" >&2
        exit 1
    }
    after=$(bench_cpu_ns "$pid")
    mafter=$(machine_ticks)
    echo "$out" | awk -v ns=$((after - before)) -v ticks=$((mafter - mbefore)) -v clk="$clk" '{
        for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        cpu = v["requests"] > 0 ? ns / 1000 / v["requests"] : 0
        machine = v["requests"] > 0 ? ticks * 1e6 / clk / v["requests"] : 0
        printf "%.1f %d %d %.2f %d %.2f\n", v["rps"], v["p50"], v["p99"], cpu, v["errors"], machine
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
    local h2o=$tmp/h2o.${name//[^A-Za-z0-9]/_} with_h2o=0
    [[ $name =~ $H2O_ROWS ]] && with_h2o=1
    : >"$ours"
    : >"$nginx"
    : >"$h2o"
    # shellcheck disable=SC2086
    start_sudokud $args
    for _ in $(seq "$repeats"); do
        run_wrk "$SPID" "$SPORT" "$t" "$c" "$@" >>"$ours"
        run_wrk "$NPID" "$NPORT" "$t" "$c" "$@" >>"$nginx"
        [ "$with_h2o" = 0 ] || run_wrk "$HPID" "$HPORT" "$t" "$c" "$@" >>"$h2o"
    done
    stop_sudokud
    row "$name" "$ours" "$nginx"
    [ "$with_h2o" = 0 ] || row "  the same, vs h2o" "$ours" "$h2o"
}

# row NAME OURS OTHER: one table line from two files of run_wrk lines.
row() {
    local name=$1 ours=$2 nginx=$3
    local o_rps n_rps o50 n50 o99 n99 ocpu ncpu omach nmach oerr nerr
    o_rps=$(cut -d' ' -f1 "$ours" | median); n_rps=$(cut -d' ' -f1 "$nginx" | median)
    o50=$(cut -d' ' -f2 "$ours" | median); n50=$(cut -d' ' -f2 "$nginx" | median)
    o99=$(cut -d' ' -f3 "$ours" | median); n99=$(cut -d' ' -f3 "$nginx" | median)
    ocpu=$(cut -d' ' -f4 "$ours" | median); ncpu=$(cut -d' ' -f4 "$nginx" | median)
    omach=$(cut -d' ' -f6 "$ours" | median); nmach=$(cut -d' ' -f6 "$nginx" | median)
    oerr=$(awk '{ s += $5 } END { print s }' "$ours"); nerr=$(awk '{ s += $5 } END { print s }' "$nginx")
    awk -v n="$name" -v orps="$o_rps" -v nr="$n_rps" -v o50="$o50" -v n50="$n50" \
        -v o99="$o99" -v n99="$n99" -v oc="$ocpu" -v nc="$ncpu" -v om="$omach" -v nm="$nmach" \
        -v oe="$oerr" -v ne="$nerr" 'BEGIN {
        printf "%-24s %7.0f %7.0f x%-5.2f %5d/%-6d %5d/%-6d x%-5.2f %6.2f %6.2f x%-5.2f %6.2f %6.2f x%-5.2f %d/%d\n",
            n, orps, nr, orps / nr, o50, o99, n50, n99, (n99 > 0 ? o99 / n99 : 0), oc, nc,
            (nc > 0 ? oc / nc : 0), om, nm, (nm > 0 ? om / nm : 0), oe, ne
    }'
}

bench_cpu
echo "sudokud ($build/sudokud, $threads threads) vs nginx ($("$NGINX" -v 2>&1 | sed 's/.*\///'), 2 workers, fixed body) on $(nproc) cores;"
echo "rows marked \"vs h2o\": the same sudokud runs against h2o $(h2o --version | awk 'NR == 1 { print $3 }') (2 threads, the body from mruby)"
echo "wrk ${secs}s per run, $repeats runs per server, servers alternating; medians; latency in us;"
echo "cpu: us on a CPU per request of the server's own threads and processes; machine: us all CPUs were busy"
echo "per request (client included, the same client for both)"
echo "POST /solve with the example board unless said otherwise (GET /livez: our HTTP path without JSON or solving;"
echo "static: wrk sends one prepared request instead of calling Lua per request; bare libmicrohttpd: the library alone,"
echo "run as sudokud runs it, a fixed answer built once, in place of sudokud; its poll pool: the library's own threads)"
start_nginx
# The rows h2o runs in too (it answers the same body from mruby).
H2O_ROWS='^keep-alive 2x(64|256)$'
start_h2o
printf '%-24s %7s %7s %-6s %-12s %-12s %-6s %6s %6s %-6s %6s %6s %-6s %s\n' scenario ours/s nginx/s ratio \
    "ours p50/99" "nginx p50/99" "p99 x" "cpu" "nginx" "cpu x" "mach" "nginx" "mach x" "errors"
scenario "GET /livez 2x64" 2 64 "--access-log off" GET_PATH=/livez
scenario "keep-alive 1x1" 1 1 "--access-log off"
scenario "keep-alive 2x16" 2 16 "--access-log off"
scenario "keep-alive 2x64" 2 64 "--access-log off"
scenario "keep-alive 2x64 static" 2 64 "--access-log off" STATIC=1
scenario "bare libmicrohttpd 2x64" 2 64 "--bare"
scenario "bare, its poll pool 2x64" 2 64 "--bare --pool"
scenario "keep-alive 2x256" 2 256 "--access-log off"
scenario "bare libmicrohttpd 2x256" 2 256 "--bare"
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
