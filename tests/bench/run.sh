#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# make bench: runs every tests/bench/bench-*.sh. Timing lives here, never in pass/fail tests. Each script prints
# what it measured; a script that cannot run (missing data or tools) says why and is skipped.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$(pwd)}"
: "${BOOTRACE:=$top_builddir/bootrace}"
: "${SHARED:=$top_srcdir/../shared}"
export top_srcdir top_builddir BOOTRACE SHARED
rc=0
for b in "$top_srcdir"/tests/bench/bench-*.sh; do
        [ -e "$b" ] || continue
        echo "== $(basename "$b")"
        bash "$b" || { echo "$(basename "$b"): failed"; rc=1; }
done
exit $rc
