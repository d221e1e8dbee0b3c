/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* A directory tree treated like a chroot: every path, and every symlink met on the way, is resolved inside it.
 * An absolute symlink restarts at the root, ".." never climbs above it, loops end with -ELOOP. Resolution is
 * done one component at a time with openat(O_PATH|O_NOFOLLOW), so the host is never consulted. */

#include "basic/util.h"

typedef struct MemTree MemTree;
typedef struct RootDirCache RootDirCache;

typedef struct Root {
        int fd;        /* O_PATH fd of the root directory; -EBADF for an in-memory root */
        char *path;    /* the root as given (for display), "/" for the host */
        MemTree *mem;  /* an in-memory root (root_open_mem()): the files live here, not on a disk */
        /* the first directories root_list_dir() listed, kept open with the type of each entry: a regular file
         * in one is then looked at, opened and tested for emptiness relative to that directory, without
         * resolving its path again (a unit directory of 100k files). NULL for an in-memory root. bootrace
         * never writes under a root, so a listing stays true for the Root's lifetime. */
        RootDirCache *cache;
} Root;

#define CHASE_SYMLINKS_MAX 40

typedef enum ChaseFlags {
        CHASE_NOFOLLOW_LAST = 1 << 0, /* do not follow a symlink in the last component */
        CHASE_NONEXISTENT = 1 << 1,   /* a missing tail is fine: return the path as far as it goes + the rest */
} ChaseFlags;

/* Opens dir as a root. Returns -ENOTDIR/-ENOENT/... */
int root_open(const char *dir, Root **ret);

/* An in-memory file tree: directories, regular files with their bytes, symlinks with their targets, read from
 * a package archive without writing anything to a disk. A Root made of it answers every root_*() call below
 * like a directory tree on disk would (same resolution rules; root_chase() gives no fd: *ret_fd = -EBADF;
 * root_open_file() gives a sealed memfd). Each entry remembers the display prefix of where it came from
 * ("foo_1.0_all.deb:", "debian/foo/"), which root_display_path() puts in front of its in-tree path. */
int mem_tree_new(MemTree **ret);
MemTree *mem_tree_free(MemTree *t);
static inline void mem_tree_freep(MemTree **t) {
        mem_tree_free(*t);
}
/* Add an entry at path (absolute or relative; "//" and "." are skipped, ".." is refused with -EINVAL). Missing
 * parents are made directories; a parent that is a file or symlink is -ENOTDIR (nothing is followed while
 * adding). An existing entry is -EEXIST, except a directory added again (0). origin is copied (interned). */
int mem_tree_add_dir(MemTree *t, const char *path, const char *origin);
int mem_tree_add_file(MemTree *t, const char *path, const void *data, size_t size, const char *origin);
int mem_tree_add_symlink(MemTree *t, const char *path, const char *target, const char *origin);
/* A file that root_display_path() shows as shown itself (not origin + path): what the tree holds under one name
 * and the user knows under another (debian/foo.bar.service installed as bar.service, "<stdin>"). */
int mem_tree_add_file_shown(MemTree *t, const char *path, const void *data, size_t size, const char *origin,
                            const char *shown);
/* The bytes of the regular file at path, following nothing (borrowed, NUL-terminated). -ENOENT, or -EBADFD when
 * the entry is no regular file. */
int mem_tree_read(const MemTree *t, const char *path, const char **ret_data, size_t *ret_size);
/* Entries and bytes held (for limits). */
size_t mem_tree_entries(const MemTree *t);
size_t mem_tree_bytes(const MemTree *t);
/* A root over the tree, which the root then owns (also on failure). name is shown for paths the tree does not
 * hold (normally the display prefix of the first package). */
int root_open_mem(MemTree *t, const char *name, Root **ret);
Root *root_free(Root *r);
static inline void root_freep(Root **r) {
        root_free(*r);
}
/* While frozen (calls nest), a root may be read from several threads at once: it adds no directory to its cache
 * and learns nothing lazily except, atomically, whether a listed file is empty. Freezing and thawing are for
 * one thread, with no reader running. */
void root_freeze(const Root *r, bool frozen);

/* Resolves path (absolute, or relative to the root) inside the root. *ret_path gets the canonical absolute path
 * inside the root; *ret_fd (optional) an O_PATH fd of it. Returns 0, 1 if the path does not exist but
 * CHASE_NONEXISTENT allowed that, -ELOOP for symlink loops, -ENOENT, ... */
int root_chase(const Root *r, const char *path, ChaseFlags flags, char **ret_path, int *ret_fd);

/* Opens a regular file for reading after resolving it inside the root. Refuses FIFOs, devices, sockets and
 * directories (-EBADFD / -EISDIR) without blocking. */
int root_open_file(const Root *r, const char *path, int *ret_fd, char **ret_resolved);
/* root_open_file() that also returns what fstat() said of the file, for in-memory roots too. */
int root_open_file_stat(const Root *r, const char *path, int *ret_fd, char **ret_resolved, struct stat *ret_st);

/* Reads a symlink's target as stored (not resolved), without following anything but the parent directories. */
int root_readlink(const Root *r, const char *path, char **ret_target);

/* What is at path, without following the last component: DT_REG, DT_DIR, DT_LNK, DT_UNKNOWN for others, or
 * -ENOENT. */
int root_entry_type(const Root *r, const char *path);

/* Lists the names in a directory (resolved inside the root), sorted, without "." and "..". -ENOENT if missing,
 * -ENOTDIR if not a directory. */
int root_list_dir(const Root *r, const char *path, char ***ret_names);
/* root_list_dir() with each name's d_type from the listing in *ret_types, in the names' order (DT_UNKNOWN where the
 * file system does not say: ask root_entry_type()). */
int root_list_dir_types(const Root *r, const char *path, char ***ret_names, unsigned char **ret_types);

/* The path to show users: the root's own path joined with path (or path alone for the host); for an in-memory
 * root the display prefix of the entry's origin followed by the in-tree path without its leading "/". */
char *root_display_path(const Root *r, const char *path);

/* Is the file at path (following symlinks inside the root) /dev/null or empty? 1 yes, 0 no, <0 error. Used for
 * masking: a symlink to /dev/null or an empty regular file. */
int root_null_or_empty(const Root *r, const char *path);
