#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Who an ordering cycle is blamed on, and where. The lab's bookworm root with its racy-ptmp-early.service added
# and enabled, linted whole: the cycles run through systemd's own units (systemd-remount-fs.service,
# local-fs.target, ...) but only the unit that closes them is reported, once (sandbox-ordered-too-early: its
# PrivateTmp= is the cause), at the line of the Before= its file contributes. A fixture's cycle is located the
# same way in SARIF (region.startLine).
. "$(dirname "$0")/lib.sh"

unit=$FIXTURES/lint/cycle-one-victim-252/units/early-setup.service
line=$(grep -n '^Before=' "$unit" | cut -d: -f1)
test_expect "SARIF: the cycle's result has the line of the Before= that closes it" sh -c '
        rc=0; "$BOOTRACE" lint -q --systemd=252 --format=sarif "$1" > "$3" || rc=$?
        [ $rc = 1 ] || { echo "exit $rc"; exit 1; }
        got=$(jq -r ".runs[0].results[] | select(.ruleId == \"ordering-cycle\")
                     | .locations[0].physicalLocation.region.startLine" "$3")
        [ "$got" = "$2" ] || { echo "startLine \"$got\", expected $2"; exit 1; }' x "$unit" "$line" "$TMP/one.sarif"

# the rest needs the lab's bookworm tree
if ! lab_ready bookworm; then
        test_skip "the whole bookworm root with the racy unit: who is blamed, where" "$LAB_REASON"
        exit 0
fi
export LAB_SRV=${LAB_SRV:-/srv/lab}
racy=$SHARED/data/units/racy-ptmp-early.service
[ -f "$racy" ] || { test_skip "the whole bookworm root with the racy unit" "no $racy"; exit 0; }

# a root of bookworm's unit files (not its binaries), with the racy unit enabled as its [Install] says
src=$LAB_SRV/bookworm
root=$TMP/root
mkdir -p "$root/usr/lib" "$root/etc/systemd/system/multi-user.target.wants"
ln -s usr/lib "$root/lib"
cp -R "$src/usr/lib/systemd" "$root/usr/lib/" 2> /dev/null || true
[ -d "$src/usr/lib/tmpfiles.d" ] && cp -R "$src/usr/lib/tmpfiles.d" "$root/usr/lib/"
cp -R "$src/etc/systemd/." "$root/etc/systemd/"
cp "$src/etc/fstab" "$root/etc/" 2> /dev/null || true
cp "$racy" "$root/etc/systemd/system/"
ln -sf /etc/systemd/system/racy-ptmp-early.service "$root/etc/systemd/system/multi-user.target.wants/"
version=$(find "$src/usr/lib" -name 'libsystemd-shared-*.so' | sed -n 's/^.*libsystemd-shared-\([0-9]*\)\.so$/\1/p' |
          head -1)
before=$(grep -n '^Before=' "$racy" | cut -d: -f1)

rc=0; "$BOOTRACE" lint -q --root="$root" --systemd="$version" --format=json > "$TMP/root.json" 2> "$TMP/root.err" ||
        rc=$?
test_expect "the whole root with the racy unit has findings (exit 1)" test "$rc" = 1
test_expect "only the unit that closes the cycles is blamed, not systemd's own units" sh -c '
        units=$(jq -r "[.findings[] | select(.check == \"ordering-cycle\" or .check == \"sandbox-ordered-too-early\")
                        | .unit] | unique | join(\" \")" "$1")
        [ "$units" = racy-ptmp-early.service ] || { echo "blamed: $units"; exit 1; }' x "$TMP/root.json"
test_expect "one finding for one cause (the PrivateTmp= edge), not ordering-cycle as well" sh -c '
        n=$(jq "[.findings[] | select(.unit == \"racy-ptmp-early.service\")] | length" "$1")
        [ "$n" = 1 ] || { echo "$n findings"; exit 1; }' x "$TMP/root.json"
test_expect "the finding has the line of the unit's Before= ($before)" sh -c '
        got=$(jq -r "[.findings[] | select(.unit == \"racy-ptmp-early.service\") | .line] | join(\" \")" "$1")
        [ "$got" = "$2" ] || { echo "line \"$got\""; exit 1; }' x "$TMP/root.json" "$before"
