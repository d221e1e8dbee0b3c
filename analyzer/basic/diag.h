/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Diagnostics collected by library modules (which never print): each names a file and line where known.
 * Verbs decide how to show them. */

#include "basic/util.h"

typedef enum DiagLevel {
        DIAG_ERROR,   /* the input could not be used (systemd would refuse it too, or we cannot read it) */
        DIAG_WARNING, /* systemd warns and ignores the item */
        DIAG_NOTICE,  /* informational: a behaviour worth knowing */
        _DIAG_LEVEL_MAX,
        _DIAG_LEVEL_INVALID = -EINVAL,
} DiagLevel;

typedef struct Diag {
        DiagLevel level;
        char *file; /* may be NULL */
        unsigned line; /* 0 = no line */
        char *message;
} Diag;

typedef struct DiagList {
        Diag *items;
        size_t n, allocated;
} DiagList;

const char *diag_level_to_string(DiagLevel l);

void diag_list_done(DiagList *l);
/* Appends src's diagnostics to dst (NULL: dropped) and empties src. Returns 0 or -ENOMEM (src kept). */
int diag_list_move(DiagList *dst, DiagList *src);
/* Appends copies of src's diagnostics at max_level or more severe (DIAG_ERROR: the errors) to dst (NULL:
 * dropped). Returns 0 or -ENOMEM. */
int diag_list_copy(DiagList *dst, const DiagList *src, DiagLevel max_level);
/* Appends one diagnostic; returns 0 or -ENOMEM. */
int diag_add(DiagList *l, DiagLevel level, const char *file, unsigned line, const char *fmt, ...) _printf_(5, 6);
size_t diag_count(const DiagList *l, DiagLevel level);
/* Prints "file:line: level: message" lines to f, control characters in file and message escaped. */
void diag_list_print(const DiagList *l, FILE *f, DiagLevel max_level);
