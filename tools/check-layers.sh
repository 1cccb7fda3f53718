#!/bin/sh
# check-layers.sh - refuses an #include that breaks the layer rule; the
# default make target runs it before it compiles anything.
# The rule (docs/design.md "Layers"), one folder of src/ and of include/ per
# layer, each using only the layers below it:
#
#   daemon  -> http, api, service, engine
#   http    -> api, service, engine; the only layer with <microhttpd.h>
#   api     -> codec, service, engine; never libmicrohttpd
#   codec   -> engine; the only layer that includes <cjson/cJSON.h>
#   service -> engine (settings, logs, metrics)
#   cli     -> engine
#   engine  -> nothing: the solvers and their primitives (grid, clock, rng)
#
# Besides these, include/version.h may be included anywhere.
#
# A private header ("x_internal.h" beside its .c files) belongs to the layer
# of its folder. Usage: check-layers.sh [ROOT]; prints every break, exits 1
# if there is one.
root=${1:-.}
cd "$root" || exit 2

# The layer a file of the tree belongs to: src/<layer>/... or include/<layer>/.
layer_of_path() {
    case $1 in
    src/* | include/*)
        rest=${1#*/}
        case $rest in
        */*) echo "${rest%%/*}" ;;
        *) echo top ;;
        esac
        ;;
    esac
}

# The layer a quoted header name resolves to from a file in folder $2:
# beside it first (the compiler's rule for "..."), then include/*/.
layer_of_header() {
    if [ -f "$2/$1" ]; then
        layer_of_path "$2/$1"
        return
    fi
    for h in include/*/"$1" include/"$1"; do
        [ -f "$h" ] && { layer_of_path "$h"; return; }
    done
    echo unknown
}

allowed() { # layer, header's layer, header name
    case $1:$2 in
    *:top) [ "$3" = version.h ] ;;
    codec:engine) true ;;
    api:engine | api:codec | api:service) true ;;
    http:api | http:service | http:engine | service:engine) true ;;
    daemon:http | daemon:api | daemon:service | daemon:engine) true ;;
    cli:engine) true ;;
    *) false ;;
    esac
}

status=0
refuse() {
    echo "$1: $2 (the layer rule: tools/check-layers.sh, docs/design.md \"Layers\")" >&2
    status=1
}

for f in $(find src include -name '*.[chS]' | sort); do
    layer=$(layer_of_path "$f")
    [ "$layer" = web ] && continue
    dir=$(dirname "$f")
    grep -n '^[[:space:]]*#[[:space:]]*include' "$f" | while IFS= read -r line; do
        n=${line%%:*}
        inc=$(printf '%s\n' "$line" | sed -n 's/^[^#]*#[[:space:]]*include[[:space:]]*\([<"][^>"]*[>"]\).*/\1/p')
        case $inc in
        "<microhttpd.h>")
            [ "$layer" = http ] || echo "$f:$n: $layer includes <microhttpd.h>: only src/http/ may"
            ;;
        "<cjson/"* | "<cJSON.h>")
            [ "$layer" = codec ] || echo "$f:$n: $layer includes $inc: only src/codec/ may"
            ;;
        \"*\")
            name=${inc#\"}
            name=${name%\"}
            base=${name##*/}
            case $name in
            */*) hl=$(layer_of_path "$(cd "$dir" && realpath --relative-to="$OLDPWD" "$name" 2>/dev/null)") ;;
            *) hl=$(layer_of_header "$name" "$dir") ;;
            esac
            [ -n "$hl" ] || hl=unknown
            [ "$hl" = "$layer" ] && continue
            allowed "$layer" "$hl" "$base" ||
                echo "$f:$n: $layer includes \"$name\" of layer $hl"
            ;;
        esac
    done
done >"${TMPDIR:-/tmp}/check-layers.$$"
if [ -s "${TMPDIR:-/tmp}/check-layers.$$" ]; then
    while IFS= read -r l; do refuse "${l%%: *}" "${l#*: }"; done <"${TMPDIR:-/tmp}/check-layers.$$"
fi
rm -f "${TMPDIR:-/tmp}/check-layers.$$"
exit $status
