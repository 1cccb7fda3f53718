#!/usr/bin/env bash
# docker/test-image.sh - builds the sudokud image with Debian's docker engine
# and checks it for real: size, config, /livez, a real POST /solve, health
# turning healthy, non-root, read-only root filesystem, environment honoured,
# and a clean exit on `docker stop` within two seconds. Then docker/compose.yaml
# (the gateway and three replicas, Debian's docker-compose v1): all healthy,
# requests spread over the replicas, and a restart of each replica in turn
# under steady load with zero failed requests (COMPOSE=0 skips this part).
#
# Our machines reach Debian's archive but no container registry, so the
# debian:bookworm-slim base is made locally with debootstrap when it is
# missing (about a minute, once). The engine is started by hand when it is not
# running (and stopped at the end only then): plainly, as compose needs its
# bridge, or without bridge and iptables where that fails (compose is then
# skipped). Builds and the image checks use the host network either way.
# Everything this script starts is removed on exit, even when interrupted.
# Prints "ok"/"FAIL" per check and ends with "image: N passed, N failed";
# exits non-zero on any failed check.
#
#   docker/test-image.sh            (as root; installs docker.io, debootstrap,
#                                    docker-compose and curl when missing)
#   IMAGE=sudokud:dev docker/test-image.sh   (default tag: sudokud:latest, kept
#                                              for docker run and compose; the image
#                                              it replaces is removed)
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE=${IMAGE:-sudokud:latest}
BASE=debian:bookworm-slim
SIZE_LIMIT_MB=${SIZE_LIMIT_MB:-90}
WORK=$(mktemp -d /tmp/sudokud-image-test.XXXXXX)
CONTAINERS=()
PROJECT=
LOAD_PID=
DOCKERD_PID=
t0=$(date +%s)
TEST_NAME=image-test
# shellcheck source=docker/test-lib.sh
. docker/test-lib.sh # (the working directory is the repository now)

cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    for c in "${CONTAINERS[@]}"; do docker rm -f "$c" >/dev/null 2>&1 || true; done
    if [ -n "$LOAD_PID" ]; then
        rm -f "$WORK/load.run"
        kill_tree "$LOAD_PID"
    fi
    if [ -n "$PROJECT" ]; then
        docker-compose -f docker/compose.yaml -p "$PROJECT" down -v -t 5 >/dev/null 2>&1 || true
    fi
    if [ -n "$DOCKERD_PID" ]; then
        say "stopping the docker engine this script started (pid $DOCKERD_PID)"
        kill "$DOCKERD_PID" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 0.1; done
    fi
    if [ -d "$WORK/rootfs" ]; then
        # debootstrap may leave /proc mounted in the rootfs when interrupted.
        umount -l "$WORK/rootfs/proc" 2>/dev/null || true
        umount -l "$WORK/rootfs/sys" 2>/dev/null || true
    fi
    if grep -q " $WORK/" /proc/mounts; then
        say "left $WORK: something is still mounted under it"
    else
        rm -rf "$WORK"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'say "image-test: command failed at line $LINENO: $BASH_COMMAND" >&2' ERR
trap 'say "interrupted"; exit 130' INT TERM

# ---- tools -------------------------------------------------------------
need=""
# The engine is what the checks need: some machines ship a docker CLI alone
# (no dockerd), so look for the daemon and the client each.
{ command -v dockerd && command -v docker; } >/dev/null || need="$need docker.io"
command -v debootstrap >/dev/null || need="$need debootstrap"
command -v curl >/dev/null || need="$need curl"
if [ "${COMPOSE:-1}" = 1 ]; then command -v docker-compose >/dev/null || need="$need docker-compose"; fi
if [ -n "$need" ]; then
    [ "$(id -u)" = 0 ] || die "missing:$need; as root run: apt-get install -y --no-install-recommends$need"
    say "installing:$need"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    apt-get install -y -q --no-install-recommends $need >/dev/null
fi

# ---- engine ------------------------------------------------------------
# start_dockerd FLAGS...: starts the engine in the background and waits for
# it (30 s at most); false if it exits or does not answer.
start_dockerd() {
    say "starting dockerd${*:+ $*} (log: $WORK/dockerd.log)"
    dockerd "$@" >>"$WORK/dockerd.log" 2>&1 &
    DOCKERD_PID=$!
    for _ in $(seq 1 150); do
        docker info >/dev/null 2>&1 && return 0
        kill -0 "$DOCKERD_PID" 2>/dev/null || { wait "$DOCKERD_PID" 2>/dev/null || true; DOCKERD_PID=; return 1; }
        sleep 0.2
    done
    kill "$DOCKERD_PID" 2>/dev/null || true
    wait "$DOCKERD_PID" 2>/dev/null || true
    DOCKERD_PID=
    return 1
}
if ! docker info >/dev/null 2>&1; then
    # Plainly first: compose needs the bridge and its iptables rules for the
    # gateway to reach the replicas. Where the sandbox forbids them, without
    # bridge and iptables: the image checks use the host network anyway.
    if ! start_dockerd; then
        start_dockerd --iptables=false --bridge=none --ip-forward=false ||
            { tail -20 "$WORK/dockerd.log"; die "dockerd did not come up"; }
        if [ "${COMPOSE:-1}" = 1 ]; then
            say "skip - compose: the engine runs without a bridge here"
            COMPOSE=0
        fi
    fi
fi

# ---- base image --------------------------------------------------------
# The first "deb" source for the suite bookworm itself (not -updates or
# -security), in deb822 (.sources) or one-line (.list) form.
debian_mirror() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk 'BEGIN { RS = ""; FS = "\n" }
             {
               types = ""; uris = ""; suites = ""
               for (i = 1; i <= NF; i++) {
                 if ($i ~ /^Types:/)  types = $i
                 if ($i ~ /^URIs:/)   { uris = $i; sub(/^URIs:[ \t]*/, "", uris) }
                 if ($i ~ /^Suites:/) suites = " " $i " "
               }
               if (types ~ /[ \t]deb([ \t]|$)/ && suites ~ /[ \t]bookworm[ \t]/ && uris != "") {
                 split(uris, u, /[ \t]+/); print u[1]; exit
               }
             }' "$f"
    done
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        awk '$1 == "deb" { i = 2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
                           if ($(i + 1) == "bookworm") print $i }'
}

make_base() {
    local mirror rootfs=$WORK/rootfs f
    mirror=$(debian_mirror 2>/dev/null | head -1 || true)
    mirror=${mirror:-http://deb.debian.org/debian}
    say "making $BASE with debootstrap from $mirror (about a minute)"
    debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$WORK/debootstrap.log" 2>&1 ||
        { tail -20 "$WORK/debootstrap.log"; die "debootstrap failed"; }
    # The host's Debian sources and apt settings (this archive needs
    # Acquire::Check-Valid-Until "false"); files with hooks that run host
    # programs are left out.
    rm -f "$rootfs/etc/apt/sources.list"
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] && grep -qi 'debian' "$f" && ! grep -qiE 'nodesource|google|docker\.com' "$f" &&
            cp "$f" "$rootfs${f}"
    done
    for f in /etc/apt/apt.conf.d/*; do
        [ -f "$f" ] && ! grep -q 'Invoke' "$f" && cp "$f" "$rootfs/etc/apt/apt.conf.d/"
    done
    # As Debian's official slim images do: later installs skip docs and man pages.
    cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker-slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
EOF
    chroot "$rootfs" sh -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get -y -q upgrade && apt-get clean' \
        >>"$WORK/debootstrap.log" 2>&1 || { tail -20 "$WORK/debootstrap.log"; die "apt in the rootfs failed"; }
    umount -l "$rootfs/proc" 2>/dev/null || true
    find "$rootfs/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
    find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
    rm -rf "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/* \
           "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* "$rootfs"/var/cache/debconf/*-old \
           "$rootfs"/var/log/* "$rootfs"/tmp/* "$rootfs"/root/.[!.]* "$rootfs/etc/resolv.conf" \
           "$rootfs/etc/hostname"
    tar -C "$rootfs" --numeric-owner -c . |
        docker import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
                      --change 'CMD ["bash"]' - "$BASE" >/dev/null
    rm -rf "$rootfs"
}

if docker image inspect "$BASE" >/dev/null 2>&1; then
    say "base image $BASE present"
else
    make_base
fi

# ---- build -------------------------------------------------------------
say "building $IMAGE (log: $WORK/build.log)"
tb=$(date +%s)
old_id=$(docker image inspect -f '{{.Id}}' "$IMAGE" 2>/dev/null || true)
docker build --force-rm --network=host -t "$IMAGE" . >"$WORK/build.log" 2>&1 ||
    { tail -30 "$WORK/build.log"; die "docker build failed"; }
say "built in $(( $(date +%s) - tb )) s"
new_id=$(docker image inspect -f '{{.Id}}' "$IMAGE")
# Idempotent: the previous build of this tag would be left dangling, and so
# would each builder stage (over 300 MB) but the newest, kept as the cache.
if [ -n "$old_id" ] && [ "$old_id" != "$new_id" ]; then
    docker rmi "$old_id" >/dev/null 2>&1 || true
fi
docker image ls -q --filter dangling=true --filter label=org.sudokud.stage=build |
    tail -n +2 | xargs -r docker rmi >/dev/null 2>&1 || true

# ---- image checks ------------------------------------------------------
size=$(docker image inspect -f '{{.Size}}' "$IMAGE")
size_mb=$(( (size + 500000) / 1000000 ))
check "image size ${size_mb} MB (${size} bytes) is under ${SIZE_LIMIT_MB} MB" \
    test "$size" -lt $((SIZE_LIMIT_MB * 1000000))
check "image user is 10001:10001" \
    test "$(docker image inspect -f '{{.Config.User}}' "$IMAGE")" = "10001:10001"
ports=$(docker image inspect -f '{{json .Config.ExposedPorts}}' "$IMAGE")
check "image exposes 8080/tcp ($ports)" grep -q '"8080/tcp"' <<<"$ports"
check "image stop signal is SIGTERM" \
    test "$(docker image inspect -f '{{.Config.StopSignal}}' "$IMAGE")" = "SIGTERM"
hc=$(docker image inspect -f '{{json .Config.Healthcheck.Test}}' "$IMAGE")
probe_not_curl() { grep -q -- '--probe' <<<"$hc" && ! grep -q curl <<<"$hc"; }
check "image health check uses sudokud --probe, not curl ($hc)" probe_not_curl
no_tools() {
    ! docker run --rm --network=host --entrypoint sh "$IMAGE" -c \
        'command -v gcc || command -v cc || command -v make || command -v curl || command -v wget'
}
check "runtime stage has no compiler, make, curl or wget" no_tools
has_libs() {
    docker run --rm --network=host --entrypoint dpkg-query "$IMAGE" -W libmicrohttpd12 libcjson1 >/dev/null
}
check "runtime libraries are Debian's libmicrohttpd12 and libcjson1" has_libs
check "the image has sleep, for the Kubernetes preStop pause" \
    docker run --rm --network=host --entrypoint sleep "$IMAGE" 0

# ---- run ---------------------------------------------------------------
PORT=$(free_port)
NAME=sudokud-image-test-$$
CONTAINERS+=("$NAME")
# The restricted settings a cluster would use: read-only root filesystem, no
# capabilities, no privilege escalation. Health every second to keep the test short.
docker run -d --name "$NAME" --network=host --read-only --cap-drop ALL \
    --security-opt no-new-privileges --health-interval=1s --health-start-period=5s \
    -e PORT="$PORT" -e MAX_BODY=2K -e THREADS=2 "$IMAGE" >/dev/null
BASEURL=http://127.0.0.1:$PORT

up=0
for _ in $(seq 1 50); do
    if curl -fsS -o /dev/null "$BASEURL/livez" 2>/dev/null; then up=1; break; fi
    sleep 0.1
done
if [ "$up" = 1 ]; then ok "GET /livez answers 200 on 127.0.0.1:$PORT"
else bad "GET /livez answers 200 on 127.0.0.1:$PORT"; docker logs "$NAME" 2>&1 | tail -20; fi

board='{"board":"9.7.....6824.3......1..9..2.9...2.18...4....51325.8......687.........8.9.4.9...5."}'
want='"solution":"957214386824736591361859742495372618786491235132568974519687423273145869648923157"'
ans=$(curl -sS -H 'Content-Type: application/json' -H 'X-Request-Id: image-test-1' \
           -d "$board" -w ' %{http_code}' "$BASEURL/solve" 2>&1 || true)
solved() { case $ans in *"$want"*" 200") return 0;; *) return 1;; esac; }
check "POST /solve answers 200 with the solution" solved
check "GET /readyz answers 200" curl -fsS -o /dev/null "$BASEURL/readyz"

logs=$(docker logs "$NAME" 2>&1)
env_honoured() {
    grep '"msg":"listening"' <<<"$logs" | grep "\"port\":$PORT[,}]" |
        grep '"max_body":2048' | grep -q '"threads":2'
}
check "PORT, MAX_BODY and THREADS from the environment are honoured (listening line)" env_honoured
# The access log is buffered (written at least every 200 ms): wait for it.
id_logged() {
    for _ in $(seq 20); do
        docker logs "$NAME" 2>&1 | grep -q '"request_id":"image-test-1"' && return 0
        sleep 0.1
    done
    return 1
}
check "the request id reaches the JSON log" id_logged
big=$(head -c 3000 /dev/zero | tr '\0' ' ')
code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -d "{$big}" "$BASEURL/solve" || true)
check "a body over MAX_BODY=2K answers 413 (got $code)" test "$code" = 413

health=""
for _ in $(seq 1 100); do
    health=$(docker inspect -f '{{.State.Health.Status}}' "$NAME")
    [ "$health" = healthy ] && break
    sleep 0.2
done
check "health status turns healthy (got $health)" test "$health" = healthy

pid=$(docker inspect -f '{{.State.Pid}}' "$NAME")
uid=$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo "?")
check "the server process runs as uid 10001, not root (uid $uid)" test "$uid" = 10001
read_only() { ! docker exec "$NAME" sh -c 'touch /x' 2>/dev/null; }
check "the root filesystem is read-only (touch /x fails)" read_only

ts=$(date +%s%N)
docker stop -t 10 "$NAME" >/dev/null
te=$(date +%s%N)
ms=$(( (te - ts) / 1000000 ))
ec=$(docker inspect -f '{{.State.ExitCode}}' "$NAME")
clean_stop() { [ "$ec" = 0 ] && [ "$ms" -lt 2000 ]; }
check "docker stop exits cleanly in ${ms} ms (exit code $ec, under 2000 ms)" clean_stop
logs=$(docker logs "$NAME" 2>&1)
drained() { grep -q '"msg":"draining"' <<<"$logs" && grep -q '"msg":"stopped"' <<<"$logs"; }
check "the log shows draining and stopped" drained

# ---- compose -------------------------------------------------------------
if [ "${COMPOSE:-1}" = 1 ]; then
    GATEWAY_PORT=$(free_port)
    export GATEWAY_PORT
    PROJECT=sudokudtest$$
    dc() { docker-compose -f docker/compose.yaml -p "$PROJECT" "$@"; }
    say "compose: up (project $PROJECT, gateway on 127.0.0.1:$GATEWAY_PORT; log: $WORK/compose.log)"
    # The replicas run the image built and checked above; the gateway is rebuilt.
    dc build --force-rm gateway >"$WORK/compose.log" 2>&1 || { tail -20 "$WORK/compose.log"; die "docker-compose build gateway failed"; }
    dc up -d >>"$WORK/compose.log" 2>&1 || { tail -20 "$WORK/compose.log"; die "docker-compose up failed"; }
    # all_healthy: every container of the project reports healthy (30 s at most).
    all_healthy() {
        local ids st
        for _ in $(seq 1 150); do
            ids=$(dc ps -q)
            st=$(docker inspect -f '{{.State.Health.Status}}' $ids | sort -u)
            [ "$(wc -w <<<"$ids")" = 4 ] && [ "$st" = healthy ] && return 0
            sleep 0.2
        done
        return 1
    }
    check "compose: the gateway and three replicas are healthy" all_healthy
    GWURL=http://127.0.0.1:$GATEWAY_PORT
    printf '%s' "$board" >"$WORK/board.json"
    # cload NAME N: N POST /solve through the gateway at 40 a second; one
    # status code per line in $WORK/NAME.codes.
    cload() {
        curl -s --rate 40/s -o /dev/null -w '%{http_code}\n' -H 'Content-Type: application/json' \
             -H "X-Request-Id: compose-$1" --data-binary @"$WORK/board.json" \
             "$GWURL/solve?n=[1-$2]" >>"$WORK/$1.codes" || true
    }
    cload spread 60
    per=()
    for s in 1 2 3; do per+=("$(dc logs --no-color "sudokud-$s" 2>&1 | grep -c '"request_id":"compose-spread"' || true)"); done
    spread_ok() {
        [ "$(grep -c '^200$' "$WORK/spread.codes")" = 60 ] && [ "${per[0]}" -gt 0 ] &&
            [ "${per[1]}" -gt 0 ] && [ "${per[2]}" -gt 0 ]
    }
    check "compose: 60 requests through the gateway all 200, spread ${per[*]}, request ids in the replica logs" spread_ok
    touch "$WORK/load.run"
    ( while [ -e "$WORK/load.run" ]; do cload roll 40; done ) &
    LOAD_PID=$!
    sleep 1
    for s in 1 2 3; do
        dc restart -t 30 "sudokud-$s" >>"$WORK/compose.log" 2>&1
        all_healthy || true
    done
    rm -f "$WORK/load.run"
    wait "$LOAD_PID" || true
    LOAD_PID=
    nroll=$(wc -l <"$WORK/roll.codes")
    froll=$(grep -vc '^200$' "$WORK/roll.codes" || true)
    check "compose: restarting each replica in turn under steady load: $nroll requests, $froll failed" \
        test "$froll" = 0 -a "$nroll" -gt 0
    gsize=$(docker image inspect -f '{{.Size}}' sudokud-gateway:latest)
    say "compose: gateway image $(( (gsize + 500000) / 1000000 )) MB"
    dc down -v -t 5 >>"$WORK/compose.log" 2>&1 || true
    PROJECT=
fi

say "image: $IMAGE, ${size_mb} MB; took $(( $(date +%s) - t0 )) s"
say "image: $passed passed, $failed failed"
[ "$failed" = 0 ]
