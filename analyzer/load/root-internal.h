/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The root's own parts, shared by its files: root.c (opening, the listing cache, reading files and directories),
 * mem-tree.c (the in-memory tree of a package) and root-chase.c (resolving a path inside a root: one walk, on a
 * disk and in memory). Nothing outside load/ includes this. */

#include <limits.h>

#include "basic/hashmap.h"
#include "load/root.h"

typedef struct MemNode MemNode;
struct MemNode {
        char *name;
        int type;           /* DT_DIR, DT_REG or DT_LNK */
        MemNode *parent;    /* NULL for the top */
        Hashmap children;   /* directories: name -> MemNode */
        char *data;         /* regular files: the bytes (NUL-terminated) */
        size_t size;
        char *target;       /* symlinks */
        const char *origin; /* interned in MemTree.origins */
        const char *shown;  /* the whole path shown for this entry in place of origin + its path (a file read
                             * under another name: dh_installsystemd's debian/PKG.NAME.service, standard input);
                             * interned in MemTree.origins, or NULL */
};

struct MemTree {
        MemNode *top;
        char **origins;
        size_t n_entries, bytes;
};

/* A directory root_list_dir() listed: its O_PATH fd, its resolved in-root path, and per entry its d_type
 * (DT_UNKNOWN: the file system did not say) and, once asked, whether the regular file is empty. */
typedef struct CachedDir {
        char *path;      /* as listed (the key) */
        char *resolved;
        int fd;
        char **names;    /* own the entries' keys */
        Hashmap entries; /* name -> its index + 1, as a pointer-sized integer */
        unsigned char *types;
        signed char *empty; /* -1 not known yet, 0 no, 1 yes */
} CachedDir;

#define ROOT_DIR_CACHE_MAX 64

struct RootDirCache {
        Hashmap dirs;     /* path as listed -> CachedDir */
        char *top;        /* the root directory's own path, as /proc/self/fd shows it (chase_in_kernel()) */
        unsigned frozen;  /* root_freeze() depth: no directory is added, top is not set */
};

/* The next component of *p (skipping "/" and "."): its start and length, 0 at the end. */
size_t path_next_component(const char **p);
/* The node at an in-tree path, following nothing (display and readlink of an already resolved parent), or NULL. */
const MemNode *mem_tree_lookup(const MemTree *t, const char *path);
/* root_chase() over the tree; *ret_node (optional) the node reached, NULL when the path is missing (1). */
int mem_tree_chase(const MemTree *t, const char *path, ChaseFlags flags, char **ret_path,
                   const MemNode **ret_node);
/* The root directory's own path as /proc/self/fd shows it, in top. Returns 0 or -EOPNOTSUPP. */
int root_read_top(const Root *r, char top[static PATH_MAX]);
