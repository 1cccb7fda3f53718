#!/usr/bin/env bash
# docker/test-gateway.sh - the gateway config, tested for real without
# containers: Debian's nginx runs docker/gateway/nginx.conf and gateway.conf
# unchanged on 127.0.0.1, in front of three build/sudokud processes. Only the
# two site files are templated: upstream.conf (the compose names become the
# replicas' local ports) and listen.conf (a free local port).
#
# It shows: requests spread across the replicas (their access logs); the
# request id reaching the replica logs; body and rate limits answered as
# problem+json; CORS preflights identical to the service's; a SIGKILLed
# replica losing no request (the gateway retried them); and a rolling restart
# (SIGTERM a replica, wait for its clean exit, start it again, next) under
# steady load with zero failed requests. The load generator is curl with
# --rate and a URL range: one status line per request, so failures are
# counted exactly. Everything it starts is stopped on exit, even when
# interrupted. Ends with "gateway: N passed, N failed"; non-zero on a failure.
#
#   docker/test-gateway.sh                 (as root, installs nginx-light and
#                                           curl with apt-get when missing)
#   SUDOKUD_BIN=build/san/sudokud RATE=60 docker/test-gateway.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

SUDOKUD=${SUDOKUD_BIN:-build/sudokud}
REPLICAS=3
RATE=${RATE:-80}          # requests a second of the steady load; under the
                          # gateway's 100 r/s per address, so none are limited
WORK=$(mktemp -d /tmp/sudokud-gateway-test.XXXXXX)
NGINX_PID=
LOAD_PID=
declare -a RPID RPORT
t0=$(date +%s)
TEST_NAME=gateway-test
# shellcheck source=docker/test-lib.sh
. docker/test-lib.sh # (the working directory is the repository now)

# Stops one process by id: TERM, then KILL after 5 s.
stop_pid() {
    local pid=$1
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
}

cleanup() {
    local rc=$? i
    trap - EXIT INT TERM
    if [ -n "$LOAD_PID" ]; then
        rm -f "$WORK/load.run"
        kill_tree "$LOAD_PID"
    fi
    stop_pid "$NGINX_PID"
    for i in "${!RPID[@]}"; do stop_pid "${RPID[$i]}"; done
    if [ "$rc" != 0 ] && [ -z "${KEEP_WORK:-}" ]; then
        say "logs of the failed run:"
        for f in "$WORK"/*.log "$WORK"/*.err; do [ -f "$f" ] && { say "== $f (last 5 lines)"; tail -5 "$f"; }; done
    fi
    [ -n "${KEEP_WORK:-}" ] && say "kept $WORK" || rm -rf "$WORK"
    exit "$rc"
}
trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT TERM
trap 'say "gateway-test: command failed at line $LINENO: $BASH_COMMAND" >&2' ERR

# ---- tools and binary --------------------------------------------------
need=""
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need="$need nginx-light"
command -v curl >/dev/null || need="$need curl"
command -v ss >/dev/null || need="$need iproute2"
command -v python3 >/dev/null || need="$need python3"
if [ -n "$need" ]; then
    [ "$(id -u)" = 0 ] || die "missing:$need; as root run: apt-get install -y --no-install-recommends$need"
    say "installing:$need"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    apt-get install -y -q --no-install-recommends $need >/dev/null
    # Debian's package starts its own nginx on port 80: this test needs none.
    systemctl stop nginx 2>/dev/null || service nginx stop 2>/dev/null || true
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
if [ ! -x "$SUDOKUD" ]; then
    say "building $SUDOKUD"
    make --no-print-directory "$SUDOKUD" >/dev/null
fi
# A private copy: a rebuild of build/ during the test must not change the
# binary between the rolling restarts.
cp "$SUDOKUD" "$WORK/sudokud"
SUDOKUD=$WORK/sudokud

BOARD='{"board":"9.7.....6824.3......1..9..2.9...2.18...4....51325.8......687.........8.9.4.9...5."}'
printf '%s' "$BOARD" >"$WORK/board.json"

# ---- replicas ----------------------------------------------------------
# start_replica I [PORT]: starts replica I on PORT (0: a free one, read from
# its "listening" log line) and waits for /readyz.
start_replica() {
    local i=$1 port=${2:-0} log=$WORK/replica-$1.log skip line
    touch "$log"
    skip=$(wc -l <"$log")
    "$SUDOKUD" --port "$port" --bind 127.0.0.1 --threads 2 >>"$log" 2>&1 &
    RPID[$i]=$!
    for _ in $(seq 1 100); do
        line=$(tail -n +"$((skip + 1))" "$log" | grep -m1 '"msg":"listening"' || true)
        [ -n "$line" ] && break
        kill -0 "${RPID[$i]}" 2>/dev/null || die "replica $i exited at start: $(tail -3 "$log")"
        sleep 0.05
    done
    [ -n "$line" ] || die "replica $i logged no listening line"
    RPORT[$i]=$(sed -E 's/.*"port":([0-9]+).*/\1/' <<<"$line")
    for _ in $(seq 1 100); do
        curl -fs -o /dev/null "http://127.0.0.1:${RPORT[$i]}/readyz" && return 0
        sleep 0.05
    done
    die "replica $i not ready on port ${RPORT[$i]}"
}

# stop_replica I SIGNAL: sends SIGNAL and waits for the exit; sets STOP_RC
# (exit status) and STOP_MS (how long it took).
stop_replica() {
    local i=$1 sig=$2 ts
    ts=$(date +%s%N)
    STOP_RC=0
    kill -"$sig" "${RPID[$i]}"
    wait "${RPID[$i]}" 2>/dev/null || STOP_RC=$?
    STOP_MS=$(( ($(date +%s%N) - ts) / 1000000 ))
}

for i in $(seq 1 $REPLICAS); do start_replica "$i"; done
say "replicas on ports: ${RPORT[*]}"

# ---- gateway -----------------------------------------------------------
cp docker/gateway/nginx.conf docker/gateway/gateway.conf "$WORK/"
# upstream.conf with each compose name sudokud-N:8080 replaced by a local port.
sed_args=()
for i in $(seq 1 $REPLICAS); do sed_args+=(-e "s/sudokud-$i:8080/127.0.0.1:${RPORT[$i]}/"); done
sed "${sed_args[@]}" docker/gateway/upstream.conf >"$WORK/upstream.conf"
grep -q 'sudokud-[0-9]' "$WORK/upstream.conf" && die "upstream.conf names a replica this test does not run"
# nginx's workers run as nobody when the master is root.
chmod 755 "$WORK"

# start_gateway: on a free port; false if nginx exits (the port was taken
# in the meantime) or does not answer.
start_gateway() {
    GW_PORT=$(free_port)
    GW=http://127.0.0.1:$GW_PORT
    sed -E "s/^listen .*/listen 127.0.0.1:$GW_PORT;/" docker/gateway/listen.conf >"$WORK/listen.conf"
    "$NGINX" -p "$WORK/" -c "$WORK/nginx.conf" -e stderr >"$WORK/gateway.log" 2>"$WORK/gateway.err" &
    NGINX_PID=$!
    for _ in $(seq 1 100); do
        curl -fs -o /dev/null "$GW/livez" && return 0
        kill -0 "$NGINX_PID" 2>/dev/null || { wait "$NGINX_PID" 2>/dev/null || true; NGINX_PID=; return 1; }
        sleep 0.05
    done
    return 1
}
sed -E "s/^listen .*/listen 127.0.0.1:1;/" docker/gateway/listen.conf >"$WORK/listen.conf"
check "nginx accepts the gateway config (nginx -t)" \
    "$NGINX" -t -q -p "$WORK/" -c "$WORK/nginx.conf" -e stderr
started=0
for _ in 1 2 3; do
    if start_gateway; then started=1; break; fi
    stop_pid "$NGINX_PID"; NGINX_PID=
done
[ "$started" = 1 ] || die "nginx did not start: $(cat "$WORK/gateway.err")"
say "gateway on port $GW_PORT ($("$NGINX" -v 2>&1))"

# count_in_log I PATTERN: lines of replica I's log with PATTERN.
count_in_log() { grep -c -- "$2" "$WORK/replica-$1.log" || true; }
# count_all PATTERN: lines with PATTERN in all replica logs.
count_all() { cat "$WORK"/replica-*.log | grep -c -- "$1" || true; }
# settle PATTERN N: a replica writes its access line just after the answer
# has been sent, so wait (2 s at most) until N lines with PATTERN are there.
settle() {
    for _ in $(seq 1 40); do [ "$(count_all "$1")" -ge "$2" ] && return 0; sleep 0.05; done
    return 0
}

# load NAME N [RATE] [INTERFACE]: N POST /solve through the gateway, one after
# another on one keep-alive connection, at most RATE a second; writes one
# status code per request to $WORK/NAME.codes (000: no answer at all).
load() {
    local name=$1 n=$2 rate=${3:-$RATE} iface=${4:-127.0.0.1}
    curl -s --interface "$iface" --rate "$rate/s" -o /dev/null -w '%{http_code}\n' \
        -H 'Content-Type: application/json' -H "X-Request-Id: gw-$name" \
        --data-binary @"$WORK/board.json" "$GW/solve?n=[1-$n]" >>"$WORK/$name.codes" || true
}
# summary NAME: "requests R, failures F" of a load's codes file.
summary() {
    local r f
    r=$(wc -l <"$WORK/$1.codes")
    f=$(grep -vc '^200$' "$WORK/$1.codes" || true)
    echo "requests $r, failures $f"
}
failures() { grep -vc '^200$' "$WORK/$1.codes" || true; }

# ---- 1. spread ---------------------------------------------------------
# 300 at 150 a second: inside the limit's burst of 200 plus 100 a second.
N=300
load spread $N 150
settle '"request_id":"gw-spread"' "$N"
spread=()
for i in $(seq 1 $REPLICAS); do spread+=("$(count_in_log "$i" '"request_id":"gw-spread"')"); done
say "spread of $N requests over the replicas: ${spread[*]}"
spread_ok() {
    local total=0 c
    [ "$(failures spread)" = 0 ] || return 1
    for c in "${spread[@]}"; do total=$((total + c)); [ "$c" -ge $((N / REPLICAS / 2)) ] || return 1; done
    [ "$total" = "$N" ]
}
check "$N requests all answered 200 and spread over the $REPLICAS replicas (${spread[*]})" spread_ok

# Keep-alive upstream: the replicas accepted far fewer connections than requests.
conns=0
for i in $(seq 1 $REPLICAS); do
    c=$(ss -Htn state established "( sport = :${RPORT[$i]} )" 2>/dev/null | wc -l)
    conns=$((conns + c))
done
check "upstream connections kept alive: $conns open to the replicas after $N requests" \
    test "$conns" -ge 1 -a "$conns" -le 64

# ---- 2. request id -----------------------------------------------------
rid="gw-id-$$-$RANDOM"
hdr=$(curl -s -D - -o /dev/null -H 'Content-Type: application/json' -H "X-Request-Id: $rid" \
           --data-binary @"$WORK/board.json" "$GW/solve")
settle "\"request_id\":\"$rid\"" 1
id_logged() {
    local hits=0 i
    for i in $(seq 1 $REPLICAS); do hits=$((hits + $(count_in_log "$i" "\"request_id\":\"$rid\""))); done
    [ "$hits" = 1 ] && grep -qi "^x-request-id: $rid" <<<"$hdr" &&
        grep -q "\"request_id\":\"$rid\"" "$WORK/gateway.log"
}
check "a client's X-Request-Id reaches one replica's log, the gateway log and the answer" id_logged
gen=$(curl -s -D - -o /dev/null -H 'Content-Type: application/json' \
           --data-binary @"$WORK/board.json" "$GW/solve" | tr -d '\r' |
      awk 'tolower($1) == "x-request-id:" { print $2 }')
settle "\"request_id\":\"$gen\"" 1
gen_logged() {
    [[ $gen =~ ^[0-9a-f]{32}$ ]] && [ "$(count_all "\"request_id\":\"$gen\"")" = 1 ]
}
check "without one, the gateway's id ($gen) reaches the replica log and the answer" gen_logged
bad_id=$(curl -s -D - -o /dev/null -H 'Content-Type: application/json' -H 'X-Request-Id: a"b' \
              --data-binary @"$WORK/board.json" "$GW/solve" | tr -d '\r' |
         awk 'tolower($1) == "x-request-id:" { print $2 }')
check "an id the JSON logs cannot hold unescaped (a\"b) is replaced ($bad_id)" \
    grep -Eq '^[0-9a-f]{32}$' <<<"$bad_id"

# ---- 3. body limit -----------------------------------------------------
head -c 17000 /dev/zero | tr '\0' ' ' >"$WORK/big.json"
before=$(cat "$WORK"/replica-*.log | wc -l)
out=$(curl -s -D "$WORK/413.h" -H 'Content-Type: application/json' -H 'X-Request-Id: gw-big' \
           --data-binary @"$WORK/big.json" "$GW/solve")
after=$(cat "$WORK"/replica-*.log | wc -l)
too_large() {
    grep -q '^HTTP/1.1 413' "$WORK/413.h" && grep -qi '^content-type: application/problem+json' "$WORK/413.h" &&
        grep -qi '^x-request-id: gw-big' "$WORK/413.h" &&
        grep -q '"code":"body_too_large"' <<<"$out" && [ "$before" = "$after" ]
}
check "a 17000-byte body gets 413 problem+json body_too_large from the gateway, no replica sees it" too_large

# ---- 4. CORS preflight -------------------------------------------------
# cors_headers URL: status line and CORS-related headers, without Date and
# X-Request-Id, sorted.
cors_headers() {
    curl -s -D - -o /dev/null -X OPTIONS -H 'Origin: https://app.example' \
         -H 'Access-Control-Request-Method: POST' \
         -H 'Access-Control-Request-Headers: content-type, x-request-id' "$1" | tr -d '\r' |
        grep -iE '^(HTTP/|allow|access-control-|vary)' | sed 's/^HTTP\/1.1/HTTP/' | sort
}
direct=$(cors_headers "http://127.0.0.1:${RPORT[1]}/solve")
via_gw=$(cors_headers "$GW/solve")
same_cors() {
    [ -n "$direct" ] && [ "$direct" = "$via_gw" ] && grep -q '^HTTP 204' <<<"$via_gw" &&
        grep -qi '^access-control-allow-origin' <<<"$via_gw"
}
check "a CORS preflight through the gateway is answered exactly as by a replica" same_cors
[ "$direct" = "$via_gw" ] || { say "  direct: $direct"; say "  gateway: $via_gw"; }

# ---- 5. rate limit -----------------------------------------------------
# From another loopback address, so the other tests' budget is untouched:
# 500 requests at once, 10 in parallel, against 100 r/s with a burst of 200.
mkdir "$WORK/burst"
curl -s --no-progress-meter --interface 127.0.0.2 --parallel --parallel-max 10 \
     -H 'Origin: https://app.example' -H 'X-Request-Id: gw-limited' -o "$WORK/burst/#1" \
     -w '%{http_code} #%{url_effective}# %header{content-type}|%header{retry-after}|%header{x-request-id}|%header{access-control-allow-origin}\n' \
     "$GW/livez?n=[1-500]" >"$WORK/burst.out" || true
cut -d' ' -f1 "$WORK/burst.out" >"$WORK/burst.codes"
n200=$(grep -c '^200$' "$WORK/burst.codes" || true)
n429=$(grep -c '^429$' "$WORK/burst.codes" || true)
say "burst of 500 from 127.0.0.2: $n200 answered, $n429 limited"
check "a burst over the rate limit gets 429s (the first 200 pass)" \
    test "$n429" -gt 0 -a "$n200" -ge 200 -a $((n200 + n429)) = 500
line=$(grep -m1 '^429 ' "$WORK/burst.out" || true)
body=$(sed -E 's/.*n=([0-9]+)#.*/\1/' <<<"$line")
body=$(cat "$WORK/burst/$body" 2>/dev/null || true)
limited_json() {
    [[ $line == *" application/problem+json|1|gw-limited|*" ]] &&
        python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["code"]=="rate_limited" and d["status"]==429 and d["request_id"]=="gw-limited"' "$body" 2>/dev/null
}
check "a 429 is problem+json, code rate_limited, with Retry-After, request id and CORS" limited_json
[ -n "$line" ] && say "  $line"
[ -n "$body" ] && say "  $body"
pre=$(curl -s -o /dev/null -w '%{http_code}' --interface 127.0.0.2 -X OPTIONS \
           -H 'Origin: https://app.example' -H 'Access-Control-Request-Method: POST' "$GW/solve")
check "while limited, a CORS preflight from the same address still passes ($pre)" test "$pre" = 204

# ---- 6. a killed replica -----------------------------------------------
# Steady load for 8 s; replica 2 gets SIGKILL after 2 s (no drain, open
# connections reset), and comes back on its port 3 s later.
n=$((RATE * 8))
load kill "$n" &
LOAD_PID=$!
sleep 2
stop_replica 2 KILL
sleep 3
start_replica 2 "${RPORT[2]}"
wait "$LOAD_PID" || true
LOAD_PID=
retried=$(grep '"request_id":"gw-kill"' "$WORK/gateway.log" | grep -c '"upstream":"[^"]*, ' || true)
retried_ok=$(grep '"request_id":"gw-kill"' "$WORK/gateway.log" | grep '"status":200' | grep -c '"upstream":"[^"]*, ' || true)
say "kill: $(summary kill); the gateway retried $retried requests on another replica, $retried_ok answered 200"
kill_ok() {
    [ "$(wc -l <"$WORK/kill.codes")" = "$n" ] && [ "$(failures kill)" = 0 ] &&
        [ "$retried" -ge 1 ] && [ "$retried" = "$retried_ok" ]
}
check "SIGKILL of a replica under load: $n requests, 0 failed, every retried one answered" kill_ok

# ---- 7. rolling restart ------------------------------------------------
# Two streams of steady load (from 127.0.0.1 and 127.0.0.3, each under its
# own rate limit) run in batches until the restart is done; then the batches
# in progress finish, so every request sent is counted.
touch "$WORK/load.run"
( while [ -e "$WORK/load.run" ]; do
      load roll "$RATE" "$RATE" 127.0.0.1 & load roll3 "$RATE" "$RATE" 127.0.0.3; wait
  done ) &
LOAD_PID=$!
sleep 1
roll_ok=1
tr0=$(date +%s%N)
for i in $(seq 1 $REPLICAS); do
    before=$(count_in_log "$i" '"request_id":"gw-roll')
    stop_replica "$i" TERM
    served=$(( $(count_in_log "$i" '"request_id":"gw-roll') - before ))
    say "  replica $i: SIGTERM, exit $STOP_RC after $STOP_MS ms, answering $served requests meanwhile"
    [ "$STOP_RC" = 0 ] || roll_ok=0
    start_replica "$i" "${RPORT[$i]}"
    sleep 1
done
rm -f "$WORK/load.run"
wait "$LOAD_PID" || true
LOAD_PID=
roll_s=$(( ($(date +%s%N) - tr0) / 1000000000 ))
cat "$WORK/roll3.codes" >>"$WORK/roll.codes"
settle '"request_id":"gw-roll' "$(wc -l <"$WORK/roll.codes")"
per=()
for i in $(seq 1 $REPLICAS); do per+=("$(count_in_log "$i" '"request_id":"gw-roll')"); done
say "rolling restart: $(summary roll) in about $roll_s s; per replica ${per[*]}"
check "each replica exited 0 on SIGTERM" test "$roll_ok" = 1
check "rolling restart under 2 x $RATE r/s of steady load: $(summary roll)" test "$(failures roll)" = 0
# Upstream errors are expected (they are what the retries answered), and so
# is the body refused above; any other error, "no live upstreams" too, is not.
# A connect that times out is one of them: a replica that is shutting down
# drops new connection requests for its last 0.2 ms (see README, Shutdown).
nginx_quiet() {
    ! grep -E '\[(error|crit|alert|emerg)\]' "$WORK/gateway.err" |
        grep -vE 'connect\(\) failed|timed out .* while connecting to upstream|prematurely closed|reset by peer|while (reading|sending)|too large body' | grep -q .
}
check "nginx logged no error but the upstream failures it retried" nginx_quiet

say "gateway: took $(( $(date +%s) - t0 )) s"
say "gateway: $passed passed, $failed failed"
[ "$failed" = 0 ]
