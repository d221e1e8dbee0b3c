/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The line-level unit-file parser: sections, comments, continuation lines, assignments with their line numbers,
 * following the rules of a given systemd version (knowledge/unit-syntax.md §1–2). It knows no keys: what a key
 * means is the business of unit-keys and the loader. */

#include "diag.h"

typedef struct ParseOptions {
        unsigned systemd; /* the version whose syntax rules apply; 0 = newest */
} ParseOptions;

typedef struct Assignment {
        char *section; /* "Unit", "Service", "X-Foo", ... as written (trimmed) */
        char *key;     /* trimmed, case kept */
        char *value;   /* continuation lines joined, trimmed; may be "" (an empty assignment) */
        unsigned line; /* line of the key */
} Assignment;

typedef struct UnitFile {
        char *path; /* the name to report in diagnostics (a path as seen inside the root) */
        Assignment *assignments;
        size_t n_assignments, allocated;
        char **sections; /* distinct section names in order of first appearance */
} UnitFile;

UnitFile *unit_file_free(UnitFile *f);
static inline void unit_file_freep(UnitFile **f) {
        unit_file_free(*f);
}

/* Parses size bytes of data as a unit file named path. Returns 0 and *ret on success; warnings that systemd
 * would log go to diags (with path and line). Returns -EBADMSG when the systemd version would refuse the whole
 * file (a DIAG_ERROR naming the line says why), -ENOMEM on OOM. */
int unit_file_parse(const char *path, const char *data, size_t size, const ParseOptions *opts, UnitFile **ret,
                    DiagList *diags);
