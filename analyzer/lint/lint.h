/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* What the checks share: the model of the target version, the units being linted, and helpers to describe
 * ordering chains and to find which mount unit a path lives on. One check per file (check-ID.c), registered in
 * check_table[] (checks.c); their metadata lives in rules/checks.xml. */

#include "lint/finding.h"
#include "load/tmpfiles.h"
#include "model/model.h"
#include "model/transaction.h"

typedef struct LintContext {
        Model *model;
        const Rules *rules;
        unsigned version;
        ModelUnit **units;  /* the units to lint */
        size_t n_units;
        DiagList *diags;    /* load and parse diagnostics of the linted units, for the key/value checks */
        /* the diagnostics that name a file, as indexes into diags sorted by file name (then index), covering
         * the first n_diags_indexed diagnostics; NULL: none indexed (lint_diags_of_file()) */
        const size_t *diags_by_file;
        size_t n_diags_by_file, n_diags_indexed;
        /* the boot transaction and its ordering cycles (NULL when the anchor could not be loaded) */
        const Transaction *transaction;
        const char *transaction_anchor;
        const Cycle *cycles;
        size_t n_cycles;
        bool cycles_truncated;
        /* what systemd-tmpfiles-setup.service creates at boot (the packages' and the root's tmpfiles.d), or
         * NULL: a path it creates exists only after that service (lint_tmpfiles_evidence()) */
        const TmpfilesList *tmpfiles;
        /* the lines systemd-tmpfiles-setup.service removes with at boot: the root's tmpfiles.d when it configures
         * /tmp, else the target's (rules/target-tmpfiles.xml); never NULL in a lint run */
        const TmpfilesList *boot_tmpfiles;
        const Root *root;   /* the tree linted, or NULL */
        const char *target; /* the canonical target name, or NULL */
        /* the exec-time writes of the unit the checks are on, made once for all of them (lint_unit_writes());
         * NULL: made anew for each check */
        struct LintUnitWrites *writes;
} LintContext;

/* The indexes of the diagnostics about file, in the order they were added (caller frees *ret). Returns how many
 * or -ENOMEM. */
int lint_diags_of_file(const LintContext *c, const char *file, size_t **ret);
/* The index lint_diags_of_file() uses: c->diags_by_file (caller frees it). */
int lint_index_diags(LintContext *c, size_t **ret_index);

typedef int (*CheckFunc)(const LintContext *c, ModelUnit *u, FindingList *out);

typedef struct Check {
        const char *id;
        CheckFunc run;
} Check;

extern const Check check_table[];
extern const size_t check_table_size;

/* Adds a finding for check id with the severity of its rules entry. Returns NULL on OOM. */
Finding *lint_finding(const LintContext *c, FindingList *out, const char *id, const ModelUnit *u, const char *file,
                      unsigned line, const char *fmt, ...) _printf_(7, 8);

/* "a.service After=b.service (file.service:3)" / "(implicit: rule private-tmp-tmpfiles, systemd 237)". */
char *lint_describe_edge(const LintContext *c, uint32_t edge);
/* Adds the chain of edges as evidence lines, each prefixed with prefix. */
int lint_evidence_chain(const LintContext *c, Finding *f, const char *prefix, const uint32_t *chain, size_t n);

/* Is u ordered after the unit called name? 1 yes (chain returned when asked), 0 no (also when the unit is
 * unknown), <0 error. */
int lint_ordered_after(const LintContext *c, const ModelUnit *u, const char *name, uint32_t **ret_chain,
                       size_t *ret_n);

/* The mount unit that holds path: the deepest prefix whose mount unit is loaded in the model (a unit file, the
 * base model, fstab), else "-.mount". Returns a new string. */
char *lint_mount_for_path(const LintContext *c, const char *path);

/* The effective value of a single-valued key, or NULL; the setting itself in *ret_setting (optional). */
const char *lint_value(const ModelUnit *u, const char *section, const char *key, const Setting **ret_setting);
/* What the boot loses when systemd deletes the start job of the unit called name to break a cycle. */
const char *lint_job_loss(const LintContext *c, const char *name);

/* systemd's booleans; -EINVAL for anything else. */
int lint_bool(const char *s);
