#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Replays the rules fuzz corpus (fixtures/fuzz/rules: seeds and former crashers) through its fuzz target.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fuzz-lib.sh"
fuzz_replay fuzz-rules "$FIXTURES/fuzz/rules"
