#!/usr/bin/env bash
# tests/npm-ci.sh WHO SRC DEST - what a check written for node needs: node
# and npm (Debian's nodejs and npm, installed as root when either is
# missing), and the locked packages of SRC/package{,-lock}.json installed
# with `npm ci` in DEST, again whenever the lock changes, so node_modules
# stays out of the source tree. WHO names the caller in messages.
set -euo pipefail
who=$1 src=$2 dest=$3

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    [ "$(id -u)" = 0 ] || { echo "$who: needs node and npm; as root run: apt-get install -y --no-install-recommends nodejs npm" >&2; exit 1; }
    echo "installing: nodejs npm"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    apt-get install -y -q --no-install-recommends nodejs npm >/dev/null
fi
if [ ! -f "$dest/node_modules/.installed" ] || ! cmp -s "$src/package-lock.json" "$dest/package-lock.json"; then
    echo "npm ci in $dest"
    mkdir -p "$dest"
    cp "$src/package.json" "$src/package-lock.json" "$dest/"
    (cd "$dest" && npm ci --no-audit --no-fund --loglevel=error)
    touch "$dest/node_modules/.installed"
fi
