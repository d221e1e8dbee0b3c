#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Replays the value judges' fuzz corpus (fixtures/fuzz/values: seeds and former crashers) through its fuzz target.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fuzz-lib.sh"
fuzz_replay fuzz-values "$FIXTURES/fuzz/values"
