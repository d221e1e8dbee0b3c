#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The embedded base models of 247, 252, 257 and 262 (rules/base-NNN.xml) against the lab trees of those versions:
# every unit's text equals the tree's file, and the dependencies bootrace gives the base units with no tree at all
# equal those it gives them from the tree (which t6010 checks against systemd itself), among the base units.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/oracle-lib.sh"
# shellcheck disable=SC2086
lab_require $LAB_SUITES
# shellcheck disable=SC2086
lab_judged $LAB_SUITES

base_units() {
        grep -o '<unit name="[^"]*"' "$BOOTRACE_RULES_DIR/base-$1.xml" | sed 's/<unit name="//; s/"$//'
}

check_text() {
        local suite=$1 ver=$2 n=0 path
        while read -r name path; do
                [ -n "$path" ] || continue
                # the unit's text as stored, XML entities undone
                awk -v n="$name" '
                        $0 ~ "^<unit name=\"" n "\"" { on = 1; next }
                        on && /^<\/unit>$/ { exit }
                        on { print }' "$BOOTRACE_RULES_DIR/base-$ver.xml" |
                        sed 's/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' > "$TMP/text"
                # the tree's file, as the generator stores it (trailing blank lines folded into one newline)
                sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$LAB_SRV/$suite$path" > "$TMP/tree"
                diff -u "$TMP/tree" "$TMP/text" || { echo "$name differs from $LAB_SRV/$suite$path"; return 1; }
                n=$((n + 1))
        done < <(grep -o '<unit name="[^"]*" path="[^"]*"' "$BOOTRACE_RULES_DIR/base-$ver.xml" |
                 sed 's/<unit name="\([^"]*\)" path="\([^"]*\)"/\1 \2/')
        [ "$n" -gt 30 ] || { echo "only $n units compared"; return 1; }
}

check_edges() {
        local suite=$1 ver=$2
        base_units "$ver" | grep -v '@\.' > "$TMP/units"
        # shellcheck disable=SC2046
        bootrace graph --offline --systemd="$ver" $(cat "$TMP/units") > "$TMP/base.out" 2> "$TMP/base.err" ||
                { cat "$TMP/base.err"; return 1; }
        # shellcheck disable=SC2046
        bootrace graph --offline --systemd="$ver" --root="$LAB_SRV/$suite" $(cat "$TMP/units") > "$TMP/tree.out" \
                2> /dev/null || return 1
        # compared among the units taken from the tree (udevd's come from elsewhere: the trees lack the udev
        # package); the fstab generator's Wants= of systemd-remount-fs.service is in the base model (bootrace runs
        # no generators), the tree has no generator output
        grep -o '<unit name="[^"]*" path=' "$BOOTRACE_RULES_DIR/base-$ver.xml" | sed 's/<unit name="//; s/" path=$//' \
                > "$TMP/from-tree"
        for f in base tree; do
                awk -F'\t' 'FNR == NR { u[$1] = 1; next } ($1 in u) && ($3 in u || $2 ~ /MountsFor$/) &&
                        !($1 == "local-fs.target" && $2 == "Wants" && $3 == "systemd-remount-fs.service") {
                        print $1 "\t" $2 "\t" $3 "\t" $4 }' "$TMP/from-tree" "$TMP/$f.out" | sort -u > "$TMP/$f.tsv"
        done
        [ "$(wc -l < "$TMP/base.tsv")" -gt 200 ] || { echo "too few edges"; return 1; }
        diff -u "$TMP/tree.tsv" "$TMP/base.tsv"
}

for suite in $LAB_JUDGED; do
        ver=$(oracle_version "$suite")
        test_expect "base-$ver.xml: unit texts equal $suite's files" check_text "$suite" "$ver"
        test_expect "base-$ver.xml: base units' dependencies without a tree equal those from $suite" \
                check_edges "$suite" "$ver"
done
