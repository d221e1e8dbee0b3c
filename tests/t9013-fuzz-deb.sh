#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Replays the deb fuzz corpus (fixtures/fuzz/deb: small real packages, damaged and hostile ones, and former
# crashers) through its fuzz target.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fuzz-lib.sh"
fuzz_replay fuzz-deb "$FIXTURES/fuzz/deb"
