#!/usr/bin/env bash
# ab.sh - two or more sudokud builds and nginx side by side, interleaved:
# each round runs wrk against every server in turn, and the medians of
# requests/s and of server CPU per request (schedstat) are printed, with
# the load average before and after. For A/B figures of one change on a
# shared machine (run.sh compares one build with the reference servers).
#   usage: tests/bench/http/ab.sh CONNS BUILD_DIR...   (wrk -t2)
#   env:   BENCH_SECONDS (5) per run, BENCH_REPEATS (5)
set -euo pipefail

conns=$1
shift
secs=${BENCH_SECONDS:-5}
repeats=${BENCH_REPEATS:-5}
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
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
BODY='{"solution":["957214386","824736591","361859742","495372618","786491235","132568974","519687423","273145869","648923157"],"stats":{"guesses":0,"nodes":1,"solve_us":5}}'

names=() ports=() spids=()
for b in "$@"; do
    log=$tmp/s.${#names[@]}.log
    "$b/sudokud" --port 0 --bind 127.0.0.1 --threads 2 --access-log off >"$log" 2>&1 &
    pids+=($!)
    spids+=($!)
    ports+=("$(bench_port "$log" "$!")")
    names+=("$b")
done
mkdir -p "$tmp/nginx"
chmod 777 "$tmp/nginx"
nport=$((20000 + RANDOM % 40000))
sed -e "s|@PREFIX@|$tmp/nginx|g" -e "s|@PORT@|$nport|g" -e "s|@BODY@|$BODY|g" \
    "$here/nginx.conf.in" >"$tmp/nginx/nginx.conf"
"$NGINX" -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" >"$tmp/nginx/out.log" 2>&1 &
pids+=($!)
bench_accepts "$nport" "$!" 5
names+=(nginx)
ports+=("$nport")
spids+=($!)

bench_cpu
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); wrk -t2 -c$conns, ${secs}s x $repeats, interleaved"
for _ in $(seq "$repeats"); do
    for i in "${!names[@]}"; do
        before=$(bench_cpu_ns "${spids[$i]}")
        out=$(wrk -t2 -c"$conns" -d"${secs}s" --timeout 10s -s "$here/post.lua" \
            "http://127.0.0.1:${ports[$i]}/solve" 2>&1 | grep '^RESULT')
        after=$(bench_cpu_ns "${spids[$i]}")
        echo "$out" | awk -v ns=$((after - before)) '{
            for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
            printf "%.1f %.3f\n", v["rps"], ns / 1000 / v["requests"] }' >>"$tmp/r.$i"
    done
done
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
last=$((${#names[@]} - 1))
nrps=$(cut -d' ' -f1 "$tmp/r.$last" | median)
ncpu=$(cut -d' ' -f2 "$tmp/r.$last" | median)
for i in "${!names[@]}"; do
    rps=$(cut -d' ' -f1 "$tmp/r.$i" | median)
    cpu=$(cut -d' ' -f2 "$tmp/r.$i" | median)
    awk -v n="${names[$i]}" -v r="$rps" -v c="$cpu" -v nr="$nrps" -v nc="$ncpu" \
        'BEGIN { printf "%-28s %9.0f req/s (x%.2f nginx)  %6.2f us cpu/req (x%.2f nginx)\n", n, r, r / nr, c, c / nc }'
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
