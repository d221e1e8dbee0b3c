/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private-tmp-before-remount: PrivateTmp= needs /tmp and /var/tmp writable, but on the root file system nothing
 * orders the unit after systemd-remount-fs.service for this version (LP: #1750780). */

#include "lint/check-common.h"

int check_private_tmp_before_remount(const LintContext *c, ModelUnit *u, FindingList *out) {
        _cleanup_(lint_paths_done) LintPaths paths = {};
        _cleanup_(strv_freep) char **on_root = NULL;
        const Setting *why = NULL;
        int r;

        r = lint_unit_paths(u, c->rules, model_features(c->model), &paths);
        if (r < 0)
                return r;
        for (size_t i = 0; i < paths.n; i++) {
                _cleanup_(freep) char *mount = NULL;
                if (paths.items[i].source != LINT_PATH_PRIVATE_TMP)
                        continue;
                mount = lint_mount_for_path(c, paths.items[i].path);
                if (!mount)
                        return -ENOMEM;
                if (streq(mount, "-.mount")) {
                        if (strv_extend(&on_root, paths.items[i].path) < 0)
                                return -ENOMEM;
                        why = paths.items[i].setting;
                }
        }
        if (!on_root)
                return 0;
        return check_root_writable(c, u, out, "private-tmp-before-remount", on_root, why,
                                   "PID 1 creates /tmp/systemd-private-* and /var/tmp/systemd-private-* before the "
                                   "process starts; while / is read-only that fails (result 'resources' up to "
                                   "systemd 245, an unwritable empty directory from 246)");
}
