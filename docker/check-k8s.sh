#!/usr/bin/env bash
# docker/check-k8s.sh - checks docker/k8s/ offline and strictly: every field
# of every object against the Kubernetes 1.30 API types of the npm package
# kubernetes-types (unknown fields are errors), formats against the 1.27
# schemas of kubernetes-models, the fields and timing the deployment must
# have, and a self-test that breaks the manifests in each known way, typos
# included (docker/k8s-check/check.cjs; it lives outside docker/k8s/ so that
# `kubectl apply -R -f docker/k8s/` sees manifests only). The locked npm
# packages are installed with `npm ci` on a copy of
# docker/k8s-check/package{,-lock}.json in
# build/k8s-check/, so node_modules stays out of the source tree; again when
# the lock changes. Debian's nodejs and npm are installed, as root, when node
# is missing. Ends with "k8s: N passed, N failed"; non-zero on a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=docker/k8s-check
DEST=build/k8s-check

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    [ "$(id -u)" = 0 ] || { echo "check-k8s: needs node and npm; as root run: apt-get install -y --no-install-recommends nodejs npm" >&2; exit 1; }
    echo "installing: nodejs npm"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    apt-get install -y -q --no-install-recommends nodejs npm >/dev/null
fi
if [ ! -f "$DEST/node_modules/.installed" ] || ! cmp -s "$SRC/package-lock.json" "$DEST/package-lock.json"; then
    echo "npm ci in $DEST"
    mkdir -p "$DEST"
    cp "$SRC/package.json" "$SRC/package-lock.json" "$DEST/"
    (cd "$DEST" && npm ci --no-audit --no-fund --loglevel=error)
    touch "$DEST/node_modules/.installed"
fi
NODE_PATH=$DEST/node_modules exec node "$SRC/check.cjs" --self-test
