#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bootrace's dependency model against real systemd: for every unit file of the lab trees (bullseye 247, bookworm
# 252, trixie 257, forky 262), and for every template instance those units reference (getty@tty1.service,
# modprobe@drm.service, ...), the dependencies `SYSTEMD_LOG_LEVEL=debug systemd-analyze verify --man=no` dumps
# inside the tree must be exactly those `bootrace graph --offline` gives: the ones written in the files and links,
# and the implicit, default, slice and mount-path ones systemd adds by itself. Prints the agreement per version and
# origin class, and every disagreement.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/oracle-lib.sh"
. "$(dirname "$0")/graph-oracle-lib.sh"
# shellcheck disable=SC2086
lab_require $LAB_SUITES
# shellcheck disable=SC2086
lab_judged $LAB_SUITES

# the unit files lab-oracle.sh -a verifies: regular files in the vendor dir and /etc, no templates
tree_units() {
        local t=$LAB_SRV/$1 f n
        for f in "$t"/lib/systemd/system/* "$t"/usr/lib/systemd/system/* "$t"/etc/systemd/system/*; do
                n=${f##*/}
                case $n in *@.*|*.d|*.wants|*.requires|*.upholds) continue ;; esac
                [ -f "$f" ] && [ ! -L "$f" ] && echo "$n"
        done | awk '!seen[$0]++'
}

oracle_suite() {
        local suite=$1 ver w=$TMP/$1
        mkdir -p "$w"
        ver=$(oracle_version "$suite")
        tree_units "$suite" > "$w/units"
        [ -s "$w/units" ] || { echo "no unit files in $suite"; return 1; }
        # shellcheck disable=SC2046
        "$LAB/lab-oracle.sh" -q "$suite" $(cat "$w/units") > "$w/dump" || true
        grep -q '^	-> Unit ' "$w/dump" || { echo "verify dumped nothing"; return 1; }
        # the instances systemd's units reference, as systemd itself names them: verified and compared too
        graph_oracle_dump2tsv < "$w/dump" | awk -F'\t' '$3 ~ /^[^@\/]+@[^.\/]+\.[a-z]+$/ { print $3 }' |
                sort -u > "$w/instances"
        [ -s "$w/instances" ] || { echo "no instance referenced"; return 1; }
        # shellcheck disable=SC2046
        "$LAB/lab-oracle.sh" -q "$suite" $(cat "$w/instances") >> "$w/dump" || true
        cat "$w/instances" >> "$w/units"
        graph_oracle_dump2tsv < "$w/dump" > "$w/sd.tsv"
        # the tree is that Debian release (--target): the units the base model adds where the tree has none are
        # those it ships (no tmp.mount up to bookworm: rules/base-NNN.xml <target>)
        # shellcheck disable=SC2046
        bootrace graph --offline --target="debian-$suite" --systemd="$ver" --root="$LAB_SRV/$suite" \
                $(cat "$w/units") > "$w/br.out" 2> "$w/br.err" || { cat "$w/br.err"; return 1; }
        graph_oracle_br2tsv < "$w/br.out" > "$w/br.tsv"
        graph_oracle_compare "$w/sd.tsv" "$w/br.tsv" > "$w/cmp" || { echo "comparison failed"; return 1; }
        grep -q '^agree' "$w/cmp" || { echo "nothing compared"; return 1; }
        echo "# $suite (systemd $ver), $(($(wc -l < "$w/units") - $(wc -l < "$w/instances"))) unit files and" \
                "$(wc -l < "$w/instances") instances: edges agreeing / total, by origin class"
        awk -F'\t' '$1 == "agree" { printf "#   %-14s %5d / %d\n", $2, $3, $4 }' "$w/cmp"
        if grep -q '^only-' "$w/cmp"; then
                echo "# disagreements (only-systemd: systemd has it, bootrace does not):"
                grep '^only-' "$w/cmp" | sed 's/^/#   /'
                return 1
        fi
}

# graph over the whole tree (no names) has the instances systemd's units reference among its units, with the
# edges compared above
whole_tree_instances() {
        local suite=$1 ver w=$TMP/$1
        ver=$(oracle_version "$suite")
        [ -s "$w/instances" ] || { echo "no instances from the comparison"; return 1; }
        bootrace graph --offline --target="debian-$suite" --systemd="$ver" --root="$LAB_SRV/$suite" \
                > "$w/whole.out" 2> "$w/whole.err" || { cat "$w/whole.err"; return 1; }
        cut -f1 "$w/whole.out" | sort -u > "$w/whole.units"
        comm -23 "$w/instances" "$w/whole.units" > "$w/missing"
        [ ! -s "$w/missing" ] || { echo "instances missing from the whole graph:"; cat "$w/missing"; return 1; }
        graph_oracle_br2tsv < "$w/whole.out" | grep -Ff "$w/instances" | awk -F'\t' 'FNR == NR { i[$1] = 1; next }
                ($1 in i)' "$w/instances" - > "$w/whole.tsv"
        grep -Ff "$w/instances" "$w/br.tsv" | awk -F'\t' 'FNR == NR { i[$1] = 1; next } ($1 in i)' "$w/instances" - |
                diff -u - "$w/whole.tsv"
}

for suite in $LAB_JUDGED; do
        test_expect "$suite ($(oracle_version "$suite")): every dependency of every unit file agrees with systemd" \
                oracle_suite "$suite"
        # the summary is wanted in the log even when the test passes
        sed -n '/^# /p' "$TMP/.out" 2> /dev/null || true
        test_expect "$suite: graph of the whole tree has the instances the units reference, with their edges" \
                whole_tree_instances "$suite"
done
