/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Suppressions: a comment in a unit's own files ("# bootrace: ignore CHECK[,CHECK...] [-- reason]", CHECK may be
 * "all"), and a file of "UNIT: CHECK [# reason]" lines (lintian-overrides style; UNIT may be "*"). A suppressed
 * finding is kept, marked with where the suppression came from, and never counts for --fail-on. */

#include "basic/diag.h"
#include "lint/finding.h"
#include "load/unit.h"

typedef struct SuppressionFile {
        char *path;
        char **units, **checks; /* parallel */
        unsigned *lines;
        bool *used;
} SuppressionFile;

/* Reads a suppression file. Bad lines are DIAG_ERRORs with file:line (-EBADMSG). */
int suppression_file_load(const char *path, SuppressionFile *ret, DiagList *diags);
void suppression_file_done(SuppressionFile *s);

/* Marks the findings of u that its files (their ignore comments, read with them: load/unit-ignores.h) or s
 * suppress. s may be NULL. Comments that can never match are check-bad-suppression.c's findings. */
int suppress_findings(FindingList *l, size_t first, const Unit *u, SuppressionFile *s);
