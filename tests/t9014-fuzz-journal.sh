#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Replays the journal fuzz corpus (fixtures/fuzz/journal: small journal files in the four layouts, damaged ones,
# and former crashers) through its fuzz target.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fuzz-lib.sh"
fuzz_replay fuzz-journal "$FIXTURES/fuzz/journal"
