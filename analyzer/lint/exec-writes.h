/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The exec-time write model applied to one unit: the writes of rules/exec-writes.xml whose conditions hold for
 * the unit at the context's version, with their paths expanded (%n the unit name, {word}, {dest} and {src} the
 * paths of each word of the setting; %b, the boot id, stays as written; in-root="yes" writes below RootDirectory=,
 * none with RootImage=), and the removal judgement of the boot's tmpfiles.d. */

#include "lint/lint.h"

typedef struct ExecWriteAt {
        const ExecWrite *write;
        char *path;             /* what is written */
        char *under;            /* the directory whose file system takes the write */
        const Setting *setting; /* the assignment that asks for it; NULL when a normalisation implies it */
} ExecWriteAt;

typedef struct ExecWriteList {
        ExecWriteAt *items;
        size_t n;
} ExecWriteList;

void exec_write_list_done(ExecWriteList *l);
/* The writes of u for c->version. Returns 0 or -ENOMEM. */
int lint_exec_writes(const LintContext *c, const ModelUnit *u, ExecWriteList *ret);

/* Whether lint_exec_writes() of a loaded unit says the same at every later point of a lint run at version: no
 * condition of the writes (or of the normalisations that may imply their setting) that holds at version asks about
 * other units or the graph (mounts-for=, loaded=, after=), which model_finish() and further loads change. Then the
 * writes made before model_finish() serve the checks after it. */
bool lint_exec_writes_settled(const Rules *rules, unsigned version);

/* The writes of the unit the checks of a lint run are on: each check of a unit asks for them, so c->writes keeps
 * the last unit's (made again for another unit). */
typedef struct LintUnitWrites {
        const ModelUnit *unit; /* whose writes these are; NULL: none yet */
        ExecWriteList list;
} LintUnitWrites;

void lint_unit_writes_done(LintUnitWrites *w);
/* The writes of u for c->version: c->writes's when they are u's, else made (into c->writes, or into *scratch
 * when c->writes is NULL). *ret stays valid until the next call for another unit. Returns 0 or -ENOMEM. */
int lint_unit_writes(const LintContext *c, const ModelUnit *u, ExecWriteList *scratch, const ExecWriteList **ret);

/* Calls judge for each write of u whose check= names the check id, in the model's order: the loop of a check that
 * judges writes one by one. Returns 0, or the first negative errno of lint_exec_writes() or judge. */
typedef int (*ExecWriteJudge)(const LintContext *c, ModelUnit *u, const ExecWriteAt *w, FindingList *out);
int lint_exec_writes_judge(const LintContext *c, ModelUnit *u, const char *id, ExecWriteJudge judge,
                           FindingList *out);

/* What makes a write ready at boot, from the model: the mount unit that holds w->under ("-.mount" for the
 * root file system; NULL under /run, a tmpfs from the start), whether the root file system must be writable
 * (systemd-remount-fs.service: a write on it; a path only needed, op="none", does not ask for it unless the
 * program writes there, the writes writable-path-before-remount judges), and for a lasting write the line of
 * the boot's tmpfiles.d that removes it (systemd-tmpfiles-setup.service must have run). */
typedef struct ExecWriteReady {
        char *mount;
        bool remount;
        const TmpfilesEntry *removed_by;
        const TmpfilesEntry *ignored_exclusion; /* an x/X line this version's tmpfiles does not honour */
} ExecWriteReady;

void exec_write_ready_done(ExecWriteReady *r);
/* Fills *ret for w of c. Returns 0 or -ENOMEM. */
int lint_exec_write_ready(const LintContext *c, const ExecWriteAt *w, ExecWriteReady *ret);
/* The units that must have run before the unit starts for w to succeed and to last, in that order: its mount
 * unit (not -.mount), systemd-remount-fs.service, systemd-tmpfiles-setup.service. Returns 0 with a new strv
 * in *ret (NULL: nothing), or -ENOMEM. */
int lint_exec_write_needs(const LintContext *c, const ExecWriteAt *w, char ***ret);

/* "PrivateTmp=yes (foo.service:8)", or the key alone when a normalisation implies it. Returns a new string. */
char *lint_exec_write_why(const ModelUnit *u, const ExecWriteAt *w);

/* The line of l that removes path at boot: D on a directory above it, R or R! on a glob that matches it or a
 * directory above it. An x/X line that matches excludes it only when honour_x (the version's tmpfiles uses
 * dir_cleanup()); the exclusion that was not honoured goes to *ret_ignored (optional). NULL: nothing removes
 * it. */
const TmpfilesEntry *lint_tmpfiles_removes(const TmpfilesList *l, const char *path, bool honour_x,
                                           const TmpfilesEntry **ret_ignored);
