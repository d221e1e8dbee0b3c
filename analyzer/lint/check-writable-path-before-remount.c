/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* writable-path-before-remount: StateDirectory= and friends, ReadWritePaths= or WorkingDirectory= on the root
 * file system, and nothing orders the unit after systemd-remount-fs.service for this version. */

#include "lint/check-common.h"

int check_writable_path_before_remount(const LintContext *c, ModelUnit *u, FindingList *out) {
        _cleanup_(lint_paths_done) LintPaths paths = {};
        _cleanup_(strv_freep) char **on_root = NULL;
        const Setting *why = NULL;
        int r;

        r = lint_unit_paths(u, c->rules, model_features(c->model), &paths);
        if (r < 0)
                return r;
        for (size_t i = 0; i < paths.n; i++) {
                _cleanup_(freep) char *mount = NULL;
                /* PrivateTmp= has its own check; a working directory must exist, not be writable */
                if (paths.items[i].source == LINT_PATH_PRIVATE_TMP || paths.items[i].source == LINT_PATH_WORKING_DIR)
                        continue;
                /* /run is a tmpfs mounted before PID 1 starts anything: always writable */
                if (path_startswith_dir(paths.items[i].path, "/run"))
                        continue;
                mount = lint_mount_for_path(c, paths.items[i].path);
                if (!mount)
                        return -ENOMEM;
                if (streq(mount, "-.mount")) {
                        if (strv_extend(&on_root, paths.items[i].path) < 0)
                                return -ENOMEM;
                        if (!why)
                                why = paths.items[i].setting;
                }
        }
        if (!on_root)
                return 0;
        return check_root_writable(c, u, out, "writable-path-before-remount", on_root, why,
                                   "the start fails in the namespace setup (226/NAMESPACE) or the program "
                                   "fails on its first write while / is still read-only");
}
