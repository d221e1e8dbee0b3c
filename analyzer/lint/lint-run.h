/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* One lint pass as a library call: build the model of one systemd version over a root and/or extra unit
 * directories, count the given units as enabled the way their [Install] sections say, build the boot
 * transaction and its ordering cycles, and run every check. `bootrace lint` runs it once; `bootrace fix` runs
 * it once per candidate repair (with the candidate unit in a directory searched first). Nothing is printed. */

#include <sys/stat.h>

#include "lint/exec-writes.h"
#include "lint/lint.h"
#include "lint/suppress.h"
#include "load/root.h"

typedef struct LintRunOptions {
        const Root *root;          /* NULL: no tree, only extra_dirs and the base model */
        char **extra_dirs;         /* host directories searched first, highest priority first */
        const Root *package_root;  /* packages read into memory (package.h) and their unit directories, */
        char **package_dirs;       /* searched after extra_dirs; their units count as given too */
        const TmpfilesList *tmpfiles; /* what systemd-tmpfiles creates at boot, or NULL */
        unsigned version;
        const char *target;        /* the canonical --target name, or NULL: its tmpfiles.d lines, ModelOptions.target */
        const char *distro;        /* "ubuntu", "debian", ... or NULL */
        const Profile *profile;    /* what a default installation of the target adds (rules.h), or NULL */
        const char *generator_dir; /* offline fstab-generator output (lint_generate()), or NULL */
        const char *anchor;        /* the transaction's target, NULL: default.target */
        bool anchor_given;         /* the anchor was asked for: failing to load it is an input error */
        char **names;              /* the units to load and lint (templates already made instances) */
        char **check_only;         /* NULL: check every unit of names; else only these */
        /* units whose [Install] counts as enabled; NULL: those whose fragment is in an extra directory */
        char **install_names;
        SuppressionFile *suppressions; /* may be NULL */
} LintRunOptions;

typedef struct LintRun {
        Model *model;
        Transaction *transaction;  /* NULL when the anchor could not be loaded */
        Cycle *cycles;
        size_t n_cycles;
        bool cycles_truncated;
        ModelUnit **units;         /* the units of names that loaded (borrowed from model) */
        size_t n_units;
        char **linted;             /* their ids */
        char **load_errors;        /* "NAME: not-found, PATH" for each unit of names that did not load */
        bool input_error;          /* a unit did not load, or the anchor asked for did not */
        FindingList findings;      /* unsorted, paths as loaded */
        const TmpfilesList *boot_tmpfiles; /* what the boot removes with (LintContext.boot_tmpfiles) */
        TmpfilesList boot_tmpfiles_own;
        /* per unit, its exec-time writes as made before model_finish(), for the checks when they stay the same
         * (lint_exec_writes_settled()); NULL: the checks make them again */
        ExecWriteList *unit_writes;
} LintRun;

/* Returns 0 (check run->input_error), or -errno: -ENOMEM, or the model or a check failing (diags say why). */
int lint_run(const LintRunOptions *o, const Rules *rules, LintRun **ret, DiagList *diags);
LintRun *lint_run_free(LintRun *r);
static inline void lint_run_freep(LintRun **r) {
        lint_run_free(*r);
}
/* lint_run_free() for the end of a run: the model goes through model_release(). */
LintRun *lint_run_release(LintRun *r);
static inline void lint_run_releasep(LintRun **r) {
        lint_run_release(*r);
}

/* The name a unit file is linted under: a template as the instance "lint-instance", as systemd-analyze verify
 * does. */
int lint_unit_name(const char *name, char **ret);

/* A PATH argument of lint or fix: a unit file, or a directory of them (its regular files with a unit name).
 * Adds the names to lint (lint_unit_name()) to *names, the directory to search first to *extra and, when files
 * is not NULL, the absolute path of each unit file whose name was new to *files. st is stat() of arg. Returns
 * the number of unit files arg holds (1 for a file, 0 for a directory without any), -EINVAL when the file's name
 * is no unit name, -ENOMEM, or the -errno of reading the directory. */
int lint_collect_path(const char *arg, const struct stat *st, char ***names, char ***extra, char ***files);

/* Runs our model of systemd-fstab-generator for root into a fresh temporary directory (under $TMPDIR).
 * *ret_dir is NULL without a root. Remove it with lint_generated_remove(). */
/* Enables u the way its [Install] section says, as packaging helpers (deb-systemd-helper, %systemd_post) do:
 * WantedBy=X becomes X Wants=u (RequiredBy=: Requires=, UpheldBy=: Upholds=), loading X. Call before
 * model_finish(). Returns 0 or -ENOMEM. */
int lint_enable_by_install(Model *m, ModelUnit *u);
int lint_generate(const Root *root, const FeatureSet *fs, char **ret_dir, DiagList *diags);
void lint_generated_removep(char **dir);
