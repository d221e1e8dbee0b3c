/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* writable-path-before-remount: StateDirectory= and friends (and DynamicUser='s /var/lib/private), ReadWritePaths=
 * on the root file system (rules/exec-writes.xml: the writes whose check= names this check, per version), and
 * nothing orders the unit after systemd-remount-fs.service for this version. */

#include "lint/check-common.h"

int check_writable_path_before_remount(const LintContext *c, ModelUnit *u, FindingList *out) {
        return check_root_writes(c, u, out, "writable-path-before-remount",
                                 "the start fails in the namespace setup (226/NAMESPACE) or in the *Directory= "
                                 "step, or the program fails on its first write while / is still read-only");
}
