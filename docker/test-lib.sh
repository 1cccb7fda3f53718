# docker/test-lib.sh - what the docker/test-*.sh scripts share: counting and
# printing checks, waiting on state with a deadline, stopping a process
# tree, and finding a free port. Sourced, not run; set
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

# wait_for DEADLINE_S COMMAND...: runs COMMAND every 50 ms until it succeeds
# (true) or DEADLINE_S seconds have passed (false).
wait_for() {
    local end=$(( $(date +%s%N) + $1 * 1000000000 ))
    shift
    until "$@"; do
        [ "$(date +%s%N)" -lt "$end" ] || return 1
        sleep 0.05
    done
}

# matches GREP_ARGS...: grep -q for the end of a pipeline. grep -q stops
# reading at the first match, and a writer with more to write then dies of
# SIGPIPE, which pipefail turns into a failed pipeline: this reads it all.
matches() { grep "$@" >/dev/null; }

# free_port: prints a port of 127.0.0.1 that nothing listens on.
free_port() {
    local p
    for _ in $(seq 1 50); do
        # Below the kernel's ephemeral range (32768 and up here), where a
        # client's own connection could hold the port and fail a bind.
        p=$(( 20000 + RANDOM % 12000 ))
        (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
    done
    die "no free port found"
}
