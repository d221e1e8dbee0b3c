#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# bootrace explain, and the documentation of every check: each id in rules/checks.xml has its section in
# bootrace-checks(7) and an explanation; unknown ids are a usage error.
. "$(dirname "$0")/lib.sh"

ids=$(sed -n 's/.*<check id="\([^"]*\)".*/\1/p' "$top_srcdir/rules/checks.xml")
test_expect "there are checks" test -n "$ids"
test_expect "explain lists every check" sh -c '
        out=$("$BOOTRACE" explain) || exit 1
        for id in $0; do echo "$out" | grep -q "^$id " || { echo "missing $id"; exit 1; }; done' "$ids"
for id in $ids; do
        test_expect "bootrace-checks(7) documents $id" grep -q "^## $id (" "$top_srcdir/man/bootrace-checks.7.scd"
        test_expect "explain $id prints its explanation" sh -c '
                "$BOOTRACE" explain "$0" | sed -n 3p | grep -q .' "$id"
done
test_expect "every check in bootrace-checks(7) exists" sh -c '
        for id in $(sed -n "s/^## \([a-z0-9-]*\) (.*/\1/p" "$0"); do
                "$BOOTRACE" explain "$id" > /dev/null || exit 1
        done' "$top_srcdir/man/bootrace-checks.7.scd"
test_expect "explain --format=json is an array of checks" sh -c '
        "$BOOTRACE" explain --format=json private-tmp-before-remount | grep -q "^\[{\"id\":\"private-tmp-before-remount\""'
test_expect "an unknown check is a usage error" expect_exit 2 bootrace explain no-such-check
