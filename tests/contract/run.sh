#!/usr/bin/env bash
# tests/contract/run.sh - openapi.yaml as a contract: redocly and spectral
# lint it with every warning a failure; openapi-typescript generates the
# client's types from it, tsc --strict compiles tests/contract/contract.ts
# against them with openapi-fetch, and the result calls every route of real
# daemons and validates every answer against the spec (see contract.ts).
# The locked npm packages are installed with `npm ci` in build/contract/
# (again when the lock changes); Debian's nodejs and npm are installed, as
# root, when node is missing. Ends with "contract: N passed, N failed".
#   tests/contract/run.sh BINARY
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=$(realpath "${1:-build/sudokud}")
SRC=tests/contract
DEST=build/contract

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    [ "$(id -u)" = 0 ] || { echo "contract: needs node and npm; as root run: apt-get install -y --no-install-recommends nodejs npm" >&2; exit 1; }
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
bin=$DEST/node_modules/.bin

echo "== lint (redocly, spectral; a warning fails)"
# Warnings fail: the recommended rules are raised to errors, and the report
# is printed whole when anything is found.
$bin/redocly lint openapi.yaml --config "$SRC/redocly.yaml" --format=stylish
$bin/spectral lint --ruleset "$SRC/spectral.yaml" --fail-severity=warn openapi.yaml

echo "== generate and compile (openapi-typescript, tsc --strict)"
$bin/openapi-typescript openapi.yaml -o "$DEST/api.d.ts" --silent
cp "$SRC/contract.ts" "$SRC/tsconfig.json" "$DEST/"
(cd "$DEST" && node_modules/.bin/tsc -p tsconfig.json)

echo "== run against the service"
node "$DEST/out/contract.js" "$BIN" openapi.yaml
