# docker/test-lib.sh - what the docker/test-*.sh scripts share: counting and
# printing checks, and stopping a process tree. Sourced, not run; set
# TEST_NAME (the prefix of `die` messages) first.

passed=0
failed=0

say()   { printf '%s\n' "$*"; }
ok()    { passed=$((passed + 1)); say "ok   - $*"; }
bad()   { failed=$((failed + 1)); say "FAIL - $*"; }
# check DESCRIPTION COMMAND...: runs COMMAND, counts and prints the result.
check() { local d=$1; shift; if "$@"; then ok "$d"; else bad "$d"; fi; }
die()   { say "$TEST_NAME: $*" >&2; exit 1; }

# kill_tree PID: TERM to PID and all its descendants, by id.
kill_tree() {
    local c
    for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do kill_tree "$c"; done
    kill "$1" 2>/dev/null || true
}
