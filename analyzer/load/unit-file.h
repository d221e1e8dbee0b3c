/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The line-level unit-file parser: sections, comments, continuation lines, assignments with their line numbers,
 * following the rules of a given systemd version (knowledge/unit-syntax.md §1–2). It knows no keys: what a key
 * means is the business of unit-keys and the loader. */

#include "basic/diag.h"
#include "rules/features.h"

typedef struct ParseOptions {
        const FeatureSet *features; /* the syntax rules of a systemd version (rules/features.xml); required */
        /* The sections systemd knows for this unit type (e.g. {"Unit", "Service", "Install", NULL}), or NULL to
         * keep every section. With a list, other sections are dropped like systemd does: with a warning, or
         * silently for "X-" names and for names listed with a leading '-'. Their lines are skipped entirely, so
         * a line without '=' in them does not fail the file even where it would elsewhere (<= v242). */
        const char * const *sections;
} ParseOptions;

/* ".include FILE" (honoured by systemd <= v245) cannot be followed here: it becomes an Assignment with key
 * UNIT_FILE_INCLUDE_KEY, value FILE as written and the section in effect (NULL before the first header), in file
 * order. The loader splices the included file's assignments in its place: FILE relative to the directory of the
 * including file; a missing FILE is silently ignored, a FILE that fails to parse fails the including file; the
 * included file starts without a section, and afterwards the including file's section continues. systemd
 * follows .include only in unit fragments (drop-ins log ".include not allowed here. Ignoring."). From v246 the
 * line is an ordinary line without '=' (a warning). */
#define UNIT_FILE_INCLUDE_KEY ".include"

typedef struct Assignment {
        char *section; /* "Unit", "Service", "X-Foo", ... between the brackets, exactly (NULL only for .include) */
        char *key;     /* trimmed, case kept */
        char *value;   /* continuation lines joined, trimmed; may be "" (an empty assignment) */
        unsigned line; /* line of the key (the first line of a continued assignment) */
} Assignment;

typedef struct UnitFile {
        char *path; /* the name to report in diagnostics (a path as seen inside the root) */
        Assignment *assignments;
        size_t n_assignments, allocated;
        /* The one allocation every assignment's strings live in (each distinct section name once). A loader
         * that keeps the strings takes the pool (and sets it NULL): the assignments then point into its copy. */
        char *pool;
} UnitFile;

UnitFile *unit_file_free(UnitFile *f);
static inline void unit_file_freep(UnitFile **f) {
        unit_file_free(*f);
}

/* Parses size bytes of data as a unit file named path. Returns 0 and *ret on success; warnings that systemd
 * would log go to diags (with path and line; diags may be NULL). Returns -EBADMSG when the systemd version would
 * refuse the whole file (a DIAG_ERROR naming the line says why; *ret then has the assignments before that line,
 * which systemd has read, and warned about, before it gave up), -ENOMEM on OOM. A NUL byte ends the line where
 * the features say so (unit-file-nul-ends-line, read_line()); before, with fgets(), the rest of that line is lost.
 * opts and its features are required. */
int unit_file_parse(const char *path, const char *data, size_t size, const ParseOptions *opts, UnitFile **ret,
                    DiagList *diags);
