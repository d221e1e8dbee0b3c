/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* "Did you mean": the candidate closest to a mistyped word. */

#include "basic/util.h"

/* The edit distance of a and b: insertions, deletions, substitutions and swaps of two neighbours, each 1. */
size_t suggest_distance(const char *a, const char *b);
/* Of the n candidates (NULL entries skipped), the one closest to word, when it is close enough to be a typo of
 * it (a distance of at most a third of its length, and at least 1; never word itself) and no other is as
 * close; else NULL. Borrowed from candidates. */
const char *suggest_closest(const char *word, const char * const *candidates, size_t n);
