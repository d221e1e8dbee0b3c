/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Every fuzz target defines this libFuzzer entry point; tests/fuzz/fuzz-main.c replays corpus files through it in
 * a normal build. */

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
