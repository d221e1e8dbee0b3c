#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Replays the live-getall fuzz corpus (fixtures/fuzz/live-getall: seeds and former crashers) through its fuzz
# target: GetAll(Unit) replies built from recipes, parsed by live_unit_from_getall().
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fuzz-lib.sh"
fuzz_replay fuzz-live-getall "$FIXTURES/fuzz/live-getall"
