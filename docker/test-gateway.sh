#!/usr/bin/env bash
# docker/test-gateway.sh - the gateway config, tested for real without
# containers: Debian's nginx runs docker/gateway/nginx.conf, gateway.conf and
# realip.conf unchanged on 127.0.0.1, in front of three build/sudokud
# processes. Only two site files are templated: upstream.conf (its resolver
# becomes docker/test-dns.py, which answers the name "sudokud" with the
# replicas' loopback addresses 127.0.0.11-13 from a file, as Docker's DNS
# does in compose) and listen.conf (a free local port).
#
# It shows: requests spread across the replicas (their access logs); the
# request id reaching the replica logs; body limits per route (16 KB, and
# 4 MB for /solve/batch) and the rate limit answered as problem+json; the
# rate limit keyed on the real client behind a trusted hop and not on a
# forged X-Forwarded-For; CORS preflights identical to the service's; text
# answers gzipped; a SIGKILLed replica losing no request (the gateway
# retried them); a replica recreated on a new address getting traffic
# without a gateway restart; and a rolling restart (SIGTERM a replica, wait
# for its clean exit, start it again, wait until the gateway sends it
# requests, next) under steady load with zero failed requests. Every check
# waits on state (a line in a log, an answer) with a deadline, never on a
# fixed sleep. The load generator is curl with --rate and a URL range: one
# status line per request, so failures are counted exactly. Everything it
# starts is stopped on exit, even when interrupted. Ends with
# "gateway: N passed, N failed"; non-zero on a failure.
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
DNS_PID=
declare -a RPID RADDR
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
    stop_pid "$DNS_PID"
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

# ---- name service ------------------------------------------------------
# $WORK/hosts holds "sudokud ADDRESS" per replica; test-dns.py reads it on
# every query, so rewriting it moves a replica as recreating a container does.
: >"$WORK/hosts"
python3 docker/test-dns.py "$WORK/hosts" >"$WORK/dns.port" 2>"$WORK/dns.err" &
DNS_PID=$!
wait_for 5 test -s "$WORK/dns.port" || die "test-dns.py did not start: $(cat "$WORK/dns.err")"
DNS_PORT=$(cat "$WORK/dns.port")
write_hosts() {
    local i
    for i in $(seq 1 $REPLICAS); do echo "sudokud ${RADDR[$i]}"; done >"$WORK/hosts.new"
    mv "$WORK/hosts.new" "$WORK/hosts"
}

# ---- replicas ----------------------------------------------------------
# All on one port (the name carries no port), each on its own loopback
# address, as containers each have their own.
RP=$(free_port)
for i in $(seq 1 $REPLICAS); do RADDR[$i]=127.0.0.1$i; done

# start_replica I: starts replica I on ${RADDR[I]}:$RP and waits for its
# "listening" line and /readyz.
start_replica() {
    local i=$1 log=$WORK/replica-$1.log skip
    touch "$log"
    skip=$(wc -l <"$log")
    "$SUDOKUD" --port "$RP" --bind "${RADDR[$i]}" --threads 2 >>"$log" 2>&1 &
    RPID[$i]=$!
    listening() {
        tail -n +"$((skip + 1))" "$log" | matches '"msg":"listening"' && return 0
        kill -0 "${RPID[$i]}" 2>/dev/null || die "replica $i exited at start: $(tail -3 "$log")"
        return 1
    }
    wait_for 5 listening || die "replica $i logged no listening line"
    wait_for 5 curl -fs -o /dev/null "http://${RADDR[$i]}:$RP/readyz" ||
        die "replica $i not ready on ${RADDR[$i]}:$RP"
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
write_hosts
say "replicas on ${RADDR[*]} port $RP; the name sudokud served by test-dns.py on port $DNS_PORT"

# ---- gateway -----------------------------------------------------------
cp docker/gateway/nginx.conf docker/gateway/gateway.conf docker/gateway/realip.conf "$WORK/"
# upstream.conf with Docker's resolver replaced by test-dns.py, and the port.
sed -E -e "s/^resolver 127\.0\.0\.11 /resolver 127.0.0.1:$DNS_PORT /" \
       -e "s/ sudokud:8080;/ sudokud:$RP;/" docker/gateway/upstream.conf >"$WORK/upstream.conf"
grep -q "^resolver 127.0.0.1:$DNS_PORT " "$WORK/upstream.conf" && grep -q " sudokud:$RP;" "$WORK/upstream.conf" ||
    die "upstream.conf has no 'resolver 127.0.0.11 ...' or 'sudokud:8080' line to point at this test"
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
    up() {
        curl -fs -o /dev/null "$GW/livez" && return 0
        kill -0 "$NGINX_PID" 2>/dev/null || { wait "$NGINX_PID" 2>/dev/null || true; NGINX_PID=; return 2; }
        return 1
    }
    wait_for 5 up
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
# lines_at_least PATTERN N: true once the replica logs hold N lines with
# PATTERN. A replica writes its access line after the answer has gone, from
# a buffer flushed every 200 ms: callers wait on this with a deadline.
lines_at_least() { [ "$(count_all "$1")" -ge "$2" ]; }
# fence: one request straight to each replica, waiting for its access line.
# A replica logs in order, so after the fence every line of a request it
# received before is in its log.
fence() {
    local i id
    for i in $(seq 1 $REPLICAS); do
        id=gw-fence-$RANDOM$RANDOM
        curl -fs -o /dev/null -H "X-Request-Id: $id" "http://${RADDR[$i]}:$RP/livez" || return 1
        wait_for 5 lines_at_least "\"request_id\":\"$id\"" 1 || return 1
    done
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
wait_for 5 lines_at_least '"request_id":"gw-spread"' "$N" || true
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

# ---- 2. request id -----------------------------------------------------
rid="gw-id-$$-$RANDOM"
hdr=$(curl -s -D - -o /dev/null -H 'Content-Type: application/json' -H "X-Request-Id: $rid" \
           --data-binary @"$WORK/board.json" "$GW/solve")
id_logged() {
    lines_at_least "\"request_id\":\"$rid\"" 1 && [ "$(count_all "\"request_id\":\"$rid\"")" = 1 ] &&
        grep -qi "^x-request-id: $rid" <<<"$hdr" &&
        grep -q "\"request_id\":\"$rid\"" "$WORK/gateway.log"
}
check "a client's X-Request-Id reaches one replica's log, the gateway log and the answer" wait_for 5 id_logged
gen=$(curl -s -D - -o /dev/null -H 'Content-Type: application/json' \
           --data-binary @"$WORK/board.json" "$GW/solve" | tr -d '\r' |
      awk 'tolower($1) == "x-request-id:" { print $2 }')
gen_logged() {
    [[ $gen =~ ^[0-9a-f]{32}$ ]] && [ "$(count_all "\"request_id\":\"$gen\"")" = 1 ]
}
check "without one, the gateway's id ($gen) reaches the replica log and the answer" wait_for 5 gen_logged
trace=$(printf '%08x' $$ $RANDOM $RANDOM $RANDOM | cut -c1-32)
curl -s -o /dev/null -H 'Content-Type: application/json' -H "X-Request-Id: gw-trace-$$" \
     -H "traceparent: 00-$trace-00f067aa0ba902b7-01" --data-binary @"$WORK/board.json" "$GW/solve"
trace_logged() {
    [ "$(count_all "\"trace_id\":\"$trace\",\"parent_id\":\"00f067aa0ba902b7\"")" = 1 ] &&
        grep -q "\"traceparent\":\"00-$trace-00f067aa0ba902b7-01\"" "$WORK/gateway.log"
}
check "a traceparent passes the gateway: its trace id in the replica log and the gateway log" wait_for 5 trace_logged
bad_id=$(curl -s -D - -o /dev/null -H 'Content-Type: application/json' -H 'X-Request-Id: a"b' \
              --data-binary @"$WORK/board.json" "$GW/solve" | tr -d '\r' |
         awk 'tolower($1) == "x-request-id:" { print $2 }')
check "an id the JSON logs cannot hold unescaped (a\"b) is replaced ($bad_id)" \
    grep -Eq '^[0-9a-f]{32}$' <<<"$bad_id"

# ---- 3. body limits, per route -----------------------------------------
# The replicas' defaults: --max-body 16K for /solve and the rest,
# --max-batch-body 4M for /solve/batch. Over a limit, the gateway answers
# 413 itself and no replica sees the request: after the fence, no replica
# log has its id.
# too_large NAME PATH FILE LIMIT: the gateway's 413 for FILE sent to PATH.
too_large() {
    local name=$1 path=$2 file=$3 limit=$4 out
    out=$(curl -s -D "$WORK/$name.h" -H 'Content-Type: application/json' -H "X-Request-Id: gw-$name" \
               --data-binary @"$file" "$GW$path")
    grep -q '^HTTP/1.1 413' "$WORK/$name.h" && grep -qi '^content-type: application/problem+json' "$WORK/$name.h" &&
        grep -qi "^x-request-id: gw-$name" "$WORK/$name.h" &&
        python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["code"]=="body_too_large" and d["limit"]==int(sys.argv[2]) and d["status"]==413' "$out" "$limit"
}
head -c 16385 /dev/zero | tr '\0' ' ' >"$WORK/big.json"
check "/solve: a 16385-byte body gets 413 body_too_large (limit 16384) from the gateway" \
    too_large big /solve "$WORK/big.json" 16384
head -c $((4 * 1024 * 1024 + 1)) /dev/zero | tr '\0' ' ' >"$WORK/huge.json"
check "/solve/batch: a 4 MiB + 1 byte body gets 413 body_too_large (limit 4194304) from the gateway" \
    too_large huge /solve/batch "$WORK/huge.json" 4194304
no_replica_saw() { fence && [ "$(count_all '"request_id":"gw-big"')" = 0 ] && [ "$(count_all '"request_id":"gw-huge"')" = 0 ]; }
check "no replica saw either refused body (fence: every replica's earlier lines are in)" no_replica_saw
# A batch of 2,000 boards, about 170 KB: over the 16 KB of other routes,
# within the 4 MB of batches, so it reaches a replica and is answered.
python3 -c '
import json, sys
b = json.loads(sys.argv[1])["board"]
print(json.dumps({"boards": [b] * 2000}))' "$BOARD" >"$WORK/batch.json"
bsize=$(wc -c <"$WORK/batch.json")
bcode=$(curl -s -o "$WORK/batch.out" -w '%{http_code}' -H 'Content-Type: application/json' \
             --data-binary @"$WORK/batch.json" "$GW/solve/batch")
batch_ok() {
    [ "$bcode" = 200 ] &&
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["stats"]["solved"]==2000' "$WORK/batch.out"
}
check "/solve/batch: a $bsize-byte batch passes the gateway and is solved (status $bcode)" batch_ok

# ---- 4. CORS preflight -------------------------------------------------
# cors_headers URL: status line and CORS-related headers, without Date and
# X-Request-Id, sorted.
cors_headers() {
    curl -s -D - -o /dev/null -X OPTIONS -H 'Origin: https://app.example' \
         -H 'Access-Control-Request-Method: POST' \
         -H 'Access-Control-Request-Headers: content-type, x-request-id' "$1" | tr -d '\r' |
        grep -iE '^(HTTP/|allow|access-control-|vary)' | sed 's/^HTTP\/1.1/HTTP/' | sort
}
direct=$(cors_headers "http://${RADDR[1]}:$RP/solve")
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

# ---- 5b. the real client behind a trusted hop --------------------------
# realip.conf trusts loopback (127.0.0.1) to name the client in
# X-Forwarded-For: 8 clients behind it, 180 requests each at once (within
# each one's own burst of 200), all pass; keyed on the hop they would share
# one budget and about 1,200 of the 1,440 would get 429.
# xff_burst NAME IFACE XFF N: N GET /livez at once, 6 in parallel, from
# IFACE with X-Forwarded-For XFF; status codes in $WORK/NAME.codes.
xff_burst() {
    curl -s --no-progress-meter --interface "$2" --parallel --parallel-max 6 -o /dev/null \
         -H "X-Forwarded-For: $3" -H "X-Request-Id: gw-$1" -w '%{http_code}\n' \
         "$GW/livez?n=[1-$4]" >"$WORK/$1.codes" || true
}
pids=()
for k in $(seq 1 8); do xff_burst "xff$k" 127.0.0.1 "198.51.100.$k" 180 & pids+=($!); done
wait "${pids[@]}"
cat "$WORK"/xff[1-8].codes >"$WORK/xff.codes"
say "8 clients behind the trusted hop: $(summary xff)"
check "8 clients behind a trusted hop, 1,440 requests at once: each keyed on its own address, none limited" \
    test "$(wc -l <"$WORK/xff.codes")" = 1440 -a "$(failures xff)" = 0
real_logged() { grep '"request_id":"gw-xff3"' "$WORK/gateway.log" | matches '"remote":"198.51.100.3","peer":"127.0.0.1"'; }
check "the gateway log names the client (198.51.100.3) and the hop (127.0.0.1)" wait_for 5 real_logged
# One of them over its own limit still gets 429s.
xff_burst xff9 127.0.0.1 198.51.100.9 400
check "a client behind the hop over its own limit is limited ($(grep -c '^429$' "$WORK/xff9.codes" || true) of 400)" \
    grep -q '^429$' "$WORK/xff9.codes"
# An untrusted peer (127.0.0.4) is keyed on its own address whatever it
# forwards: once its budget is spent, a new X-Forwarded-For does not buy
# another one.
xff_burst spoof1 127.0.0.4 192.0.2.1 400
# 100 requests are half a fresh key's burst: keyed on the new header, none
# would be limited.
xff_burst spoof2 127.0.0.4 192.0.2.2 100
spoof_ok() {
    grep -q '^429$' "$WORK/spoof1.codes" && grep -q '^429$' "$WORK/spoof2.codes" &&
        grep '"request_id":"gw-spoof2"' "$WORK/gateway.log" | matches '"remote":"127.0.0.4"'
}
check "an untrusted peer's X-Forwarded-For is ignored: spent budget, new header, still 429 ($(grep -c '^429$' "$WORK/spoof2.codes" || true) of 100)" \
    wait_for 5 spoof_ok

# ---- 6. compression ----------------------------------------------------
curl -s -o "$WORK/openapi.direct" "http://${RADDR[1]}:$RP/openapi.yaml"
gz_info=$(curl -s --compressed -o "$WORK/openapi.gw" -w '%{size_download} %header{content-encoding} %header{vary}' "$GW/openapi.yaml")
direct_size=$(wc -c <"$WORK/openapi.direct")
say "openapi.yaml: $direct_size bytes direct, through the gateway: $gz_info"
gz_ok() {
    read -r wire enc _ <<<"$gz_info"
    [ "$enc" = gzip ] && [ "$wire" -lt $((direct_size / 3)) ] && cmp -s "$WORK/openapi.direct" "$WORK/openapi.gw" &&
        grep -qi 'accept-encoding' <<<"$gz_info"
}
check "openapi.yaml is gzipped (Vary: Accept-Encoding) and unpacks to the replica's bytes" gz_ok
enc_of() { curl -s -o /dev/null -H 'Accept-Encoding: gzip' -w '%header{content-encoding}' "$@"; }
types_ok() {
    [ "$(enc_of "$GW/")" = gzip ] && [ "$(enc_of "$GW/app.js")" = gzip ] &&
        [ "$(enc_of "$GW/app.css")" = gzip ] &&
        [ "$(enc_of -H 'Content-Type: application/json' --data-binary @"$WORK/batch.json" "$GW/solve/batch")" = gzip ] &&
        [ -z "$(curl -s -o /dev/null -w '%header{content-encoding}' "$GW/openapi.yaml")" ]
}
check "HTML, JS, CSS and a JSON batch answer are gzipped too; a client that does not ask gets identity" types_ok

# ---- 7. a killed replica -----------------------------------------------
# Steady load; replica 2 gets SIGKILL (no drain, open connections reset)
# once the load runs, and comes back on its address once the gateway has
# met the dead replica and sent a request on to another.
n=$((RATE * 8))
load kill "$n" &
LOAD_PID=$!
wait_for 10 lines_at_least '"request_id":"gw-kill"' $((RATE * 2)) || true
stop_replica 2 KILL
# Until the gateway has met the dead replica and retried at least once.
retried_any() { grep '"request_id":"gw-kill"' "$WORK/gateway.log" | matches '"upstream":"[^"]*, '; }
wait_for 10 retried_any || true
start_replica 2
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

# ---- 8. a replica recreated on a new address ---------------------------
# As compose recreating a container: replica 2 stops, comes back on
# 127.0.0.22 and the name's answer changes. The gateway must send it
# requests without a restart (it re-resolves after valid=2s).
touch "$WORK/load.run"
( while [ -e "$WORK/load.run" ]; do load recreate "$RATE"; done ) &
LOAD_PID=$!
wait_for 10 lines_at_least '"request_id":"gw-recreate"' "$RATE" || true
stop_replica 2 TERM
RADDR[2]=127.0.0.22
write_hosts
skip=$(wc -l <"$WORK/replica-2.log")
start_replica 2
tr0=$(date +%s%N)
moved() { tail -n +"$((skip + 1))" "$WORK/replica-2.log" | matches '"request_id":"gw-recreate"'; }
moved_ok=0
wait_for 10 moved && moved_ok=1
moved_ms=$(( ($(date +%s%N) - tr0) / 1000000 ))
rm -f "$WORK/load.run"
wait "$LOAD_PID" || true
LOAD_PID=
say "recreate: $(summary recreate); replica 2 on ${RADDR[2]} got gateway traffic after $moved_ms ms"
check "a replica recreated on a new address gets traffic without a gateway restart (within $moved_ms ms)" \
    test "$moved_ok" = 1
check "a replica recreated on a new address under load: $(summary recreate)" test "$(failures recreate)" = 0

# ---- 9. rolling restart ------------------------------------------------
# Two streams of steady load (from 127.0.0.1 and 127.0.0.3, each under its
# own rate limit) run in batches until the restart is done (two rounds: six
# restarts); then the batches
# in progress finish, so every request sent is counted. The pause between
# two replicas is derived from state: the next one stops only once the
# gateway sends the restarted one requests again.
touch "$WORK/load.run"
( while [ -e "$WORK/load.run" ]; do
      load roll "$RATE" "$RATE" 127.0.0.1 & load roll3 "$RATE" "$RATE" 127.0.0.3; wait
  done ) &
LOAD_PID=$!
wait_for 10 lines_at_least '"request_id":"gw-roll' "$RATE" || true
roll_ok=1
tr0=$(date +%s%N)
for i in $(seq 1 $REPLICAS) $(seq 1 $REPLICAS); do
    before=$(count_in_log "$i" '"request_id":"gw-roll')
    stop_replica "$i" TERM
    served=$(( $(count_in_log "$i" '"request_id":"gw-roll') - before ))
    [ "$STOP_RC" = 0 ] || roll_ok=0
    skip=$(wc -l <"$WORK/replica-$i.log")
    start_replica "$i"
    tb=$(date +%s%N)
    back() { tail -n +"$((skip + 1))" "$WORK/replica-$i.log" | matches '"request_id":"gw-roll'; }
    wait_for 10 back || roll_ok=0
    say "  replica $i: SIGTERM, exit $STOP_RC after $STOP_MS ms ($served requests answered meanwhile); back in rotation after $(( ($(date +%s%N) - tb) / 1000000 )) ms"
done
rm -f "$WORK/load.run"
wait "$LOAD_PID" || true
LOAD_PID=
roll_s=$(( ($(date +%s%N) - tr0) / 1000000000 ))
cat "$WORK/roll3.codes" >>"$WORK/roll.codes"
say "rolling restart: $(summary roll) in about $roll_s s"
check "each replica exited 0 on SIGTERM and came back into rotation, twice" test "$roll_ok" = 1
check "rolling restart under 2 x $RATE r/s of steady load: $(summary roll)" test "$(failures roll)" = 0
# Upstream errors are expected (they are what the retries answered), and so
# are the bodies refused above; any other error, "no live upstreams" or a
# name that could not be resolved too, is not. A connect that times out is
# one of them: a replica that is shutting down drops new connection
# requests for its last 0.2 ms (see README, Shutdown).
nginx_quiet() {
    ! grep -E '\[(error|crit|alert|emerg)\]' "$WORK/gateway.err" |
        grep -vE 'connect\(\) failed|timed out .* while connecting to upstream|prematurely closed|reset by peer|while (reading|sending)|too large body' | matches .
}
check "nginx logged no error but the upstream failures it retried" nginx_quiet
grep -E '\[(error|crit|alert|emerg)\]' "$WORK/gateway.err" | grep -iE 'no live|resolve' | head -3 || true

say "gateway: took $(( $(date +%s) - t0 )) s"
say "gateway: $passed passed, $failed failed"
[ "$failed" = 0 ]
