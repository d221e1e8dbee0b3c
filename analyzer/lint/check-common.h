/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Helpers shared by the checks (check-common.c) and the declarations of every check function. */

#include "lint/lint.h"

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

/* Is the edge one the version adds for the unit's sandboxing and execution settings (rules of class exec:
 * PrivateTmp=, the *Directory= settings, StandardOutput=journal, ..., and the mount paths they ask for), not a
 * default dependency, a type's (BusName=, sockets) or a line of the file? */
bool check_edge_of_sandbox(const LintContext *c, uint32_t edge);

/* The ordering cycles of the boot transaction that sandbox-ordered-too-early reports for u (their cause is one
 * of u's sandbox edges) rather than ordering-cycle: does cy go through such an edge of u? */
bool check_cycle_of_sandbox(const LintContext *c, const ModelUnit *u, const Cycle *cy);

/* How systemd breaks n ordering cycles with these victims (a bitmap over the graph's nodes, n_victims set):
 * "systemd breaks them by deleting one of 3 jobs, a different one from boot to boot", "... by deleting the job of
 * x.service, the only one it may delete", "systemd cannot break it: ..."; unfixable: one of them has no victim.
 * Returns a new string or NULL. */
char *check_cycle_breaking(const LintContext *c, size_t n, const uint8_t *victim, size_t n_victims, bool unfixable);
/* Adds the cycles (shortest first, at most max) as evidence, "(N longer cycles ... not listed)" for the rest, and
 * the victims with what the boot loses when each is deleted. Returns 0 or -ENOMEM. */
int check_evidence_cycles(const LintContext *c, Finding *f, const Cycle * const *cycles, size_t n, size_t max,
                          const uint8_t *victim);

int check_private_tmp_before_remount(const LintContext *c, ModelUnit *u, FindingList *out);
int check_writable_path_before_remount(const LintContext *c, ModelUnit *u, FindingList *out);
int check_path_on_separate_mount(const LintContext *c, ModelUnit *u, FindingList *out);
int check_bad_suppression(const LintContext *c, ModelUnit *u, FindingList *out);
int check_sandbox_ordered_too_early(const LintContext *c, ModelUnit *u, FindingList *out);
int check_unknown_key(const LintContext *c, ModelUnit *u, FindingList *out);
int check_invalid_value(const LintContext *c, ModelUnit *u, FindingList *out);
int check_exec_write_before_writable(const LintContext *c, ModelUnit *u, FindingList *out);
int check_exec_write_removed_by_tmpfiles(const LintContext *c, ModelUnit *u, FindingList *out);
int check_ordering_cycle(const LintContext *c, ModelUnit *u, FindingList *out);
