#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bootrace chain: the critical chain of a unit in a past boot, from the VM journal. Each link became active before
# the one above it started; a boot is found by offset or by ID alike; a PrivateTmp= unit waited last for
# systemd-tmpfiles-setup.service (its implicit After=, knowledge/implicit-deps.md).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@" # bash features below (arrays, process substitution)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/stats-lib.sh"
stats_require

SET=bookworm-vm
J=$TMP/$SET.journal

links_in_order() { # BOOT UNIT: from the JSON, every link's active time <= the start (or activation) above it
        bootrace chain --file "$J" --boot="$1" ${2:+"$2"} --format=json > "$TMP/c.json" || return 1
        awk '/"activating_usec"/ { a = $2 } /"active_usec"/ { v = $2; gsub(/[^0-9]/, "", a); gsub(/[^0-9]/, "", v)
                if (n++ && (v == "" || v + 0 > ref + 0)) { print "link " n " active at " v " after " ref; bad = 1 }
                ref = (a != "") ? a : v }
             END { if (n < 2) { print "chain too short: " n; bad = 1 } exit bad }' "$TMP/c.json"
}

same_by_id() {
        local id
        id=$(journalctl --file "$J" --list-boots --no-pager | awk '$1 == "-32" || NR == 2 { print $2; exit }')
        bootrace chain --file "$J" --boot=1 racy-ptmp.service > "$TMP/a" &&
                bootrace chain --file "$J" --boot="$id" racy-ptmp.service > "$TMP/b" && test_cmp "$TMP/a" "$TMP/b"
}

ptmp_waits_for_tmpfiles() {
        local n b
        n=$(journalctl --file "$J" --list-boots --no-pager | grep -c '^ *-\?[0-9]')
        for b in 1 $(( (n + 1) / 2 )) "$n"; do
                bootrace chain --file "$J" --boot="$b" racy-ptmp.service > "$TMP/p" || return 1
                sed -n '/^racy-ptmp.service @/{n;p}' "$TMP/p" | grep -q '^└─systemd-tmpfiles-setup.service @' ||
                        { echo "boot $b:"; cat "$TMP/p"; return 1; }
        done
}

chain_root_edges() { # with --root, every link is an After= (or the other's Before=) of the root's unit files
        local r=${LAB_SRV:-/srv/lab}/bookworm
        bootrace chain --file "$J" --root "$r" --format=json > "$TMP/cr.json" || return 1
        # shellcheck disable=SC2046 # one unit per word
        bootrace graph --root "$r" --format=json $(jq -r '.chain[].unit' "$TMP/cr.json") > "$TMP/cr.graph" 2> /dev/null
        [ $? -le 1 ] || return 1
        jq -e --slurpfile g "$TMP/cr.graph" '.chain as $c | ($c | length) > 2 and
                all(range(1; $c | length); . as $i | $c[$i].inferred == false and
                    any($g[0].edges[]; (.from == $c[$i - 1].unit and .type == "After" and .to == $c[$i].unit) or
                                       (.from == $c[$i].unit and .type == "Before" and .to == $c[$i - 1].unit)))' \
                "$TMP/cr.json"
}

test_expect "import $SET" import_export $SET
test_expect "the default chain (a target) is in time order" links_in_order 0 ""
test_expect "racy-ptmp.service's chain in boot 1 is in time order" links_in_order 1 racy-ptmp.service
test_expect "--boot=1 and --boot=ID of the first boot agree" same_by_id
test_expect "a PrivateTmp= unit waited for systemd-tmpfiles-setup.service" ptmp_waits_for_tmpfiles
test_expect "a unit with no record in the boot is an error" \
        expect_error 2 "the journal has no start or activation record of nothing-here.service" \
        bootrace chain --file "$J" nothing-here.service
test_expect "two units are a usage error" \
        expect_error 2 "^bootrace: chain: one unit at a time \\('b.service' is extra\\)" \
        bootrace chain --file "$J" a.service b.service
if [ -d "${LAB_SRV:-/srv/lab}/bookworm/usr/lib/systemd" ] || [ "${CI:-}" = true ]; then
        test_expect "--root: the links are the root's ordering edges, none inferred" chain_root_edges
else
        test_skip "--root: the links are the root's ordering edges, none inferred" "no lab tree bookworm in LAB_SRV"
fi
