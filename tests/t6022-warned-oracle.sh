#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Warnings against real systemd, line by line: for each fixtures/show case with a warned-oracle file (the lab
# suites it is for), `systemd-analyze verify` of each unit and `bootrace show` at the tree's version must warn
# about exactly the same lines. fixtures/show/empty-values assigns every single-valued key that is not a boolean
# or a number, empty, in units of each type (and a valid line each type needs); its warnings are an empty value a parser refuses (<empty means="invalid"> in rules/unit-keys.xml),
# a key support was removed for (ignored-since=), an obsolete dependency (<warn>), a cgroup key the unit's type
# cannot have (<unsupported>: Delegate=, DelegateSubgroup=, ManagedOOM*= of sockets, mounts, swaps, slices).
# fixtures/show/symlinks-paths: Symlinks= words that are not absolute, normalized paths (syntax="absolute-path-list").
# fixtures/show/exit-status-signals: exit status lists and signals (syntax="exit-status-list", "signal"; the names of
# rules/value-words.xml). fixtures/show/sched-priority: CPUSchedulingPriority= against the CPUSchedulingPolicy= set
# before it, up to 251 (<range if-key=>), drop-ins included (their lines are DIR.d/FILE:LINE on both sides).
# fixtures/show/mounts-for-specifiers: RequiresMountsFor= words with specifiers not known offline.
# fixtures/show/documentation-urls: Documentation= words that are no URLs (syntax="documentation").
# fixtures/show/continuation-lines: a warning about a joined line names its last physical line, and one still
# open at the end of the file the line after the last (config_parse()'s ++line).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/oracle-lib.sh"
# shellcheck disable=SC2086
lab_require $LAB_SUITES
# shellcheck disable=SC2086
lab_judged $LAB_SUITES

warned_case() {
        local suite=$1 CASE=$FIXTURES/show/$2 w=$TMP/$1-$2 ver units u
        fixture_root "$CASE" "$w/fixture"
        oracle_overlay "$suite" "$w/fixture" "$w"
        ver=$(oracle_version "$suite")
        units=$(tr ' ' '\n' < "$CASE/args" | grep -v -e '^--' -e '^$')
        for u in $units; do
                oracle_in_ns "$w" oracle_chroot_verify "$w/m" "/etc/systemd/system/$u" 2>&1 |
                        sed 's/\x1b\[[0-9;]*m//g' | grep -oE "^/etc/systemd/system/$u(\.d/[^:/]+)?:[0-9]+: .*" |
                        sed 's|^/etc/systemd/system/||' || true
        done > "$w/sd.warn"
        [ -s "$w/sd.warn" ] || { echo "verify warned about nothing: it did not run?"; return 1; }
        cut -d: -f1,2 "$w/sd.warn" | sort -u > "$w/sd.lines"
        # shellcheck disable=SC2086
        oracle_in_ns "$w" "$BOOTRACE" show --root="$w/m" --systemd="$ver" $units 2>&1 > /dev/null |
                sed "s|^$w/m/etc/systemd/system/||" | grep -E '^[^ :]+:[0-9]+: (warning|error): ' | cut -d: -f1,2 | sort -u > "$w/br.lines"
        echo "# $suite ($ver): systemd warns about $(wc -l < "$w/sd.lines") lines, bootrace about $(wc -l < "$w/br.lines")"
        if ! diff -u "$w/sd.lines" "$w/br.lines" > "$w/diff"; then
                echo "$suite: lines systemd (-) and bootrace (+) warn about:"
                grep '^[-+][^-+]' "$w/diff" | while read -r x; do
                        grep -F "${x#?}:" "$w/sd.warn" | head -1 || echo "$x"
                done
                return 1
        fi
}

for suite in $LAB_JUDGED; do
        for dir in "$FIXTURES"/show/*/; do
                dir=${dir%/}
                grep -q -w "$suite" "$dir/warned-oracle" 2> /dev/null || continue
                test_expect "$suite ($(oracle_version "$suite")): $(basename "$dir"): warned about on the lines systemd warns about" \
                        warned_case "$suite" "$(basename "$dir")"
        done
done
