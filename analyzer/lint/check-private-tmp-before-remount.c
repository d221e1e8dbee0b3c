/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private-tmp-before-remount: PID 1 makes PrivateTmp='s private directories (rules/exec-writes.xml: the writes
 * whose check= names this check, per version) on the root file system, but nothing orders the unit after
 * systemd-remount-fs.service for this version (LP: #1750780). */

#include "lint/check-common.h"
#include "lint/exec-writes.h"

#define ID "private-tmp-before-remount"

/* The assignment that asks for the private directories when a normalisation implies PrivateTmp= (DynamicUser=). */
static int implied_by(const LintContext *c, const ModelUnit *u, const Setting **ret) {
        _cleanup_(lint_paths_done) LintPaths paths = {};
        int r;

        r = lint_unit_paths(u, c->rules, model_features(c->model), &paths);
        if (r < 0)
                return r;
        for (size_t i = 0; i < paths.n; i++)
                if (paths.items[i].source == LINT_PATH_PRIVATE_TMP && paths.items[i].setting) {
                        *ret = paths.items[i].setting;
                        break;
                }
        return 0;
}

int check_private_tmp_before_remount(const LintContext *c, ModelUnit *u, FindingList *out) {
        _cleanup_(exec_write_list_done) ExecWriteList l = {};
        _cleanup_(strv_freep) char **on_root = NULL;
        _cleanup_(freep) char *consequence = NULL;
        const ExecWriteFailure *fails = NULL;
        const Setting *why = NULL;
        int r;

        r = lint_exec_writes(c, u, &l);
        if (r < 0)
                return r;
        for (size_t i = 0; i < l.n; i++) {
                _cleanup_(freep) char *mount = NULL;
                if (!exec_write_judged_by(l.items[i].write, ID))
                        continue;
                mount = lint_mount_for_path(c, l.items[i].under);
                if (!mount)
                        return -ENOMEM;
                if (!streq(mount, "-.mount") || strv_contains(on_root, l.items[i].under))
                        continue;
                if (strv_extend(&on_root, l.items[i].under) < 0)
                        return -ENOMEM;
                why = why ?: l.items[i].setting;
                fails = fails ?: exec_write_failure(l.items[i].write, c->version);
        }
        if (!on_root)
                return 0;
        if (!why && (r = implied_by(c, u, &why)) < 0)
                return r;
        if (asprintf_safe(&consequence,
                          "PID 1 creates /tmp/systemd-private-* and /var/tmp/systemd-private-* before the process "
                          "starts; while / is read-only that fails: for systemd %u, %s [%s]",
                          c->version, fails ? fails->text : "(not modelled)", fails ? fails->source : "-") < 0)
                return -ENOMEM;
        return check_root_writable(c, u, out, ID, on_root, why, consequence);
}
