#!/usr/bin/env bash
# run.sh - `make bench`: tests/bench/run.sh BUILD_DIR DATA_DIR. Runs the
# single-thread benchmark (timings, verification of every set, textbook
# race, node budget), the generic engine's sets (bench_cover), then the
# command line and batches next to the solver and the thread scaling of
# `sudoku solve --threads` (tests/bench/cli.sh).
set -eu

build=${1:-build}
data=${2:-../shared/data}
cap=${TEXTBOOK_CAP:-3}

# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
bench_cpu

status=0
bench_out=$(mktemp)
trap 'rm -f "$bench_out"' EXIT
{ "$build/bench_sudoku" "$data" "$cap" || echo "$?" >"$bench_out.status"; } | tee "$bench_out"
[ -e "$bench_out.status" ] && status=$(cat "$bench_out.status") && rm -f "$bench_out.status"
echo; "$build/bench_cover" tests/data/cover || status=$?

# The command line and batches next to the solver (tests/bench/cli.sh).
tests/bench/cli.sh "$build" "$data" "$bench_out" || status=1
exit $status
