#!/bin/sh
# make-man.sh - writes a man page from its template and the program's own
# --help, so that the options are listed once, in the code (the daemon's
# option table, src/service/config.c; the CLI's usage text, src/cli/cli.c),
# and a flag cannot be missing from the page. Then checks it: groff -ww
# must say nothing, and every option the help names must be in the page.
#
# Usage: make-man.sh daemon|cli TEMPLATE BINARY OUT
#   daemon  the lines "  --flag ARG   VARIABLE   help" of sudokud --help
#           become the OPTIONS list (with the variable of each);
#   cli     the blocks of sudoku --help: "options:" becomes OPTIONS,
#           "exit status:" EXIT STATUS, the rest DESCRIPTION.
# The template's lines @OPTIONS@, @DESCRIPTION@ and @EXIT@ are replaced;
# @VERSION@ and @DATE@ (SOURCE_DATE_EPOCH, else the last commit's date).
set -eu
kind=$1 template=$2 bin=$3 out=$4

version=$("$bin" --version | awk '{print $NF}')
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
    date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)
else
    date=$(git log -1 --format=%cs 2>/dev/null || date -u +%Y-%m-%d)
fi
help=$(mktemp) body=$(mktemp) rendered=$(mktemp)
trap 'rm -f "$help" "$body" "$rendered"' EXIT
"$bin" --help > "$help"

# roff-safe text: backslashes, then dashes (so that flags are not
# hyphenated or turned into Unicode hyphens), then a leading . or '.
esc='gsub(/\\/, "\\e"); gsub(/-/, "\\-"); if ($0 ~ /^[.\047]/) $0 = "\\&" $0'

if [ "$kind" = daemon ]; then
    awk '
    function roff(s) { gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s); return s }
    /^  --/ {
        left = substr($0, 3, 29); env = substr($0, 32, 17); text = substr($0, 49)
        sub(/ +$/, "", left); sub(/ +$/, "", env)
        n = split(left, w, " ")
        printf ".TP\n\\fB%s\\fR", roff(w[1])
        for (i = 2; i <= n; i++) printf " \\fI%s\\fR", roff(w[i])
        if (env != "") printf " (\\fB%s\\fR)", roff(env)
        printf "\n%s\n", roff(text)
    }' "$help" > "$body"
    awk -v body="$body" -v version="$version" -v date="$date" '
        /^@OPTIONS@$/ { while ((getline l < body) > 0) print l; next }
        { gsub(/@VERSION@/, version); gsub(/@DATE@/, date); print }' \
        "$template" > "$out"
else
    # Blocks are separated by empty lines. An option line starts with "-"
    # or "--" after its indent; a line indented deeper continues it.
    awk -v version="$version" -v date="$date" -v template="$template" '
    function roff(s) { gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s)
                       if (s ~ /^[.\047]/) s = "\\&" s; return s }
    function flush(   i, first, m, term, rest) {
        if (nb == 0) return
        first = blk[1]
        if (first ~ /^usage:/) { nb = 0; return }   # the template has SYNOPSIS
        if (first ~ /^options:/) {
            for (i = 2; i <= nb; i++) {
                if (blk[i] ~ /^  +-/) {
                    m = blk[i]; sub(/^ +/, "", m)
                    if (match(m, /  +/)) { term = substr(m, 1, RSTART - 1); rest = substr(m, RSTART + RLENGTH) }
                    else { term = m; rest = "" }
                    opts = opts ".TP\n\\fB" roff(term) "\\fR\n" roff(rest) "\n"
                } else { m = blk[i]; sub(/^ +/, "", m); opts = opts roff(m) "\n" }
            }
        } else if (first ~ /^exit status:/) {
            for (i = 1; i <= nb; i++) { m = blk[i]; if (i == 1) sub(/^exit status: */, "", m); ex = ex roff(m) "\n" }
        } else {
            indented = 0
            for (i = 1; i <= nb; i++) if (blk[i] ~ /^ /) indented = 1
            desc = desc ".PP\n" (indented ? ".nf\n" : "")
            for (i = 1; i <= nb; i++) desc = desc roff(blk[i]) "\n"
            desc = desc (indented ? ".fi\n" : "")
        }
        nb = 0
    }
    /^$/ { flush(); next }
    { blk[++nb] = $0 }
    END {
        flush()
        while ((getline l < template) > 0) {
            if (l == "@OPTIONS@") printf "%s", opts
            else if (l == "@DESCRIPTION@") printf "%s", desc
            else if (l == "@EXIT@") printf "%s", ex
            else { gsub(/@VERSION@/, version, l); gsub(/@DATE@/, date, l); print l }
        }
    }' "$help" > "$out"
fi

# The checks: no groff warning, and every option of --help in the page.
warnings=$(groff -ww -z -man "$out" 2>&1 || true)
if [ -n "$warnings" ]; then
    printf 'make-man.sh: %s: groff warns:\n%s\n' "$out" "$warnings" >&2
    rm -f "$out"; exit 1
fi
MANWIDTH=200 groff -man -Tascii -P-cbou "$out" 2>/dev/null > "$rendered"
missing=""
for flag in $(grep -oE '(^|[ ,[(])--?[a-zA-Z][a-zA-Z-]*' "$help" |
              sed 's/^[ ,[(]//' | sort -u); do
    grep -qF -- "$flag" "$rendered" || missing="$missing $flag"
done
if [ -n "$missing" ]; then
    echo "make-man.sh: $out lacks options of $bin --help:$missing" >&2
    rm -f "$out"; exit 1
fi
echo "make-man.sh: $out: $(grep -c '^\.TP' "$out") options, groff -ww clean"
