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

tests/npm-ci.sh check-k8s "$SRC" "$DEST"
NODE_PATH=$DEST/node_modules exec node "$SRC/check.cjs" --self-test
