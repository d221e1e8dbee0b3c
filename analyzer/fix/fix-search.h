/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The repair search of `bootrace fix`: for a unit with race findings (private-tmp-before-remount,
 * writable-path-before-remount, path-on-separate-mount, sandbox-ordered-too-early, ordering-cycle) on one or
 * more systemd versions, the candidate repairs - RequiresMountsFor= the exact paths, After= the exact mount,
 * After=systemd-remount-fs.service, After=systemd-tmpfiles-setup.service, After=local-fs.target, dropping an
 * After=/Before= written in the unit's file that closes a cycle, removing the sandboxing setting - each
 * applied to a copy of the unit (the edited file, or the drop-in, in a directory searched first) and judged
 * by running lint again: (a) every race finding is gone on every version, (b) the boot transaction has no
 * ordering cycle it did not have, ordering repairs before removing a sandbox, (c) the fewest other units
 * newly delayed (units ordered after the unit that now wait for something they did not), (d) the fewest
 * lines, then the most precise (the fewest units the unit itself newly waits for). Nothing is printed. */

#include "lint/lint-run.h"

#define FIX_DROPIN_NAME "bootrace-fix.conf"

typedef struct FixTarget {
        char *name; /* canonical target name, or NULL for --systemd=N */
        unsigned version;
        char *distro; /* "ubuntu", ... or NULL */
        char *generator_dir; /* owned: removed by fix_target_done() */
        const Profile *profile; /* the target's profile (rules.h), or NULL */
} FixTarget;

void fix_target_done(FixTarget *t);
/* "ubuntu-xenial", or "systemd 229" without a name (buf holds it). */
const char *fix_target_label(const FixTarget *t, char buf[static 32]);

typedef struct FixRequest {
        const Root *root;
        char **extra_dirs; /* as for lint: the directories of the units given */
        char **names; /* every unit given (they stay as they are while one is repaired) */
        const char *anchor; /* the transaction's target, NULL: default.target */
        SuppressionFile *suppressions;
        const FixTarget *targets;
        size_t n_targets;
        LintRun **baselines; /* per target: lint_run() over names, unchanged */
} FixRequest;

typedef enum FixKind {
        FIX_REQUIRES_MOUNTS_FOR,
        FIX_AFTER_MOUNT,
        FIX_AFTER_REMOUNT,
        FIX_AFTER_TMPFILES,
        FIX_AFTER_LOCAL_FS,
        FIX_NO_DEFAULT_DEPS,     /* DefaultDependencies=no, with the shutdown ordering it then needs */
        FIX_CONFLICTS_SHUTDOWN,
        FIX_BEFORE_SHUTDOWN,
        FIX_DROP_ORDERING,
        FIX_DROP_SANDBOX,
        _FIX_KIND_MAX,
} FixKind;

typedef struct FixStep {
        FixKind kind;
        char *section; /* "Unit"; the sandbox setting's own section */
        char *key; /* "After", "RequiresMountsFor", "Before", "PrivateTmp" */
        char *value; /* the words added, the word dropped, or the sandbox setting's value */
        unsigned line; /* a dropped word or setting: its line in the file */
} FixStep;

typedef struct FixDelay {
        unsigned version;
        char *unit; /* a unit ordered after the repaired one */
        char **waits_for; /* what it now waits for that it did not before (the repair's own unit first) */
} FixDelay;

typedef struct FixCandidate {
        char *label; /* "After=systemd-remount-fs.service", "drop Before=x.service (line 4) + ..." */
        FixStep *steps;
        size_t n_steps;
        char *text; /* the new text of the file written, NULL when it cannot be written (see reason) */
        unsigned lines; /* settings added or removed */
        bool evaluated, closes, new_cycle, sandbox;
        size_t n_delayed; /* other units newly delayed, over every version */
        size_t n_waits; /* units the unit itself newly waits for, over every version */
        size_t n_lost; /* orderings the repair drops, over every version */
        FixDelay *delayed;
        size_t n_delayed_items;
        char *reason; /* why it was not chosen */
        char *note; /* what it means beyond ordering (removing a sandbox), or NULL */
} FixCandidate;

typedef struct FixFinding {
        char *check;
        unsigned version;
        const char *target; /* borrowed from the request */
        unsigned line;
        char *message;
} FixFinding;

typedef struct FixResult {
        char *unit;
        char *fragment; /* host path of the unit's file */
        char *file; /* host path of the file the repair writes: the fragment, or the drop-in */
        bool dropin;
        bool file_exists;
        char *old_text; /* of file ("" for a new drop-in) */
        FixFinding *findings; /* the race findings repaired */
        size_t n_findings;
        FixCandidate *candidates; /* ranked: the chosen one first when there is one */
        size_t n_candidates;
        bool chosen; /* candidates[0] is the repair */
        char *none_reason; /* !chosen: why no repair exists */
} FixResult;

FixResult *fix_result_free(FixResult *r);
static inline void fix_result_freep(FixResult **r) {
        fix_result_free(*r);
}

/* Is check one of the race checks whose findings fix repairs? */
bool fix_check_is_race(const char *check);

/* Searches the repair of unit (a name of req->names). fragment is the host path of its unit file; dropin
 * asks for a drop-in (FRAGMENT.d/bootrace-fix.conf beside it, or dropin_path when not NULL) instead of an
 * edit. Returns 0 with *ret (its n_findings is 0 when there is nothing to repair), or -errno with diags. */
int fix_search(const FixRequest *req, const Rules *rules, const char *unit, const char *fragment,
               bool dropin, const char *dropin_path, FixResult **ret, DiagList *diags);

/* The unified diff of the chosen repair, the file shown as label ("--- /dev/null" for a new drop-in). *ret is
 * NULL without a repair. */
int fix_result_diff(const FixResult *r, const char *label, char **ret);

/* The repair as the string of a finding's "fix" field: the drop-in text when it can be one, else the diff.
 */
int fix_result_summary(const FixResult *r, char **ret);

/* For lint: runs the search for every unit of run with unsuppressed race findings (one target: lint's
 * version) and sets fix and fix_details on those findings. o are the options run was made with. A unit whose
 * file cannot be read back keeps its findings without a repair (a notice in diags). */
int fix_attach(const LintRunOptions *o, const Rules *rules, LintRun *run, DiagList *diags);
