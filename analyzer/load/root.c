/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A root (root.h): opening one, on a disk or over an in-memory tree, the cache of listed directories, reading
 * files, links and directories in it. Resolving paths is root-chase.c's, the in-memory tree mem-tree.c's. */

#include <dirent.h>
#include <sys/syscall.h>
#include <limits.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "load/root-internal.h"

/* The cached directory entry at path ("DIR/NAME", DIR exactly as listed): its directory and d_type, or NULL. */
static const CachedDir *cached_entry_index(const Root *r, const char *path, const char **ret_name, int *ret_type,
                                          size_t *ret_index) {
        const char *slash;
        const CachedDir *d;
        char dir[PATH_MAX];
        void *v;

        if (!r->cache || hashmap_size(&r->cache->dirs) == 0 || !path || !(slash = strrchr(path, '/')) ||
            (size_t) (slash - path) >= sizeof dir || !slash[1])
                return NULL;
        memcpy(dir, path, (size_t) (slash - path));
        dir[slash - path] = 0;
        d = hashmap_get(&r->cache->dirs, dir[0] ? dir : "/");
        if (!d)
                return NULL;
        v = hashmap_get(&d->entries, slash + 1);
        *ret_name = slash + 1;
        *ret_type = v ? (int) d->types[(uintptr_t) v - 1] : -ENOENT;
        if (ret_index)
                *ret_index = v ? (size_t) ((uintptr_t) v - 1) : SIZE_MAX;
        return d;
}

static const CachedDir *cached_entry(const Root *r, const char *path, const char **ret_name, int *ret_type) {
        return cached_entry_index(r, path, ret_name, ret_type, NULL);
}

int root_open_mem(MemTree *t, const char *name, Root **ret) {
        _cleanup_(mem_tree_freep) MemTree *tree = t;
        Root *r = calloc(1, sizeof(Root));

        if (!r)
                return -ENOMEM;
        r->fd = -EBADF;
        r->path = strdup(name);
        if (!r->path) {
                free(r);
                return -ENOMEM;
        }
        r->mem = TAKE_PTR(tree);
        *ret = r;
        return 0;
}

int root_open(const char *dir, Root **ret) {
        _cleanup_(closep) int fd = -EBADF;
        Root *r;
        struct stat st;

        fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0)
                return -errno;
        r = calloc(1, sizeof(Root));
        if (!r)
                return -ENOMEM;
        r->path = strdup(dir);
        if (!r->path) {
                free(r);
                return -ENOMEM;
        }
        r->cache = calloc(1, sizeof(RootDirCache));
        if (!r->cache) {
                free(r->path);
                free(r);
                return -ENOMEM;
        }
        hashmap_init(&r->cache->dirs);
        r->fd = TAKE_FD(fd);
        *ret = r;
        return 0;
}

static void dir_cache_free(RootDirCache *c) {
        if (!c)
                return;
        HASHMAP_FOREACH_ENTRY(e, &c->dirs) {
                CachedDir *d = e->value;
                if (d->fd >= 0)
                        close(d->fd);
                free(d->path);
                free(d->resolved);
                hashmap_done(&d->entries);
                strv_free(d->names);
                free(d->types);
                free(d->empty);
                free(d);
        }
        hashmap_done(&c->dirs);
        free(c->top);
        free(c);
}

Root *root_free(Root *r) {
        if (!r)
                return NULL;
        if (r->fd >= 0)
                close(r->fd);
        dir_cache_free(r->cache);
        mem_tree_free(r->mem);
        free(r->path);
        free(r);
        return NULL;
}


void root_freeze(const Root *r, bool frozen) {
        char top[PATH_MAX];

        if (!r || !r->cache)
                return;
        if (!frozen) {
                if (r->cache->frozen > 0)
                        r->cache->frozen--;
                return;
        }
        /* what chase_in_kernel() would learn lazily, learnt now */
        if (r->cache->frozen++ == 0 && !r->cache->top && root_read_top(r, top) >= 0)
                r->cache->top = strdup(top); /* on OOM each chase reads it again */
}

/* openat() for reading, with O_NOATIME where allowed: bootrace reads a tree and changes nothing in it, not even
 * access times (on a tree just written, relatime would update the access time of every file read: an inode
 * written back per unit). O_NOATIME needs the file's owner or CAP_FOWNER; after a refusal (EPERM) the flag is
 * left out for good. */
static int openat_noatime(int dirfd, const char *path, int flags) {
        static bool refused; /* atomic: roots are read from several threads */
        int fd;

        if (!__atomic_load_n(&refused, __ATOMIC_RELAXED)) {
                fd = openat(dirfd, path, flags | O_NOATIME);
                if (fd >= 0 || errno != EPERM)
                        return fd;
                __atomic_store_n(&refused, true, __ATOMIC_RELAXED);
        }
        return openat(dirfd, path, flags);
}

int root_open_file(const Root *r, const char *path, int *ret_fd, char **ret_resolved) {
        return root_open_file_stat(r, path, ret_fd, ret_resolved, NULL);
}

int root_open_file_stat(const Root *r, const char *path, int *ret_fd, char **ret_resolved, struct stat *ret_st) {
        _cleanup_(freep) char *resolved = NULL;
        _cleanup_(closep) int pfd = -EBADF, fd = -EBADF;
        char proc[64];
        struct stat st;
        int k;

        if (r->mem) {
                const MemNode *n;

                k = mem_tree_chase(r->mem, path, 0, &resolved, &n);
                if (k < 0)
                        return k;
                if (n->type == DT_DIR)
                        return -EISDIR;
                /* the bytes in a sealed memory file: callers read an fd either way, and no disk is written */
                fd = memfd_create("bootrace-mem", MFD_CLOEXEC | MFD_ALLOW_SEALING);
                if (fd < 0)
                        return -errno;
                for (size_t off = 0; off < n->size;) {
                        ssize_t w = write(fd, n->data + off, n->size - off);
                        if (w < 0)
                                return -errno;
                        off += (size_t) w;
                }
                if (lseek(fd, 0, SEEK_SET) < 0)
                        return -errno;
                (void) fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
                if (ret_st && fstat(fd, ret_st) < 0)
                        return -errno;
                *ret_fd = TAKE_FD(fd);
                if (ret_resolved)
                        *ret_resolved = TAKE_PTR(resolved);
                return 0;
        }
        {
                /* a regular file in a listed directory: opened relative to it, never following a symlink */
                const char *name;
                int type;
                const CachedDir *d = cached_entry(r, path, &name, &type);

                if (d && type == DT_REG) {
                        fd = openat_noatime(d->fd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW);
                        if (fd >= 0) {
                                k = fd_stat_regular(fd, &st);
                                if (k < 0)
                                        return k;
                                if (ret_resolved && !(*ret_resolved = path_join(d->resolved, name)))
                                        return -ENOMEM;
                                if (ret_st)
                                        *ret_st = st;
                                *ret_fd = TAKE_FD(fd);
                                return 0;
                        }
                        /* changed since the listing (now a symlink, gone): resolve it the long way */
                }
        }
        k = root_chase(r, path, 0, &resolved, &pfd);
        if (k < 0)
                return k;
        k = fd_stat_regular(pfd, &st);
        if (k < 0)
                return k;
        /* reopen the O_PATH fd for reading: no second lookup by name, so no race with a swapped symlink */
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", pfd);
        fd = openat_noatime(AT_FDCWD, proc, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0)
                return -errno;
        if (ret_st)
                *ret_st = st;
        *ret_fd = TAKE_FD(fd);
        if (ret_resolved)
                *ret_resolved = TAKE_PTR(resolved);
        return 0;
}

static int split_parent(const char *path, char **ret_dir, const char **ret_name) {
        const char *s = strrchr(path, '/');
        if (!s) {
                *ret_dir = strdup("/");
                *ret_name = path;
        } else {
                *ret_dir = s == path ? strdup("/") : strndup_safe(path, s - path);
                *ret_name = s + 1;
        }
        if (!*ret_dir)
                return -ENOMEM;
        if (isempty(*ret_name) || streq(*ret_name, ".") || streq(*ret_name, ".."))
                return -EINVAL;
        return 0;
}

int root_readlink(const Root *r, const char *path, char **ret_target) {
        _cleanup_(freep) char *dir = NULL, *buf = NULL;
        _cleanup_(closep) int dfd = -EBADF;
        int at = -EBADF;
        const char *name;
        ssize_t k;
        int e;

        e = split_parent(path, &dir, &name);
        if (e < 0)
                return e;
        if (r->mem) {
                _cleanup_(freep) char *resolved = NULL, *p = NULL;
                const MemNode *n;

                e = mem_tree_chase(r->mem, dir, 0, &resolved, NULL);
                if (e < 0)
                        return e;
                p = path_join(resolved, name);
                if (!p)
                        return -ENOMEM;
                n = mem_tree_lookup(r->mem, p);
                if (!n)
                        return -ENOENT;
                if (n->type != DT_LNK)
                        return -EINVAL;
                *ret_target = strdup(n->target);
                return *ret_target ? 0 : -ENOMEM;
        }
        {
                /* a symlink in a listed directory is read relative to it */
                const char *cname;
                int type;
                const CachedDir *d = cached_entry(r, path, &cname, &type);
                if (d && type == DT_LNK)
                        at = d->fd;
        }
        if (at < 0) {
                e = root_chase(r, dir, 0, NULL, &dfd);
                if (e < 0)
                        return e;
                at = dfd;
        }
        buf = malloc(PATH_MAX);
        if (!buf)
                return -ENOMEM;
        k = readlinkat(at, name, buf, PATH_MAX - 1);
        if (k < 0)
                return -errno;
        buf[k] = 0;
        *ret_target = strdup(buf);
        return *ret_target ? 0 : -ENOMEM;
}

int root_entry_type(const Root *r, const char *path) {
        _cleanup_(closep) int fd = -EBADF;
        struct stat st;
        int e;

        if (r->mem) {
                const MemNode *n;
                e = mem_tree_chase(r->mem, path, CHASE_NOFOLLOW_LAST, NULL, &n);
                return e < 0 ? e : n->type;
        }
        {
                /* an entry of a listed directory: its type from the listing */
                const char *name;
                int type;
                if (cached_entry(r, path, &name, &type)) {
                        if (type == -ENOENT || type == DT_REG || type == DT_DIR || type == DT_LNK)
                                return type;
                        if (type != DT_UNKNOWN)
                                return DT_UNKNOWN; /* FIFOs, devices, sockets */
                }
        }
        e = root_chase(r, path, CHASE_NOFOLLOW_LAST, NULL, &fd);
        if (e < 0)
                return e;
        if (fstat(fd, &st) < 0)
                return -errno;
        if (S_ISREG(st.st_mode))
                return DT_REG;
        if (S_ISDIR(st.st_mode))
                return DT_DIR;
        if (S_ISLNK(st.st_mode))
                return DT_LNK;
        return DT_UNKNOWN;
}

/* Keeps a listed directory: its fd and path are taken, the names and types copied. */
static int cache_dir(const Root *r, const char *path, char **resolved, int *fd, char * const *names,
                     const unsigned char *types, size_t n) {
        CachedDir *d = calloc(1, sizeof(CachedDir));

        if (!d)
                return -ENOMEM;
        hashmap_init(&d->entries);
        d->fd = -EBADF;
        d->path = strdup(path);
        d->names = strv_copy(names);
        d->types = malloc(n + 1);
        d->empty = malloc(n + 1);
        if (!d->path || !d->names || !d->types || !d->empty)
                goto fail;
        for (size_t i = 0; i < n; i++) {
                d->types[i] = types[i];
                d->empty[i] = -1;
                if (hashmap_put(&d->entries, d->names[i], (void *) (uintptr_t) (i + 1)) == -ENOMEM)
                        goto fail;
        }
        if (hashmap_put(&r->cache->dirs, d->path, d) < 0)
                goto fail;
        d->resolved = TAKE_PTR(*resolved);
        d->fd = TAKE_FD(*fd);
        return 0;
fail:
        hashmap_done(&d->entries);
        strv_free(d->names);
        free(d->types);
        free(d->empty);
        free(d->path);
        free(d);
        return -ENOMEM;
}

typedef struct ListEntry {
        char *name;
        unsigned char type;
} ListEntry;

static int list_entry_cmp(const void *a, const void *b) {
        return strcmp(((const ListEntry *) a)->name, ((const ListEntry *) b)->name);
}

/* The listing (*names, the strv, and *types, n of each) sorted by name, the types along: given to ret_names and,
 * if wanted, ret_types (what is given is taken from *names and *types). */
static int sort_listing(char ***names, unsigned char **types, size_t n, char ***ret_names, unsigned char **ret_types) {
        _cleanup_(freep) ListEntry *l = NULL;

        if (!ret_types) {
                strv_sort(*names);
                *ret_names = TAKE_PTR(*names);
                return 0;
        }
        l = malloc(sizeof(ListEntry) * (n + 1));
        if (!l)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++)
                l[i] = (ListEntry) { (*names)[i], (*types)[i] };
        qsort_safe(l, n, sizeof(ListEntry), list_entry_cmp);
        for (size_t i = 0; i < n; i++) {
                (*names)[i] = l[i].name;
                (*types)[i] = l[i].type;
        }
        *ret_names = TAKE_PTR(*names);
        *ret_types = TAKE_PTR(*types);
        return 0;
}

int root_list_dir(const Root *r, const char *path, char ***ret_names) {
        return root_list_dir_types(r, path, ret_names, NULL);
}

int root_list_dir_types(const Root *r, const char *path, char ***ret_names, unsigned char **ret_types) {
        _cleanup_(closep) int pfd = -EBADF;
        _cleanup_(strv_freep) char **names = NULL;
        _cleanup_(freep) char *resolved = NULL;
        _cleanup_(freep) unsigned char *types = NULL;
        size_t n = 0, allocated = 0, allocated_types = 0;
        _cleanup_(closep) int fd = -EBADF;
        union {
                struct dirent64 align;
                char bytes[32768];
        } buf;
        int e;

        if (r->mem) {
                const MemNode *dn;

                e = mem_tree_chase(r->mem, path, 0, NULL, &dn);
                if (e < 0)
                        return e;
                if (dn->type != DT_DIR)
                        return -ENOTDIR;
                names = calloc(hashmap_size(&dn->children) + 1, sizeof(char *));
                types = malloc(hashmap_size(&dn->children) + 1);
                if (!names || !types)
                        return -ENOMEM;
                HASHMAP_FOREACH_ENTRY(c, &dn->children) {
                        types[n] = (unsigned char) ((const MemNode *) c->value)->type;
                        if (!(names[n++] = strdup(c->key)))
                                return -ENOMEM;
                }
                return sort_listing(&names, &types, n, ret_names, ret_types);
        }
        e = root_chase(r, path, 0,
                       r->cache && !r->cache->frozen && hashmap_size(&r->cache->dirs) < ROOT_DIR_CACHE_MAX ? &resolved
                                                                                                     : NULL,
                       &pfd);
        if (e < 0)
                return e;
        fd = openat_noatime(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        /* getdents64 itself (glibc wraps it only from 2.30): opendir() would add an fstat() and two fcntl() calls
         * to each listing */
        for (;;) {
                ssize_t k = syscall(SYS_getdents64, fd, buf.bytes, sizeof buf.bytes);
                if (k < 0)
                        return -errno;
                if (k == 0)
                        break;
                for (size_t off = 0; off < (size_t) k;) {
                        const struct dirent64 *de = (const struct dirent64 *) (buf.bytes + off);

                        off += de->d_reclen;
                        if (streq(de->d_name, ".") || streq(de->d_name, ".."))
                                continue;
                        if (GREEDY_REALLOC(names, allocated, n + 2) < 0)
                                return -ENOMEM;
                        names[n] = strdup(de->d_name);
                        if (!names[n] || GREEDY_REALLOC(types, allocated_types, n + 1) < 0)
                                return -ENOMEM;
                        types[n] = de->d_type;
                        names[++n] = NULL;
                }
        }
        if (!names && !(names = calloc(1, sizeof(char *))))
                return -ENOMEM;
        if (!types && !(types = malloc(1)))
                return -ENOMEM;
        if (resolved && !hashmap_get(&r->cache->dirs, path) && cache_dir(r, path, &resolved, &pfd, names, types, n) < 0)
                return -ENOMEM;
        return sort_listing(&names, &types, n, ret_names, ret_types);
}

char *root_display_path(const Root *r, const char *path) {
        if (r && r->mem) {
                /* the entry's own origin; a path the tree does not hold (a missing drop-in directory, a
                 * dangling link's target) gets the nearest parent's, else the root's name */
                _cleanup_(freep) char *p = strdup(path);
                const MemNode *n = NULL;
                const char *rel = path + strspn(path, "/");

                while (p && !(n = mem_tree_lookup(r->mem, p)) && strchr(p, '/') && !streq(p, "/"))
                        (void) path_cut_last(p);
                if (!p)
                        return NULL;
                if (n && n->shown && streq(p, path))
                        return strdup(n->shown);
                while (n && !n->origin)
                        n = n->parent;
                return strjoin(n ? n->origin : r->path, rel);
        }
        if (!r || streq(r->path, "/"))
                return strdup(path);
        return path_join(r->path, path);
}

int root_null_or_empty(const Root *r, const char *path) {
        _cleanup_(freep) char *resolved = NULL;
        _cleanup_(closep) int fd = -EBADF;
        struct stat st;
        int e;

        /* a symlink to /dev/null inside a root usually dangles (no /dev there): look at the target's name */
        if (r->mem) {
                const MemNode *n;
                e = mem_tree_chase(r->mem, path, CHASE_NONEXISTENT, &resolved, &n);
                if (e < 0)
                        return e;
                if (streq(resolved, "/dev/null"))
                        return 1;
                if (e > 0)
                        return -ENOENT;
                return n->type == DT_REG && n->size == 0;
        }
        {
                /* a regular file of a listed directory: its size, no resolution (a file in the tree's /dev is
                 * left to the long way, which knows /dev/null by its path) */
                const char *name;
                int type;
                size_t i;
                const CachedDir *d = cached_entry_index(r, path, &name, &type, &i);
                if (d && type == DT_REG && !streq(d->resolved, "/dev")) {
                        /* atomic: a frozen root is read from several threads (the answer is the same on each) */
                        signed char known = __atomic_load_n(&d->empty[i], __ATOMIC_RELAXED);
                        if (known >= 0)
                                return known;
                        if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) >= 0 && S_ISREG(st.st_mode)) {
                                __atomic_store_n(&d->empty[i], (signed char) (st.st_size == 0), __ATOMIC_RELAXED);
                                return st.st_size == 0;
                        }
                }
        }
        /* most paths exist: resolve fast; only a missing target needs the walk that keeps the missing tail */
        e = root_chase(r, path, 0, &resolved, &fd);
        if (e == -ENOENT) {
                resolved = mfree(resolved);
                e = root_chase(r, path, CHASE_NONEXISTENT, &resolved, &fd);
        }
        if (e < 0)
                return e;
        if (streq(resolved, "/dev/null"))
                return 1;
        if (e > 0)
                return -ENOENT;
        if (fstat(fd, &st) < 0)
                return -errno;
        if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3))
                return 1;
        return S_ISREG(st.st_mode) && st.st_size == 0;
}
