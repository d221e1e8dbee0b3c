/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The table of checks: one entry per check, in the order they run. Metadata in rules/checks.xml. */

#include "lint/check-common.h"

const Check check_table[] = {
        { "private-tmp-before-remount", check_private_tmp_before_remount },
        { "writable-path-before-remount", check_writable_path_before_remount },
        { "path-on-separate-mount", check_path_on_separate_mount },
        { "exec-write-before-writable", check_exec_write_before_writable },
        { "exec-write-removed-by-tmpfiles", check_exec_write_removed_by_tmpfiles },
        { "sandbox-ordered-too-early", check_sandbox_ordered_too_early },
        { "ordering-cycle", check_ordering_cycle },
        { "unknown-key", check_unknown_key },
        { "invalid-value", check_invalid_value },
        { "bad-suppression", check_bad_suppression },
};
const size_t check_table_size = ELEMENTSOF(check_table);
