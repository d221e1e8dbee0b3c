/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Helpers for fuzz targets that need files: one scratch directory per process (reused by every input,
 * removed at exit), emptying it between inputs, and where the real rules are. */

#include "basic/util.h"
#include "rules/features.h"
#include "rules/rules.h"

/* The scratch directory ($TMPDIR, else /dev/shm or /tmp; created on first use, removed at exit). Aborts when
 * it cannot be made: a fuzzer without its directory would only test error paths. */
const char *fuzz_scratch_dir(void);

/* Removes everything below the directory fd dfd (never follows symlinks). Returns 0 or -errno. */
int fuzz_rm_children(int dfd);

/* Creates the missing parent directories of path (relative, "/"-separated, no "." or ".." components, not
 * through symlinks) below dfd. Returns an fd of the last component's parent (caller closes), with *ret_name
 * pointing into path at that component; -EINVAL for unsafe paths. */
int fuzz_mkdir_parents(int dfd, const char *path, const char **ret_name);

/* Writes the input to a new file NAME in the scratch directory (replacing the previous input's) and returns its
 * path (caller frees). Aborts on failure. */
char *fuzz_write_input(const char *name, const uint8_t *data, size_t size);
/* The rules directory: $BOOTRACE_RULES_DIR, else the source tree's rules/ as compiled in. */
const char *fuzz_rules_dir(void);
/* The version facts of systemd v from those rules (loaded once; aborts when they do not load). */
const FeatureSet *fuzz_features(unsigned v);
