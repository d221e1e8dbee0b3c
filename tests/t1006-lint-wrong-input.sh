#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Wrong input never passes silently (issue 20, item 4): a PATH or --root with no unit files is an error, not
# "0 errors"; an error printed on stderr never goes with exit status 0; units a package ships as absolute
# symlinks into itself (dracut-core's shape) are followed inside the package and judged.
# fix of a PATH without unit files is an error too.
. "$(dirname "$0")/lib.sh"

units=$FIXTURES/lint/lp1750780-ubuntu-xenial/units

# lint_rc WANT NAME ARGS...: lint must exit WANT; stderr in $TMP/NAME.err, stdout in $TMP/NAME.out
lint_rc() {
        local want=$1 name=$2 rc=0; shift 2
        "$BOOTRACE" lint "$@" > "$TMP/$name.out" 2> "$TMP/$name.err" || rc=$?
        [ $rc = "$want" ] || { echo "exit status $rc, expected $want"; cat "$TMP/$name.out" "$TMP/$name.err"; return 1; }
}

mkdir -p "$TMP/empty" "$TMP/emptyroot/etc"
test_expect "lint EMPTYDIR: exit 2 naming the directory" sh -c '
        rc=0; "$BOOTRACE" lint --target=debian-bookworm "$0" > "$TMP/out" 2> "$TMP/err" || rc=$?
        [ $rc = 2 ] && grep -q "$0: no unit files in it" "$TMP/err" && ! grep -q "0 errors" "$TMP/out"' "$TMP/empty"
test_expect "lint EMPTYDIR among good paths: still exit 2" sh -c '
        rc=0; "$BOOTRACE" lint --target=ubuntu-bionic "$1" "$0" > /dev/null 2> "$TMP/err" || rc=$?
        [ $rc = 2 ] && grep -q "no unit files in it" "$TMP/err"' "$TMP/empty" "$units"
test_expect "lint --format=json EMPTYDIR: exit 2, the report names the directory in input_errors" sh -c '
        rc=0; "$BOOTRACE" lint --format=json --target=debian-bookworm "$0" > "$TMP/out" 2> /dev/null || rc=$?
        [ $rc = 2 ] && jq -e --arg d "$0" "[.input_errors[] | select(.file == \$d)] | length == 1" "$TMP/out"' \
        "$TMP/empty"
test_expect "lint --root=ROOT-WITHOUT-UNITS: exit 2 naming the root" sh -c '
        rc=0; "$BOOTRACE" lint --root="$0" --systemd=252 > /dev/null 2> "$TMP/err" || rc=$?
        [ $rc = 2 ] && grep -q -- "--root=$0: no unit files" "$TMP/err"' "$TMP/emptyroot"
test_expect "lint of a good directory still judges it (exit 1 for xenial's race)" \
        lint_rc 1 good --target=ubuntu-xenial "$units"

# a package tree whose units are absolute symlinks into the package itself, as dracut-core ships them
P=$TMP/pkg
mkdir -p "$P/DEBIAN" "$P/lib/systemd/system/sysinit.target.wants" "$P/usr/lib/pkgmod/units"
printf 'Package: pkgmod\nVersion: 1\nArchitecture: all\nMaintainer: T <t@example.org>\nDescription: x\n x\n' \
        > "$P/DEBIAN/control"
printf '[Unit]\nDefaultDependencies=no\n\n[Service]\nType=oneshot\nExecStart=/bin/true\nPrivateTmp=yes\n\n[Install]\nWantedBy=sysinit.target\n' \
        > "$P/usr/lib/pkgmod/units/pkgmod-early.service"
ln -s /usr/lib/pkgmod/units/pkgmod-early.service "$P/lib/systemd/system/pkgmod-early.service"
ln -s ../pkgmod-early.service "$P/lib/systemd/system/sysinit.target.wants/pkgmod-early.service"
test_expect "a unit shipped as an absolute symlink into the package is judged (xenial: its race)" sh -c '
        rc=0; "$BOOTRACE" lint --target=ubuntu-xenial --no-color "$0" > "$TMP/pkg.out" 2> "$TMP/pkg.err" || rc=$?
        [ $rc = 1 ] || { echo "exit $rc"; cat "$TMP/pkg.out" "$TMP/pkg.err"; exit 1; }
        grep -q "pkgmod-early.service:[0-9]*: error: \[private-tmp-before-remount\]" "$TMP/pkg.out" &&
        ! grep -q "error:" "$TMP/pkg.err"' "$P"
test_expect "... and counted in the JSON summary, no error on stderr" sh -c '
        "$BOOTRACE" lint -q --target=debian-bookworm --format=json "$0" > "$TMP/pkg.json" 2> "$TMP/pkg.err"
        jq -e ".summary.units == 1" "$TMP/pkg.json" && ! grep -q "error:" "$TMP/pkg.err"' "$P"
if command -v dpkg-deb > /dev/null; then
        test_expect "... the same from the .deb (its target read in a second pass over data.tar)" sh -c '
                dpkg-deb --root-owner-group --build "$0" "$TMP/pkgmod_1_all.deb" > /dev/null &&
                "$BOOTRACE" lint -q --target=debian-bookworm --format=json "$TMP/pkgmod_1_all.deb" \
                        > "$TMP/deb.json" 2> "$TMP/deb.err" &&
                jq -e ".summary.units == 1" "$TMP/deb.json" && ! grep -q "error:" "$TMP/deb.err"' "$P"
else
        test_skip "... the same from the .deb (its target read in a second pass over data.tar)" \
                "dpkg-deb not installed"
fi

# a symlink to a file the package does not ship, pulled into the boot: systemd cannot load it -- an error, and
# so exit status 2, not 0
Q=$TMP/pkg2
mkdir -p "$Q/DEBIAN" "$Q/lib/systemd/system/sysinit.target.wants"
cp "$P/DEBIAN/control" "$Q/DEBIAN/control"
printf '[Unit]\nDescription=fine\n\n[Service]\nExecStart=/bin/true\n' > "$Q/lib/systemd/system/fine.service"
ln -s /usr/lib/elsewhere/gone.service "$Q/lib/systemd/system/gone.service"
ln -s ../gone.service "$Q/lib/systemd/system/sysinit.target.wants/gone.service"
for fmt in text json; do
        test_expect "an error on stderr never goes with exit 0 ($fmt: a dangling symlink in the boot)" sh -c '
                rc=0; "$BOOTRACE" lint --target=debian-bookworm --format=$1 "$0" > /dev/null 2> "$TMP/q.err" || rc=$?
                grep -q "gone.service: error: symlink to /usr/lib/elsewhere/gone.service" "$TMP/q.err" &&
                [ $rc = 2 ] || { echo "exit $rc"; cat "$TMP/q.err"; exit 1; }' "$Q" $fmt
done
test_expect "fix EMPTYDIR: exit 2 naming the directory too" sh -c '
        rc=0; "$BOOTRACE" fix --target=debian-bookworm "$0" > /dev/null 2> "$TMP/err" || rc=$?
        [ $rc = 2 ] && grep -q "$0: no unit files in it" "$TMP/err"' "$TMP/empty"
