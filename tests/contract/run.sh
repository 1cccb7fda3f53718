#!/usr/bin/env bash
# tests/contract/run.sh - openapi.yaml as a contract: redocly and spectral
# lint it with every warning a failure; openapi-typescript generates the
# client's types from it, tsc --strict compiles tests/contract/contract.ts
# against them with openapi-fetch, and the result calls every route of real
# daemons and validates every answer against the spec (see contract.ts).
# The locked npm packages go to build/contract/ (tests/npm-ci.sh). Ends
# with "contract: N passed, N failed".
#   tests/contract/run.sh BINARY
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=$(realpath "${1:-build/sudokud}")
SRC=tests/contract
DEST=build/contract

tests/npm-ci.sh contract "$SRC" "$DEST"
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
