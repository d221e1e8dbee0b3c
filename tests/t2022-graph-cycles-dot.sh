#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bootrace graph --cycles --format=dot draws the cycles (it printed the text report): the lab's
# racy-ptmp-early.service against systemd 252's base model. Every ordering of the JSON's cycles is one arrow,
# drawn from the job that starts first to the one ordered after it, none twice, with a legend; dot(1) reads it.
. "$(dirname "$0")/lib.sh"
unit=$SHARED/data/units/racy-ptmp-early.service
[ -f "$unit" ] || skip_all "no $unit"
command -v jq > /dev/null || skip_all "jq not installed"

rc=0; "$BOOTRACE" graph -q --cycles --format=dot --systemd=252 "$unit" > "$TMP/c.dot" || rc=$?
test_expect "cycles: exit status 1" test "$rc" = 1
test_expect "the output is a DOT digraph, not the text report" sh -c '
        head -1 "$1" | grep -q "^digraph " && ! grep -q "^cycle 1 (" "$1" && tail -1 "$1" | grep -q "^}$"' x "$TMP/c.dot"
test_expect "every ordering of the cycles is an arrow from the job that starts first" sh -c '
        "$BOOTRACE" graph -q --cycles --format=json --systemd=252 "$1" > "$2.json"; [ $? = 1 ] || exit 1
        jq -r ".cycles[].edges[] | if .type == \"After\" then \"\\\"\(.to)\\\" -> \\\"\(.from)\\\"\"
                                   else \"\\\"\(.from)\\\" -> \\\"\(.to)\\\"\" end" "$2.json" | sort -u > "$2.want"
        [ -s "$2.want" ] || { echo "no cycle edges in the JSON"; exit 1; }
        grep -o "^	\"[^\"]*\" -> \"[^\"]*\"" "$2" | sed "s/^	//" | sort > "$2.got"
        sort -u "$2.got" | cmp -s - "$2.got" || { echo "an arrow drawn twice"; exit 1; }
        diff "$2.want" "$2.got"' x "$unit" "$TMP/c.dot"
test_expect "a legend says what an arrow means" grep -q "a -> b: b is ordered after a" "$TMP/c.dot"
test_dot_renders "dot(1) renders it" "$TMP/c.dot"
