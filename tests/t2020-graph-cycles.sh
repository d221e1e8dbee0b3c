#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bootrace graph --cycles: the ordering cycles of the boot transaction. The lab roots have none (exit 0); with the
# lab's racy-ptmp-early.service added as a package unit (enabled by its [Install] section) bookworm's transaction
# has cycles (exit 1), every job real systemd deleted in the recorded boots is among the victims, and the JSON
# carries each edge with its origin.
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2086
lab_require $LAB_SUITES
export LAB_SRV=${LAB_SRV:-/srv/lab}
# shellcheck disable=SC2086
lab_judged $LAB_SUITES
unit=$SHARED/data/units/racy-ptmp-early.service

for suite in $LAB_JUDGED; do
        test_expect "$suite: the real root's boot transaction has no ordering cycle" \
                bootrace graph -q --cycles --root="$LAB_SRV/$suite"
done
test_expect "bookworm + racy-ptmp-early: cycles, exit status 1" \
        expect_exit 1 bootrace graph -q --cycles --root="$LAB_SRV/bookworm" "$unit"
test_expect "bookworm + racy-ptmp-early: every job real systemd deleted is a victim" sh -c '
        "$BOOTRACE" graph -q --cycles --format=json --root="$LAB_SRV/bookworm" "$1" > "$2"; [ $? = 1 ] || exit 1
        jq -r ".cycles[].victims[].unit" "$2" | sort -u > "$2.victims"
        awk -F"\t" "NR > 1 { sub(\"/start$\", \"\", \$3); print \$3 }" "$3" | sort -u > "$2.deleted"
        missing=$(comm -23 "$2.deleted" "$2.victims")
        [ -z "$missing" ] || { echo "not victims: $missing"; exit 1; }
        jq -e "[.cycles[].edges[] | select(.origin.kind == null)] | length == 0" "$2" > /dev/null' \
        x "$unit" "$TMP/cycles.json" "$SHARED/data/cycle-bookworm.tsv"
test_expect "no root, systemd 252 base model: the same unit makes cycles" \
        expect_exit 1 bootrace graph -q --cycles --systemd=252 "$unit"
test_expect "no root, systemd 229: no implicit tmpfiles edge, no cycle" \
        bootrace graph -q --cycles --systemd=229 "$unit"
test_expect "--transaction names another anchor" \
        bootrace graph -q --transaction=sysinit.target --root="$LAB_SRV/bookworm"
test_expect "--transaction of a unit that cannot be loaded is an error" \
        expect_exit 2 bootrace graph -q --transaction=nothere.target --root="$LAB_SRV/bookworm"

# trixie: its ten recorded cycle boots are summarised in knowledge/journal.md §7 (a table of deleted jobs per
# version); every job deleted on 257 must be a possible victim in trixie's root as well
kn=$SHARED/knowledge/journal.md
awk -F'|' '/\/start \|/ { n = $5; gsub(/ /, "", n); j = $2; gsub(/ |\/start/, "", j); if (n + 0 > 0) print j }' "$kn" |
        sort -u > "$TMP/deleted-257"
test_expect "trixie: the knowledge file lists jobs real systemd 257 deleted" test -s "$TMP/deleted-257"
test_expect "trixie + racy-ptmp-early: every job systemd 257 deleted is a victim" sh -c '
        "$BOOTRACE" graph -q --cycles --format=json --root="$LAB_SRV/trixie" "$1" > "$2"; [ $? = 1 ] || exit 1
        jq -r ".cycles[].victims[].unit" "$2" | sort -u > "$2.victims"
        missing=$(comm -23 "$3" "$2.victims")
        [ -z "$missing" ] || { echo "not victims: $missing"; exit 1; }' x "$unit" "$TMP/trixie.json" "$TMP/deleted-257"
