#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Replays the unit-file fuzz corpus (fixtures/fuzz/unit-file: seeds and former crashers) through the fuzz target;
# passes the replay's TAP (one line per input) through.
. "$(dirname "$0")/lib.sh"
rc=0
out=$(${WRAPPER:-} "$top_builddir/tests/fuzz/fuzz-unit-file" "$FIXTURES/fuzz/unit-file" 2>&1) || rc=$?
printf '%s\n' "$out" | grep -v '^1\.\.'
_test_n=$(printf '%s\n' "$out" | grep -cE '^(not )?ok ') || true
if [ "$rc" != 0 ] || [ "$_test_n" = 0 ]; then
        _test_failed=1
        _test_n=$((_test_n + 1))
        echo "not ok $_test_n - fuzz-unit-file exited with $rc"
fi
