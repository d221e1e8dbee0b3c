#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# check-layers.sh README SRCDIR: checks the #include lines of SRCDIR (analyzer/) against the layer table in the
# README's "Architecture" section (rows "| `name` | `analyzer/DIR/` | … | may include |"). Every source file must
# live in a layer's directory or at the top; every project include must name its layer ("load/loader.h"), a header
# that exists, and a layer the including file's layer may include (its own, or one in its row). A header named
# *-internal.h belongs to its directory: only files there may include it. Prints one line per violation,
# "FILE:LINE: …", and exits 1 when there is any; 2 when the table cannot be read.
set -euo pipefail
readme=$1 src=$2

table=$(awk '/^## Architecture/{a=1; next} a && /^## /{exit} a && /^\| `/' "$readme")
[ "$(printf '%s\n' "$table" | grep -c .)" -ge 2 ] || { echo "$readme: no layer table in its Architecture section" >&2; exit 2; }

cd "$src"
{
        printf '%s\n' "$table" | sed 's/^/T\t/'
        find . -name '*.[ch]' | sed 's|^\./||' | sort | sed 's/^/F\t/'
        find . -name '*.[ch]' | sed 's|^\./||' | sort |
                xargs grep -Hn '^#[[:space:]]*include[[:space:]]*"' /dev/null | sed 's/^/I\t/'
} | awk -F'\t' '
function dir_of(path,   d) { d = path; if (!sub(/\/[^\/]*$/, "", d)) d = ""; return d }
function strip(s) { gsub(/[` ]/, "", s); return s }
$1 == "T" {
        split($2, c, "|")
        name = strip(c[2]); d = strip(c[3]); sub(/^analyzer\/?/, "", d); sub(/\/$/, "", d)
        layer[d] = name
        may = c[5]; gsub(/[`,]/, " ", may); gsub(/—/, "", may)
        allowed[name] = " " may " "
        next
}
$1 == "F" { files[$2] = 1; if (!(dir_of($2) in layer)) { print $2 ": not in a layer directory of the README'"'"'s table"; bad = 1 }; next }
$1 == "I" {
        rest = $2
        f = rest; sub(/:.*/, "", f); rest = substr(rest, length(f) + 2)
        n = rest; sub(/:.*/, "", n); text = substr(rest, length(n) + 2)
        d = dir_of(f)
        if (!(d in layer)) next
        from = layer[d]
        if (!match(text, /"[^"]+"/)) next
        inc = substr(text, RSTART + 1, RLENGTH - 2)
        if (inc == "config.h") next
        idir = dir_of(inc)
        if (!(idir in layer) || !(inc in files)) {
                print f ":" n ": #include \"" inc "\" names no header of a layer (write \"LAYER/NAME.h\")"; bad = 1
        } else if (inc ~ /-internal\.h$/ && idir != d) {
                print f ":" n ": #include \"" inc "\": a layer'"'"'s internal header is for its own files only"; bad = 1
        } else {
                to = layer[idir]
                if (to != from && index(allowed[from], " every layer ") == 0 && index(allowed[from], " " to " ") == 0) {
                        print f ":" n ": " from " includes " to " (\"" inc "\"), which the layer table does not allow"; bad = 1
                }
        }
}
END { exit bad }'
