/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Findings of the checks: what, where (unit, file, line), why (evidence: the chain of edges, the missing link),
 * and the proposed fix when there is one. Severity is shared with --fail-on. */

#include "basic/severity.h"


/* The repair `bootrace fix` chose for the finding's unit (see fix-search.h), for lint's JSON. */
typedef struct FindingFix {
        char *candidate;   /* the chosen repair, NULL when none exists */
        char *form;        /* "drop-in" (the fix field is drop-in text) or "diff" (a unified diff of the file) */
        unsigned lines;    /* settings added or removed */
        char *note;        /* what it means beyond ordering, or NULL */
        char **delayed;    /* "X would now wait for A, B": units ordered after the unit that wait longer */
        char **rejected;   /* pairs: candidate, reason */
        char *none_reason; /* candidate == NULL: why no repair exists */
} FindingFix;

FindingFix *finding_fix_free(FindingFix *x);
static inline void finding_fix_freep(FindingFix **x) {
        finding_fix_free(*x);
}

typedef struct Finding {
        char *check;       /* stable check id, e.g. "private-tmp-before-remount" */
        Severity severity;
        char *unit;
        char *file;        /* display path, NULL when no file is to blame */
        unsigned line;     /* 0 = no line */
        char *message;
        char **evidence;   /* one line each */
        char *fix;         /* proposed repair (text), or NULL */
        FindingFix *fix_details; /* how it was chosen, or NULL */
        char *suppressed;  /* NULL, or where the suppression came from ("file:line" or "override file:line") */
        char *profile;     /* NULL, or what of the target's profile the finding goes through ("with ifupdown's
                            * networking.service, as installed by default on debian-bookworm") */
} Finding;

typedef struct FindingList {
        Finding *items;
        size_t n, allocated;
} FindingList;

void finding_list_done(FindingList *l);
/* Adds a finding; evidence may be NULL. Returns a pointer to it (to add evidence or a fix), NULL on OOM. */
Finding *finding_add(FindingList *l, const char *check, Severity severity, const char *unit, const char *file,
                     unsigned line, const char *fmt, ...) _printf_(7, 8);
int finding_add_evidence(Finding *f, const char *fmt, ...) _printf_(2, 3);
/* Sorts by file, line, check id (stable output). */
void finding_list_sort(FindingList *l);
/* Counts unsuppressed findings at or above severity s. */
size_t finding_list_count_at_least(const FindingList *l, Severity s);
