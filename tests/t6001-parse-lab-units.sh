#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every unit file and drop-in of the lab trees (real Debian bullseye/bookworm/trixie) parses without error under
# the line parser, at systemd 247, 252 and 257 rules: passes through the TAP of test-unit-file in PARSE_TREES mode.
. "$(dirname "$0")/lib.sh"
lab_require bullseye bookworm trixie
SRV=${LAB_SRV:-/srv/lab}

rc=0
out=$(PARSE_TREES="$SRV/bullseye:$SRV/bookworm:$SRV/trixie" ${WRAPPER:-} \
        "$top_builddir/tests/unit/test-unit-file" 2>&1) || rc=$?
printf '%s\n' "$out" | grep -v '^1\.\.'
_test_n=$(printf '%s\n' "$out" | grep -cE '^(not )?ok ') || true
if [ "$rc" != 0 ] || [ "$_test_n" = 0 ]; then
        _test_failed=1
        _test_n=$((_test_n + 1))
        echo "not ok $_test_n - test-unit-file exited with $rc"
fi
