#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Replays the journal-events fuzz corpus (fixtures/fuzz/journal-events) through the fuzz target's replay main,
# which speaks TAP itself: one line per input; a crash or sanitizer report fails it.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@" # bash features below (arrays, process substitution)
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
exec ${WRAPPER:-} "$top_builddir/tests/fuzz/fuzz-journal-events" "$top_srcdir/fixtures/fuzz/journal-events"
