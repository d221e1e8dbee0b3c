#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bootrace drift against a real PID 1: the lab's trees booted with systemd-nspawn, reached from the host through
# the container's system bus socket, the model built from the container's own root (/proc/LEADER/root) and its
# PID 1's mount table (/proc/1/mountinfo there). The lab's units (racy-*, lab-*) must show no drift at all; over
# every loaded unit the drift must be exactly the explained model gaps of fixtures/drift/SUITE.explained (each
# with its reason; none when there is no such file), no more and no fewer. A drop-in PID 1 has not read (no
# daemon-reload) must show as a difference with the model's origin. Each container is powered off at the end, whatever happened.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2086
lab_require $LAB_SUITES
command -v nsenter > /dev/null || skip_all "nsenter not installed"
command -v python3 > /dev/null || skip_all "python3 not installed"

. "$(dirname "$0")/lab-container-lib.sh"
trap 'lab_container_poweroff; _test_exit' EXIT
# shellcheck disable=SC2086
lab_judged $LAB_SUITES

# The drift's lines without their origins, sorted; the explained list's lines without their reasons, sorted.
strip_origin() { sed 's/ (origin: .*)$//' "$1" | LC_ALL=C sort; }
explained() { grep -v '^#' "$1" | cut -f1 | LC_ALL=C sort; }

for SUITE in $LAB_JUDGED; do
        if ! lab_container_boot "$SUITE"; then
                test_expect "$SUITE: the container comes up" sh -c 'tail -3 "$1"; false' sh "$TMP/boot-$SUITE.log"
                lab_container_poweroff
                continue
        fi
        export SUITE
        W=$TMP/$SUITE
        mkdir -p "$W"
        export W

        test_expect "$SUITE: no drift for the lab's units (racy-*, lab-*)" sh -c '
                units=$(nsenter -t "$L" -a systemctl list-units --all --no-legend --plain "racy-*" "lab-*" |
                        awk "{ print \$1 }")
                [ "$(echo "$units" | wc -w)" -ge 5 ] || { echo "lab units: [$units]"; exit 1; }
                rc=0; $BOOTRACE drift -q --root="$R" $units > "$W/lab.txt" || rc=$?
                cat "$W/lab.txt"; [ $rc = 0 ] && [ ! -s "$W/lab.txt" ]'
        test_expect "$SUITE: the drift over every loaded unit is exactly the explained model gaps" sh -c '
                rc=0; $BOOTRACE drift --root="$R" > "$W/all.txt" 2> "$W/all.err" || rc=$?
                cat "$W/all.err"
                f=$FIXTURES/drift/$SUITE.explained
                [ -f "$f" ] || f=/dev/null
                if grep -v "^#" "$f" | grep -qv "	..*"; then echo "an explained line without its reason"; exit 1; fi
                grep -v "^#" "$f" | cut -f1 | LC_ALL=C sort > "$W/want"
                sed "s/ (origin: .*)\$//" "$W/all.txt" | LC_ALL=C sort > "$W/got"
                diff -u "$W/want" "$W/got" || exit 1
                if [ -s "$W/want" ]; then [ $rc = 1 ]; else [ $rc = 0 ]; fi'
        test_expect "$SUITE: drift compared the whole system (units and dependencies of PID 1)" sh -c '
                n=$(nsenter -t "$L" -a systemctl list-units --all --no-legend --plain | wc -l)
                rc=0; $BOOTRACE drift -q --format=json --root="$R" > "$W/all.json" || rc=$?
                [ $rc -le 1 ] && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d[\"units_compared\"] >= int(sys.argv[2]) - 3, (d[\"units_compared\"], sys.argv[2])
assert d[\"dependencies_compared\"] > 500, d[\"dependencies_compared\"]
assert d[\"systemd_version\"].startswith(str(d[\"systemd\"])), d[\"systemd_version\"]
text = open(sys.argv[3]).read().splitlines()
assert len(d[\"differences\"]) == len(text), (len(d[\"differences\"]), len(text))
for x in d[\"differences\"]:
    assert x[\"side\"] in (\"only-live\", \"only-model\"), x
    assert (x[\"side\"] == \"only-model\") == bool(x[\"origins\"]), x
" "$W/all.json" "$n" "$W/all.txt"'
        test_expect "$SUITE: a drop-in PID 1 has not read is reported (exit 1) with the model origin" sh -c '
                u=$(nsenter -t "$L" -a systemctl list-units --all --no-legend --plain "racy-*" |
                    awk "NR == 1 { print \$1 }")
                [ -n "$u" ] || { echo "no racy unit"; exit 1; }
                d=$R/run/systemd/system/$u.d
                mkdir -p "$d" &&
                        printf "[Unit]\nAfter=bootrace-drift-probe.target\n" > "$d/bootrace-drift.conf" || exit 1
                rc=0; $BOOTRACE drift -q --root="$R" -- "$u" > "$W/one.txt" || rc=$?
                rm -f "$d/bootrace-drift.conf"; rmdir "$d" 2> /dev/null
                cat "$W/one.txt"
                [ $rc = 1 ] && [ "$(wc -l < "$W/one.txt")" = 1 ] &&
                        grep -q "^$u After bootrace-drift-probe.target: only model (origin: drop-in \
.*/bootrace-drift.conf:2)\$" "$W/one.txt"'
        # PropagatesStopTo= (from 249) is compared like every other dependency: before 249 the key is unknown and
        # adds nothing, so there is no drift
        test_expect "$SUITE: a PropagatesStopTo= drop-in PID 1 has not read is reported from 249 on" sh -c '
                u=$(nsenter -t "$L" -a systemctl list-units --all --no-legend --plain "racy-*" |
                    awk "NR == 1 { print \$1 }")
                v=$(nsenter -t "$L" -a systemctl --version | awk "NR == 1 { print \$2 }")
                [ -n "$u" ] && [ -n "$v" ] || { echo "no racy unit, or no version ($v)"; exit 1; }
                d=$R/run/systemd/system/$u.d
                mkdir -p "$d" &&
                        printf "[Unit]\nPropagatesStopTo=bootrace-drift-probe.target\n" > "$d/bootrace-stop.conf" ||
                        exit 1
                rc=0; $BOOTRACE drift -q --root="$R" -- "$u" > "$W/stop.txt" || rc=$?
                rm -f "$d/bootrace-stop.conf"; rmdir "$d" 2> /dev/null
                cat "$W/stop.txt"
                if [ "$v" -lt 249 ]; then
                        [ $rc = 0 ] && [ ! -s "$W/stop.txt" ]
                else
                        [ $rc = 1 ] && [ "$(wc -l < "$W/stop.txt")" = 1 ] &&
                                grep -q "^$u PropagatesStopTo bootrace-drift-probe.target: only model (origin: drop-in \
.*/bootrace-stop.conf:2)\$" "$W/stop.txt"
                fi'
        lab_container_poweroff
done
test_expect "drift: a unit name that is no unit name -> exit 2" \
        expect_error 2 "^bootrace: drift: \"/etc/x.service\" is not a unit name" bootrace drift -q /etc/x.service
