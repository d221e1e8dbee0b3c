/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Replacing or creating a file so that a reader sees the old content or the new one, never a mix, and a
 * failure leaves the old one untouched: a temporary file in the same directory, written, given the old
 * file's mode (and owner, where permitted), fsync()ed, renamed over the old one; then the directory is
 * fsync()ed. The last component is never followed when it is a symlink (-ELOOP): a write never lands outside
 * the directory. */

#include <sys/types.h>

#include "basic/util.h"

/* Writes name in the directory dir_fd. new_mode is the mode of a new file (an existing one keeps its own).
 * Returns 0, -ELOOP (a symlink), -EISDIR/-EBADFD (not a regular file), or the -errno of the step that
 * failed; no temporary file is left behind. */
int atomic_write_at(int dir_fd, const char *name, const char *data, size_t size, mode_t new_mode);

/* The same for a path: its directory is opened as given (symlinks in the directory part are the caller's).
 */
int atomic_write_path(const char *path, const char *data, size_t size, mode_t new_mode);

/* Writes dir/name below dir_fd, creating the directory dir atomically when it is missing: the directory is
 * built under a temporary name with the file in it and renamed into place (never replacing a directory that
 * appeared meanwhile: then the file is written into that one). dir must not be a symlink (-ELOOP). */
int atomic_write_in_subdir(int dir_fd, const char *dir, const char *name, const char *data, size_t size,
                           mode_t dir_mode, mode_t new_mode);
