#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every unit file and drop-in of the lab trees (real Debian bullseye/bookworm/trixie/forky) parses without error
# under the line parser: passes through the TAP of test-unit-file in PARSE_TREES mode. The line parser knows no
# systemd version, so forky runs here even while its systemd is newer than the newest modelled one.
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2086
lab_require $LAB_SUITES
SRV=${LAB_SRV:-/srv/lab}
trees=$(for s in $LAB_SUITES; do printf '%s:' "$SRV/$s"; done)

rc=0
out=$(PARSE_TREES="${trees%:}" ${WRAPPER:-} \
        "$top_builddir/tests/unit/test-unit-file" 2>&1) || rc=$?
printf '%s\n' "$out" | grep -v '^1\.\.'
_test_n=$(printf '%s\n' "$out" | grep -cE '^(not )?ok ') || true
if [ "$rc" != 0 ] || [ "$_test_n" = 0 ]; then
        _test_failed=1
        _test_n=$((_test_n + 1))
        echo "not ok $_test_n - test-unit-file exited with $rc"
fi
