/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Helpers shared by the checks (check-common.c) and the declarations of every check function. */

#include "lint/lint-paths.h"
#include "lint/lint.h"

/* Is path dir itself or below it? */
bool path_startswith_dir(const char *path, const char *dir);

/* The common judgement of the two "before remount" checks: paths on the root file system need the unit ordered
 * after systemd-remount-fs.service. Adds one finding (with evidence and a fix) when it is not. */
int check_root_writable(const LintContext *c, ModelUnit *u, FindingList *out, const char *id, char **paths,
                        const Setting *why, const char *consequence);

/* check_root_writable() over the writes of rules/exec-writes.xml whose check= names id: those on the root file
 * system (not /run), the first assignment that asks for one, and as the consequence intro followed by the
 * version's <fails> of the first. */
int check_root_writes(const LintContext *c, ModelUnit *u, FindingList *out, const char *id, const char *intro);

/* Adds "created at boot by systemd-tmpfiles-setup.service (FILE:LINE: TYPE PATH)" when a tmpfiles.d line
 * creates path: it exists only once that service has run, which itself runs after the remount. */
int check_evidence_tmpfiles(const LintContext *c, Finding *f, const char *path);

/* Adds the unit's own After= edges as evidence (what does order it, and from where). */
int check_evidence_after_edges(const LintContext *c, Finding *f, const ModelUnit *u);

int check_private_tmp_before_remount(const LintContext *c, ModelUnit *u, FindingList *out);
int check_writable_path_before_remount(const LintContext *c, ModelUnit *u, FindingList *out);
int check_path_on_separate_mount(const LintContext *c, ModelUnit *u, FindingList *out);
int check_sandbox_ordered_too_early(const LintContext *c, ModelUnit *u, FindingList *out);
int check_unknown_key(const LintContext *c, ModelUnit *u, FindingList *out);
int check_invalid_value(const LintContext *c, ModelUnit *u, FindingList *out);
int check_exec_write_before_writable(const LintContext *c, ModelUnit *u, FindingList *out);
int check_exec_write_removed_by_tmpfiles(const LintContext *c, ModelUnit *u, FindingList *out);
int check_ordering_cycle(const LintContext *c, ModelUnit *u, FindingList *out);
