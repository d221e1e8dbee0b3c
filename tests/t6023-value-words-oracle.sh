#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# rules/value-words.xml against real systemd 247, 252, 257 and 262 (the lab trees): the exit status names the rules
# accept at the tree's version are exactly those `systemd-analyze exit-status` of that tree lists, no more, no fewer.
# (The signal names and every way of writing a signal or an exit status are checked with the real verify by t6022,
# fixtures/show/exit-status-signals.)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/oracle-lib.sh"
# shellcheck disable=SC2086
lab_require $LAB_SUITES
SRV=${LAB_SRV:-/srv/lab}
# shellcheck disable=SC2086
lab_judged $LAB_SUITES
QUERY=$(wrap_program "$top_builddir/tests/unit/rules-query")

names_case() {
        local tree=$SRV/$1 v w=$TMP/$1
        v=$(oracle_version "$1")
        mkdir -p "$w"
        chroot "$tree" systemd-analyze exit-status > "$w/table" || { echo "systemd-analyze exit-status failed"; return 1; }
        awk 'NR > 1 && $1 != "" { print $1 }' "$w/table" | sort -u > "$w/sd"
        [ "$(wc -l < "$w/sd")" -gt 50 ] || { echo "only $(wc -l < "$w/sd") names from the tree: not its table?"; return 1; }
        # every name either side knows, asked of the rules at v
        { cat "$w/sd"; sed -n 's/.*<word name="\([^"]*\)".*/\1/p' "$top_srcdir/rules/value-words.xml"; } | sort -u > "$w/all"
        "$QUERY" words "$v" exit-status < "$w/all" | sort -u > "$w/br" || return 1
        echo "# $1 ($v): systemd lists $(wc -l < "$w/sd") exit status names, the rules know $(wc -l < "$w/br")"
        diff -u "$w/sd" "$w/br" || { echo "(-) systemd only, (+) the rules only"; return 1; }
}

for suite in $LAB_JUDGED; do
        if [ "$(id -u)" != 0 ]; then
                test_skip "$suite: exit status names" "chroot needs root"
                continue
        fi
        test_expect "$suite: the exit status names are those of systemd-analyze exit-status" names_case "$suite"
done
