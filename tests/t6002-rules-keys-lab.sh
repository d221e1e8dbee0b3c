#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# rules/unit-keys.xml knows every key that the lab trees' real unit files use, at that tree's systemd version.
# A key the rules reject passes only if the tree's own systemd does not know it either (then systemd warns too).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/oracle-lib.sh"
# shellcheck disable=SC2086
lab_require $LAB_SUITES
SRV=${LAB_SRV:-/srv/lab}
# shellcheck disable=SC2086
LAB_SRV=$SRV lab_judged $LAB_SUITES
QUERY=$(wrap_program "$top_builddir/tests/unit/rules-query")

# unit_keys TREE: "TYPE SECTION KEY FILE:LINE" for every assignment in the tree's unit files and drop-ins, in
# sections valid for the unit type (others only give "unknown section" warnings).
unit_keys() {
        local tree=$1 dirs=("$1/usr/lib/systemd/system" "$1/etc/systemd/system")
        [ "$(readlink -f "$tree/lib")" = "$(readlink -f "$tree/usr/lib")" ] || dirs+=("$tree/lib/systemd/system")
        find "${dirs[@]}" -type f \( -name '*.service' -o -name '*.socket' -o -name '*.target' -o -name '*.mount' \
                -o -name '*.automount' -o -name '*.swap' -o -name '*.timer' -o -name '*.path' -o -name '*.slice' \
                -o -name '*.scope' -o -path '*.d/*.conf' \) 2> /dev/null | sort |
        while read -r f; do
                case $f in */*.d/*.conf) u=$(basename "$(dirname "$f")" .d) ;; *) u=$(basename "$f") ;; esac
                t=${u##*.}
                awk -v type="$t" -v file="${f#"$tree"}" '
                        BEGIN { own = toupper(substr(type, 1, 1)) substr(type, 2) }
                        cont { cont = /\\$/; next }
                        /^[ \t]*([#;]|$)/ { next }
                        /^[ \t]*\[/ { s = $0; sub(/^[ \t]*\[/, "", s); sub(/\].*$/, "", s); next }
                        /=/ {
                                cont = /\\$/
                                k = $0; sub(/=.*/, "", k); gsub(/^[ \t]+|[ \t]+$/, "", k)
                                if (k ~ /^X-/ || s ~ /^X-/ || !(s == "Unit" || s == "Install" || s == own)) next
                                print type, s, k, file ":" NR
                        }' "$f"
        done
}

for suite in $LAB_JUDGED; do
        tree=$SRV/$suite
        v=$(oracle_version "$suite")
        unit_keys "$tree" > "$TMP/$suite.keys"
        n=$(wc -l < "$TMP/$suite.keys")
        echo "# $suite: systemd $v, $n assignments, $(awk '{print $2 "." $3}' "$TMP/$suite.keys" | sort -u | wc -l) distinct keys"
        test_expect "$suite: found the unit files' keys (systemd ${v:-?})" sh -c "[ '$n' -gt 200 ] && [ -n '$v' ]"
        test_expect "$suite: every key used is known to the rules for systemd $v" sh -c '
                suite=$1 v=$2 tree=$3 query=$4 tmp=$5
                "$query" known "$v" < "$tmp/$suite.keys" > "$tmp/$suite.unknown"; rc=$?
                [ $rc -le 1 ] || exit 1
                [ -s "$tmp/$suite.unknown" ] || exit 0
                # the rules reject some keys: fine only where the real systemd does not know them either
                chroot "$tree" /lib/systemd/systemd --dump-configuration-items 2> /dev/null |
                        awk "/^\\[/ { s = substr(\$0, 2, length(\$0) - 2); next } /=/ { split(\$0, a, \"=\"); print s \".\" a[1] }" \
                        > "$tmp/$suite.dump"
                [ -s "$tmp/$suite.dump" ] || { echo "no dump from $tree"; exit 1; }
                bad=0
                while read -r _ type section key where; do
                        key=${key%=}; section=${section#[}; section=${section%]}
                        if grep -qx "$section.$key" "$tmp/$suite.dump"; then
                                echo "rules do not know $section.$key ($type, $where) but systemd $v does"; bad=1
                        else
                                echo "# $where: $key= is unknown to systemd $v too"
                        fi
                done < "$tmp/$suite.unknown"
                exit $bad' _ "$suite" "$v" "$tree" "$QUERY" "$TMP"
        sed -n 's/^/# /p' "$TMP/$suite.unknown" 2> /dev/null | head -5
done
