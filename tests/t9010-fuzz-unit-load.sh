#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Replays the unit-load fuzz corpus (fixtures/fuzz/unit-load: seeds and former crashers) through its fuzz target.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fuzz-lib.sh"
fuzz_replay fuzz-unit-load "$FIXTURES/fuzz/unit-load"
