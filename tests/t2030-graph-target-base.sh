#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A release's enablement in the base model (<target name=RELEASE> of rules/base-NNN.xml): with --target=RELEASE
# and no root, bootrace gives the base units the links the release adds (its postinst's), drops the static links
# it removes and the units its build keeps out of the unit path, and knows its aliases; --systemd=N alone is
# systemd's own install. Checked for every <target> of every base model, from the data itself; and a <target>
# changed in a copy of the rules changes the graph.
. "$(dirname "$0")/lib.sh"

# "RELEASE VERSION" for every <target> of the shipped base models
grep -o '<target name="[^"]*"' "$BOOTRACE_RULES_DIR"/base-*.xml |
        sed 's|.*/base-\([0-9]*\)\.xml:<target name="\([^"]*\)"|\2 \1|' > "$TMP/targets"
test_expect "the base models have the enablement of some releases" test -s "$TMP/targets"
test_expect "... and some of them add links" sh -c '
        awk "/^<target /{ t = 1 } /^<\/target>/{ t = 0 } t && /^<link /{ n++ } END { exit !(n > 0) }" "$@"' \
        x "$BOOTRACE_RULES_DIR"/base-*.xml

element() { sed -n "/^<target name=\"$1\"/,/^<\/target>/p" "$BOOTRACE_RULES_DIR/base-$2.xml"; }

check_links() {
        local t=$1 v=$2 n=0 type unit name
        while read -r type unit name; do
                bootrace graph -q --target="$t" "$unit" > "$TMP/t.out" 2>&1 || { cat "$TMP/t.out"; return 1; }
                bootrace graph -q --systemd="$v" "$unit" > "$TMP/s.out" 2>&1 || { cat "$TMP/s.out"; return 1; }
                grep -q "^$unit	$type	$name	" "$TMP/t.out" || { echo "--target=$t: no $unit $type $name"; return 1; }
                ! grep -q "^$unit	$type	$name	" "$TMP/s.out" || { echo "--systemd=$v has $unit $type $name"; return 1; }
                n=$((n + 1))
        done < <(element "$t" "$v" | sed -n 's/^<link type="\([^"]*\)" unit="\([^"]*\)" name="\([^"]*\)"\/>$/\1 \2 \3/p')
        echo "# $n links"
}

check_omits() {
        local t=$1 v=$2 n=0 u type unit
        while read -r u; do
                # the units with a static link to it lose the edge; so does a unit that names it
                while read -r type unit; do
                        bootrace graph -q --target="$t" "$unit" > "$TMP/t.out" 2>&1 || return 1
                        bootrace graph -q --systemd="$v" "$unit" > "$TMP/s.out" 2>&1 || return 1
                        grep -q "^$unit	$type	$u	" "$TMP/s.out" || { echo "--systemd=$v: no $unit $type $u"; return 1; }
                        ! grep -q "^$unit	$type	$u	" "$TMP/t.out" || { echo "--target=$t keeps $unit $type $u"; return 1; }
                        n=$((n + 1))
                done < <(grep "<link type=\"[^\"]*\" unit=\"[^\"]*\" name=\"$u\"/>" "$BOOTRACE_RULES_DIR/base-$v.xml" |
                         sed -n 's/^<link type="\([^"]*\)" unit="\([^"]*\)" name=.*/\1 \2/p' | sort -u)
        done < <(element "$t" "$v" | sed -n 's/^<omit unit="\([^"]*\)"\/>$/\1/p' | grep -v '@\.')
        echo "# $n static links of omitted units"
}

check_aliases() {
        local t=$1 v=$2 n=0 a u
        while read -r a u; do
                bootrace graph -q --format=json --target="$t" "$a" > "$TMP/a.json" 2>&1 || { cat "$TMP/a.json"; return 1; }
                jq -e --arg u "$u" '[.. | strings | select(. == $u)] | length > 0' "$TMP/a.json" > /dev/null ||
                        { echo "--target=$t: $a is not $u"; return 1; }
                n=$((n + 1))
        done < <(element "$t" "$v" | sed -n 's/^<alias name="\([^"]*\)" unit="\([^"]*\)"\/>$/\1 \2/p')
        echo "# $n aliases"
}

while read -r t v; do
        test_expect "$t (base-$v.xml): --target has the release's links, --systemd=$v not" check_links "$t" "$v"
        test_expect "$t (base-$v.xml): --target drops the static links of the units the release omits" \
                check_omits "$t" "$v"
        test_expect "$t (base-$v.xml): --target knows the release's aliases" check_aliases "$t" "$v"
done < "$TMP/targets"

# a <link> added to a copy of the rules appears in the graph with that --target only
cp -R "$BOOTRACE_RULES_DIR" "$TMP/rules"
read -r t v < "$TMP/targets"
sed -i "/^<target name=\"$t\"/a <link type=\"Wants\" unit=\"basic.target\" name=\"systemd-journald.service\"/>" \
        "$TMP/rules/base-$v.xml"
test_expect "a link added to $t's <target> in a copy of the rules: --target=$t has it" sh -c '
        BOOTRACE_RULES_DIR=$1 "$BOOTRACE" graph -q --target="$2" basic.target |
                grep -q "^basic.target	Wants	systemd-journald.service	file	link base-$3.xml:"' x "$TMP/rules" "$t" "$v"
test_expect "... and a root is judged with its own links, not the release's" sh -c '
        mkdir -p "$1/etc" "$1/usr/lib/systemd/system"
        ! BOOTRACE_RULES_DIR=$2 "$BOOTRACE" graph -q --target="$3" --root="$1" basic.target |
                grep -q "^basic.target	Wants	systemd-journald.service	file	link "' x "$TMP/root" "$TMP/rules" "$t"
