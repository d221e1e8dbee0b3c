#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# graph --format=dot for a whole model (systemd 252's base units): each arrow once (x After=y and y Before=x are
# one ordering), pointing the way the boot goes, with a legend; --type, --from, --to, --depth, --no-slices and
# --no-conflicts choose what is drawn; wrong uses of them are errors.
. "$(dirname "$0")/lib.sh"
command -v jq > /dev/null || skip_all "jq not installed"

# arrows FILE: "TAIL -> HEAD COLOUR" per arrow of a DOT file, names unescaped (a unit name may hold a backslash:
# system-systemd\x2dcryptsetup.slice is "system-systemd\\x2dcryptsetup.slice" in DOT)
arrows() { sed -n 's/^	"\([^"]*\)" -> "\([^"]*\)" \[color="\([^"]*\)".*/\1 -> \2 \3/p' "$1" | sed 's/\\\\/\\/g'; }
# nodes FILE: the units the arrows join
nodes() { arrows "$1" | awk '{ print $1; print $3 }' | sort -u; }

"$BOOTRACE" graph -q --systemd=252 --format=json > "$TMP/all.json"
"$BOOTRACE" graph -q --systemd=252 --format=dot > "$TMP/all.dot"
arrows "$TMP/all.dot" > "$TMP/all.arrows"
test_expect "the whole model is drawn" test -s "$TMP/all.arrows"
test_expect "no arrow is drawn twice" sh -c 'sort "$1" | uniq -d > "$1.dup"; [ ! -s "$1.dup" ] || { cat "$1.dup"; exit 1; }' \
        x "$TMP/all.arrows"
test_expect "every After= and Before= is one ordering arrow from the unit that starts first" sh -c '
        jq -r ".edges[] | select(.type == \"After\" or .type == \"Before\")
               | if .type == \"After\" then \"\(.to) -> \(.from)\" else \"\(.from) -> \(.to)\" end" "$1" | sort -u > "$1.want"
        grep " steelblue\$" "$2" | sed "s/ steelblue\$//" | sort > "$1.got"
        [ -s "$1.want" ] && diff "$1.want" "$1.got"' x "$TMP/all.json" "$TMP/all.arrows"
test_expect "a legend says what an arrow means" grep -q "a -&gt; b: b is ordered after a" "$TMP/all.dot"

only_requires() {
        "$BOOTRACE" graph -q --systemd=252 --format=dot --type=Requires > "$TMP/req.dot" || return 1
        arrows "$TMP/req.dot" | awk '{ print $4 }' | sort -u > "$TMP/req.colours"
        echo black | cmp -s - "$TMP/req.colours" || { echo "colours:"; cat "$TMP/req.colours"; return 1; }
}
test_expect "--type=Requires draws Requires= alone" only_requires
test_expect "--no-slices and --no-conflicts: no slice, no Conflicts= arrow" sh -c '
        "$BOOTRACE" graph -q --systemd=252 --format=dot --no-slices --no-conflicts > "$1" || exit 1
        grep -q "\.slice\"" "$1" && { echo "a slice is drawn"; exit 1; }
        grep -q "color=\"red\"" "$1" && { echo "a Conflicts= arrow is drawn"; exit 1; }
        grep -q "\.slice\"" "$2" && grep -q "color=\"red\"" "$2"' x "$TMP/ns.dot" "$TMP/all.dot"

# --from=U --depth=1: U and the units one arrow after it; --to=U --depth=1: U and those one arrow before it
u=systemd-remount-fs.service
"$BOOTRACE" graph -q --systemd=252 --format=dot --type=After,Before --from=$u --depth=1 > "$TMP/from.dot"
{ echo $u; grep " steelblue\$" "$TMP/all.arrows" | awk -v u=$u '$1 == u { print $3 }'; } | sort -u > "$TMP/from.want"
# same_nodes DOT WANT: the units drawn are those of WANT (more than the one asked about)
same_nodes() { [ "$(wc -l < "$2")" -gt 1 ] && nodes "$1" > "$1.nodes" && diff "$2" "$1.nodes"; }
test_expect "--from=$u --depth=1: the unit and what is ordered right after it" \
        same_nodes "$TMP/from.dot" "$TMP/from.want"
t=local-fs.target
"$BOOTRACE" graph -q --systemd=252 --format=dot --type=After,Before --to=$t --depth=1 > "$TMP/to.dot"
{ echo $t; grep " steelblue\$" "$TMP/all.arrows" | awk -v t=$t '$3 == t { print $1 }'; } | sort -u > "$TMP/to.want"
test_expect "--to=$t --depth=1: the target and what is ordered right before it" \
        same_nodes "$TMP/to.dot" "$TMP/to.want"
test_expect "--from and --to: only what lies between" sh -c '
        "$BOOTRACE" graph -q --systemd=252 --format=dot --type=After,Before --from=$0 --to=$1 > "$2" || exit 1
        grep -q "\"$0\" -> " "$2" && grep -q " -> \"$1\"" "$2" && ! grep -q "\"multi-user.target\"" "$2"' \
        $u sysinit.target "$TMP/between.dot"
test_dot_renders "dot(1) renders a filtered graph" "$TMP/between.dot"

test_expect "--from of a unit the graph does not have: exit 2" \
        expect_error 2 "^bootrace: --from=nosuch.service: no unit of that name in the graph" \
                bootrace graph -q --systemd=252 --format=dot --from=nosuch.service
test_expect "--type with a word that is no dependency type: exit 2" \
        expect_error 2 "^bootrace: --type=Aftr: not a list of dependency types" \
                bootrace graph -q --systemd=252 --format=dot --type=Aftr
test_expect "the filters without --format=dot: exit 2" \
        expect_error 2 "choose what --format=dot draws" bootrace graph -q --systemd=252 --no-slices
test_expect "--depth without --from or --to: exit 2" \
        expect_error 2 "^bootrace: --depth=2 counts arrows from --from or to --to: give one of them" \
                bootrace graph -q --systemd=252 --format=dot --depth=2
