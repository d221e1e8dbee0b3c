/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private-tmp-before-remount: PID 1 makes PrivateTmp='s private directories (rules/exec-writes.xml: the writes
 * whose check= names this check, per version) on the root file system, but nothing orders the unit after
 * systemd-remount-fs.service for this version (LP: #1750780). */

#include "lint/check-common.h"

int check_private_tmp_before_remount(const LintContext *c, ModelUnit *u, FindingList *out) {
        return check_root_writes(c, u, out, "private-tmp-before-remount",
                                 "PID 1 creates /tmp/systemd-private-* and /var/tmp/systemd-private-* before the "
                                 "process starts; while / is read-only that fails");
}
