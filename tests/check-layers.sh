#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# check-layers.sh README SRCDIR: checks the #include lines of SRCDIR (analyzer/) against the layer table in the
# README's "Architecture" section (rows "| `name` | `analyzer/DIR/` | … | may include |"). Every source file must
# live in a layer's directory or at the top; every project include must name its layer ("load/loader.h"), a header
# that exists, and a layer the including file's layer may include (its own, or one in its row). Prints one line per
# violation, "FILE:LINE: …", and exits 1 when there is any; 2 when the table cannot be read. A header named
# *-internal.h belongs to its directory: only files there may include it.
set -euo pipefail
readme=$1 src=$2

# the table: layer name, directory, allowed layers ("—" none, "every layer" all)
declare -A dir_of allowed
order=()
while IFS='|' read -r _ name dir _ may _; do
        name=$(sed 's/[` ]//g' <<< "$name")
        dir=$(sed 's/[` ]//g; s|^analyzer/||; s|/$||' <<< "$dir")
        may=$(sed 's/[`,]/ /g; s/—//g' <<< "$may")
        [ -n "$name" ] || continue
        order+=("$name")
        dir_of[$name]=$dir
        allowed[$name]=$may
done < <(awk '/^## Architecture/{a=1; next} a && /^## /{exit} a && /^\| `/' "$readme")
[ ${#order[@]} -ge 2 ] || { echo "$readme: no layer table in its Architecture section" >&2; exit 2; }

layer_of_dir() { # directory (relative to src, "" = top) -> layer name, or nothing
        local l
        for l in "${order[@]}"; do
                if [ "${dir_of[$l]}" = "$1" ]; then echo "$l"; return 0; fi
        done
        return 0
}
may_include() { # from to
        local a
        [ "$1" = "$2" ] && return 0
        [[ " ${allowed[$1]} " == *" every layer "* ]] && return 0
        for a in ${allowed[$1]}; do [ "$a" = "$2" ] && return 0; done
        return 1
}

bad=0
while IFS= read -r -d '' f; do
        rel=${f#"$src"/}
        d=$(dirname "$rel"); [ "$d" = . ] && d=
        from=$(layer_of_dir "$d")
        if [ -z "$from" ]; then
                echo "$rel: not in a layer directory of the README's table"; bad=1; continue
        fi
        n=0
        while IFS= read -r line; do
                n=$((n + 1))
                [[ $line =~ ^#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] || continue
                inc=${BASH_REMATCH[1]}
                [ "$inc" = config.h ] && continue
                idir=$(dirname "$inc"); [ "$idir" = . ] && idir=
                to=$(layer_of_dir "$idir")
                if [ -z "$to" ] || [ ! -e "$src/$inc" ]; then
                        echo "$rel:$n: #include \"$inc\" names no header of a layer (write \"LAYER/NAME.h\")"; bad=1
                elif [[ $inc == *-internal.h && $idir != "$d" ]]; then
                        echo "$rel:$n: #include \"$inc\": a layer's internal header is for its own files only"; bad=1
                elif ! may_include "$from" "$to"; then
                        echo "$rel:$n: $from includes $to (\"$inc\"), which the layer table does not allow"; bad=1
                fi
        done < "$f"
done < <(find "$src" -name '*.[ch]' -print0 | sort -z)
exit $bad
