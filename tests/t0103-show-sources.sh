#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# show reads units as lint does: a file named in the current directory is that file (not a name to look up), and
# without --root the other units come from the embedded model of the version judged for, not from this machine's
# /; --root=/ reads this machine's. The first line (text) or units_from (JSON) says which.
. "$(dirname "$0")/lib.sh"
EX=$FIXTURES/examples

test_expect "a unit file in the current directory is read as the file" sh -c '
        cd "$1" && "$BOOTRACE" show --systemd=252 open-vm-tools.service > "$2/out" 2> "$2/err" &&
        grep -qx "Fragment: $(pwd -P)/open-vm-tools.service" "$2/out"' - "$EX" "$TMP"
test_expect "lint reads the same file from the same name" sh -c '
        cd "$1" && "$BOOTRACE" lint --systemd=229 open-vm-tools.service > "$2/lint" 2>&1;
        grep -q "^open-vm-tools.service:[0-9]*: error:" "$2/lint"' - "$EX" "$TMP"
test_expect "without --root a unit systemd ships comes from the embedded model" sh -c '
        "$BOOTRACE" show --systemd=252 systemd-remount-fs.service > "$1/out" 2> "$1/err" &&
        grep -qx "Fragment: base-252.xml" "$1/out" &&
        head -1 "$1/out" | grep -q "^# units: the files given, then the embedded model of systemd 252 (base-252.xml)"' - "$TMP"
test_expect "JSON says where the units came from" sh -c '
        "$BOOTRACE" show --format=json --systemd=252 systemd-remount-fs.service > "$1/json" &&
        grep -q "\"units_from\":\"embedded-model\"" "$1/json" && grep -q "\"embedded_model\":\"base-252.xml\"" "$1/json"' - "$TMP"
test_expect "with --root the root's file is read, and no embedded-model line" sh -c '
        mkdir -p "$1/r/lib/systemd/system" && printf "[Unit]\nDescription=mine\n[Service]\nType=oneshot\nExecStart=/bin/true\n" > "$1/r/lib/systemd/system/systemd-remount-fs.service" &&
        "$BOOTRACE" show --systemd=252 --root="$1/r" systemd-remount-fs.service > "$1/rout" 2> /dev/null &&
        grep -q "^Description=mine" "$1/rout" && ! grep -q "^# units:" "$1/rout"' - "$TMP"
test_expect "a unit neither given nor in the model: exit 2 saying so" sh -c '
        rc=0; "$BOOTRACE" show --systemd=252 nosuch-unit.service > /dev/null 2> "$1/nerr" || rc=$?
        [ $rc = 2 ] && grep -q "nosuch-unit.service: no unit file found among the files given or in the embedded model" "$1/nerr"' - "$TMP"
