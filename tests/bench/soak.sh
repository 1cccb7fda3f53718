#!/usr/bin/env bash
# soak.sh - `make soak`: runs the release daemon on 127.0.0.1 (a free port)
# and drives it with wrk for SOAK_SECONDS with the mixed valid/invalid
# requests of tests/bench/soak.lua, sampling its resident memory (VmRSS) as
# it goes. Fails when any request failed (socket error, timeout, 5xx or an
# unexpected status) or when RSS grew by more than 10% + 2 MiB between the
# end of the warm-up and the end of the run. Everything it starts is stopped
# on exit, also when interrupted.
#
# Settings (environment): SUDOKUD_BIN (build/sudokud), SOAK_SECONDS (180),
# SOAK_WARMUP (20, seconds before the baseline sample), SOAK_INTERVAL (15),
# SOAK_CONNECTIONS (64), SOAK_THREADS (2, wrk threads), SOAK_DATA (tests/data).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=lib.sh
. tests/bench/lib.sh

bin=${SUDOKUD_BIN:-build/sudokud}
seconds=${SOAK_SECONDS:-180}
warmup=${SOAK_WARMUP:-20}
interval=${SOAK_INTERVAL:-15}
conns=${SOAK_CONNECTIONS:-64}
wthreads=${SOAK_THREADS:-2}
data=${SOAK_DATA:-tests/data}

if ! command -v wrk >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        echo "installing wrk"
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y --no-install-recommends wrk >/dev/null ||
            { apt-get update -q >/dev/null && apt-get install -y --no-install-recommends wrk >/dev/null; }
    else
        echo "soak: wrk is missing; as root run: apt-get install -y --no-install-recommends wrk" >&2
        exit 1
    fi
fi
if [ ! -x "$bin" ]; then
    echo "soak: $bin is missing; run make $bin" >&2
    exit 1
fi
if [ "$warmup" -ge "$seconds" ]; then
    echo "soak: SOAK_WARMUP ($warmup) must be below SOAK_SECONDS ($seconds)" >&2
    exit 1
fi

tmp=$(mktemp -d)
server_pid="" wrk_pid="" sampler_pid=""

# The sampler and the sleep it may be in.
stop_sampler() {
    if [ -n "$sampler_pid" ]; then
        local sleeper
        sleeper=$(pgrep -P "$sampler_pid" || true)
        kill "$sampler_pid" $sleeper 2>/dev/null || true
        wait "$sampler_pid" 2>/dev/null || true
        sampler_pid=""
    fi
}

cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    [ -n "$wrk_pid" ] && kill "$wrk_pid" 2>/dev/null
    stop_sampler
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        for _ in $(seq 50); do  # up to 5 s of drain, then no more waiting
            kill -0 "$server_pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -KILL "$server_pid" 2>/dev/null || true
    fi
    wait 2>/dev/null || true
    rm -rf "$tmp"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$server_pid/status" 2>/dev/null || echo 0; }

# --- start the daemon on a free port and read the port from its log -------
"$bin" --bind 127.0.0.1 --port 0 --access-log off --drain-timeout 5 \
    >"$tmp/server.log" 2>&1 &
server_pid=$!
if ! port=$(bench_port "$tmp/server.log" "$server_pid"); then
    echo "soak: the daemon did not start" >&2
    exit 1
fi
url="http://127.0.0.1:$port"
rss_start=$(rss_kib)
echo "soak: $bin pid $server_pid on $url; ${seconds} s, $conns connections," \
     "$wthreads wrk threads; RSS at start ${rss_start} KiB"

# --- sample RSS: at the end of the warm-up, then every $interval s --------
(
    sleep "$warmup"
    t=$warmup
    while kill -0 "$server_pid" 2>/dev/null; do
        echo "$t $(rss_kib)" >>"$tmp/rss"
        sleep "$interval"
        t=$((t + interval))
    done
) &
sampler_pid=$!

wrk -t "$wthreads" -c "$conns" -d "${seconds}s" --timeout 5s \
    -s tests/bench/soak.lua "$url" -- "$data" >"$tmp/wrk.out" 2>&1 &
wrk_pid=$!
status=0
wait "$wrk_pid" || status=$?
wrk_pid=""
rss_end=$(rss_kib)
stop_sampler
echo "$seconds $rss_end" >>"$tmp/rss"

cat "$tmp/wrk.out"
if [ "$status" != 0 ]; then
    echo "soak: FAIL: wrk exited with $status" >&2
    exit 1
fi
if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "soak: FAIL: the daemon died during the run" >&2
    cat "$tmp/server.log" >&2
    exit 1
fi

# The daemon's own count, from /metrics over bash's /dev/tcp (no curl
# needed): every request it answered, and how many of them were 5xx.
server_total="?" server_5xx="?"
if exec 3<>"/dev/tcp/127.0.0.1/$port" 2>/dev/null; then
    printf 'GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
    timeout 5 cat <&3 >"$tmp/metrics" || true
    exec 3<&-
    read -r server_total server_5xx < <(awk '
        /^http_requests_total\{/ { t += $NF; if ($0 ~ /code="5/) f += $NF }
        END { print t + 0, f + 0 }' "$tmp/metrics")
fi

# --- figures and verdict ---------------------------------------------------
line=$(grep '^soak: requests=' "$tmp/wrk.out" || true)
field() { echo "$line" | sed -n "s/.* $1=\([0-9.]*\).*/\1/p"; }
requests=$(echo "$line" | sed -n 's/^soak: requests=\([0-9]*\).*/\1/p')
unexpected=$(field unexpected_status)
sock=$(( $(field connect) + $(field read) + $(field write) + $(field timeout) ))
errors=$((unexpected + sock))
rss_warm=$(head -n 1 "$tmp/rss" | cut -d' ' -f2)
rss_max=$(cut -d' ' -f2 "$tmp/rss" | sort -n | tail -n 1)
[ "$rss_start" -gt "$rss_max" ] && rss_max=$rss_start
limit=$((rss_warm + rss_warm / 10 + 2048))

echo "soak: RSS samples (s KiB): $(tr '\n' ' ' <"$tmp/rss")"
printf 'soak: requests served %s, errors %s (unexpected status %s, socket errors and timeouts %s)\n' \
    "$requests" "$errors" "$unexpected" "$sock"
printf 'soak: the daemon counted %s requests answered, %s of them 5xx\n' \
    "$server_total" "$server_5xx"
printf 'soak: RSS start %s KiB, after warm-up %s KiB, end %s KiB, max %s KiB, growth after warm-up %+d KiB (limit %s KiB)\n' \
    "$rss_start" "$rss_warm" "$rss_end" "$rss_max" $((rss_end - rss_warm)) "$limit"

fail=0
if [ -z "$requests" ] || [ "$requests" -eq 0 ]; then
    echo "soak: FAIL: no requests were served" >&2
    fail=1
fi
if [ "$errors" -ne 0 ]; then
    echo "soak: FAIL: $errors requests failed" >&2
    fail=1
fi
if [ "$server_5xx" != "?" ] && [ "$server_5xx" -ne 0 ]; then
    echo "soak: FAIL: the daemon answered $server_5xx requests with 5xx" >&2
    fail=1
fi
if [ "$rss_end" -gt "$limit" ]; then
    echo "soak: FAIL: RSS grew from $rss_warm to $rss_end KiB" >&2
    fail=1
fi
[ "$fail" = 0 ] && echo "soak: PASS"
exit "$fail"
