#!/usr/bin/env bash
# docker/lock-runtime.sh - writes docker/runtime.lock: the Debian packages
# of the image's runtime (libmicrohttpd12, libcjson1 and the closure of
# their dependencies), each with the version the archive has now, its .deb
# file name and SHA-256, as seen from inside the base image. The Dockerfile
# installs exactly these and fails when the archive no longer has them
# (Debian published an update) or the closure changed: then run this
# (`make image-lock`), read the diff (git diff docker/runtime.lock), rebuild
# and test (`make image-test`), commit. Needs the engine and the base image
# that `make image-test` sets up.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${BASE:-debian:bookworm-slim}
out=docker/runtime.lock
docker image inspect "$BASE" >/dev/null 2>&1 || { echo "lock-runtime: no $BASE image: run make image-test once" >&2; exit 1; }
{
    echo "# docker/runtime.lock - written by docker/lock-runtime.sh (make image-lock) from"
    echo "# $BASE $(docker image inspect -f '{{.Id}}' "$BASE") on $(date -u +%F)."
    echo "# package version file sha256; the Dockerfile installs exactly these."
    docker run --rm --network=host "$BASE" sh -c '
        set -e
        apt-get update -q >/dev/null
        for p in $(apt-cache depends --recurse --no-recommends --no-suggests \
                     --no-conflicts --no-breaks --no-replaces --no-enhances \
                     libmicrohttpd12 libcjson1 | grep "^[a-z0-9]" | sort -u); do
            v=$(apt-cache show --no-all-versions "$p" | awk "/^Version:/ { print \$2; exit }")
            apt-get download --print-uris "$p=$v" | awk -v p="$p" -v v="$v" "{ print p, v, \$2, \$4 }"
        done'
} >"$out.new"
mv "$out.new" "$out"
echo "lock-runtime: $(grep -vc '^#' "$out") packages in $out"
