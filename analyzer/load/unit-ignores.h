/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The suppression comments of a unit file: "# bootrace: ignore CHECK[,CHECK...] [-- reason]" (or ';'), CHECK may
 * be "all". They are read with the file (loader.c keeps them in the unit's Source), so that a comment counts
 * wherever the file came from: a directory, a .deb, a debian/ source tree or standard input. */

#include <stddef.h>

typedef struct SourceIgnore {
        unsigned line;
        char **checks; /* as written; empty when the comment names none (said by the caller) */
} SourceIgnore;

/* Finds the comments in size bytes of data (a unit file; NULs end lines). Returns 0 with *ret (NULL when there are
 * none) and *ret_n, or -ENOMEM. */
int source_ignores_parse(const char *data, size_t size, SourceIgnore **ret, size_t *ret_n);
void source_ignores_free(SourceIgnore *l, size_t n);
