#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The lab's cycle scenario against real boots: racy-ptmp-early.service (PrivateTmp=yes,
# Before=systemd-remount-fs.service) was booted 10 times on bullseye (247) and bookworm (252); the jobs PID 1
# deleted to break the ordering cycles are in $SHARED/data/cycle-SUITE.tsv (from the consoles). bootrace must
# flag the cycle for each version, and every job real systemd deleted must be among the jobs bootrace says it may
# delete - judged in the lab's real root and with the embedded base model alone.
. "$(dirname "$0")/lib.sh"
lab_require bullseye bookworm
export LAB_SRV=${LAB_SRV:-/srv/lab}
unit=$SHARED/data/units/racy-ptmp-early.service
[ -f "$unit" ] || skip_all "no $unit"

# victims SUITE-OR-VERSION ARGS...: the union of jobs bootrace may delete, one per line
victims() {
        local out=$1; shift
        rc=0; "$BOOTRACE" lint -q --format=json "$@" "$unit" > "$out" || rc=$?
        [ $rc = 1 ] || { echo "lint exit status $rc, expected 1 (findings)"; return 1; }
        jq -r '.findings[] | select(.check == "ordering-cycle" or .check == "sandbox-ordered-too-early") | .evidence as $e
               | ($e | index(map(select(startswith("jobs systemd may delete")))[0])) as $i
               | $e[($i + 1):][] | select(startswith("  ")) | ltrimstr("  ") | split(":")[0]' "$out" | sort -u
}

for suite in bullseye bookworm; do
        tsv=$SHARED/data/cycle-$suite.tsv
        awk -F'\t' 'NR > 1 { sub("/start$", "", $3); print $3 }' "$tsv" | sort -u > "$TMP/deleted-$suite"
        test_expect "$suite: real systemd deleted some jobs" test -s "$TMP/deleted-$suite"
        for how in root base; do
                if [ $how = root ]; then args="--root=$LAB_SRV/$suite"; else
                        args="--systemd=$(sed -n 's/^.*libsystemd-shared-\([0-9]*\).*$/\1/p' \
                                < <(find "$LAB_SRV/$suite/usr/lib" -name 'libsystemd-shared-*.so' | head -1))"; fi
                test_expect "$suite ($how): the cycle is flagged and every deleted job is a possible victim" sh -c '
                        victims() { '"$(declare -f victims | tail -n +3 | head -n -1)"'; }
                        unit=$0 BOOTRACE=$1 out=$2 deleted=$3; shift 3
                        victims "$out" "$@" > "$out.victims" || exit 1
                        [ -s "$out.victims" ] || { echo "no ordering-cycle finding"; exit 1; }
                        missing=$(comm -23 "$deleted" "$out.victims")
                        echo "possible victims: $(tr "\n" " " < "$out.victims")"
                        [ -z "$missing" ] || { echo "deleted by real systemd but not a possible victim: $missing"; exit 1; }' \
                        "$unit" "$BOOTRACE" "$TMP/$suite-$how.json" "$TMP/deleted-$suite" $args
        done
done
