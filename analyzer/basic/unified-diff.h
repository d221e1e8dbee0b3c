/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* A unified diff of two texts, line by line (Myers' O(ND) algorithm after stripping the common head and
 * tail), written as `diff -u` writes it without time stamps: "--- OLD", "+++ NEW", hunks "@@ -a,b +c,d @@"
 * with `context` lines around each change (hunks whose context would touch are merged), and "\ No newline at
 * end of file" after a last line without one. `patch -p0` and `git apply -p0` accept it; a creation diff has
 * old_label "/dev/null" and an empty old text. */

#include "basic/util.h"

/* Returns 0 with *ret the diff (NULL when the texts are equal), -E2BIG when more than 2000 lines differ,
 * -ENOMEM. */
int unified_diff(const char *old_text, size_t old_size, const char *new_text, size_t new_size,
                 const char *old_label, const char *new_label, unsigned context, char **ret);
