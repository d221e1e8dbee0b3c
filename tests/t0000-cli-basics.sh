#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The command line: --help, --version, unknown verbs and options, exit status 2 for usage errors.
. "$(dirname "$0")/lib.sh"

test_expect "--help lists every verb" sh -c '
        out=$("$BOOTRACE" --help) || exit 1
        for v in show stats; do echo "$out" | grep -q "^  $v " || { echo "missing $v"; exit 1; }; done'
test_expect "--version prints the version" sh -c '"$BOOTRACE" --version | grep -q "^bootrace [0-9]"'
test_expect "no verb is a usage error" expect_exit 2 bootrace
test_expect "unknown verb is a usage error" expect_exit 2 bootrace frobnicate
test_expect "unknown option is a usage error naming it" sh -c '
        "$BOOTRACE" show --frob 2> "$TMP/err"; rc=$?
        [ $rc = 2 ] && grep -q -- "--frob" "$TMP/err"'
test_expect "bad --systemd value is a usage error" expect_exit 2 bootrace show --systemd=abc x.service
test_expect "bad --format value is a usage error" expect_exit 2 bootrace show --format=yaml x.service
test_expect "verb --help exits 0" bootrace show --help
if [ -f "$(dirname "$BOOTRACE_BIN")/rules/targets.xml" ]; then
        test_expect "an uninstalled bootrace finds the rules beside it" \
                env -u BOOTRACE_RULES_DIR "$BOOTRACE" explain private-tmp-before-remount
else
        test_skip "an uninstalled bootrace finds the rules beside it" "built outside the source tree"
fi
