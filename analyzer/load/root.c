/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <dirent.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <limits.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "basic/hashmap.h"
#include "load/root.h"

/* Components are appended to a growing absolute path; ".." pops one. */
static int path_push(char **done, const char *comp, size_t len) {
        size_t l = strlen(*done);
        bool root = l == 1;
        char *n = realloc(*done, l + 1 + len + 1);

        if (!n)
                return -ENOMEM;
        *done = n;
        if (!root)
                n[l++] = '/';
        memcpy(n + l, comp, len);
        n[l + len] = 0;
        return 0;
}

/* A symlink met on the way: what is left of the walk becomes its target followed by the rest of todo. Returns 1
 * when the target is absolute (the walk starts again at the root), 0 when it is relative, -ENOMEM. */
static int splice_symlink(char **todo, size_t *pos, const char *target) {
        /* no slash added after the last component: that would make it a directory */
        char *rest = strjoin(target, (*todo)[*pos] ? "/" : "", *todo + *pos);

        if (!rest)
                return -ENOMEM;
        free(*todo);
        *todo = rest;
        *pos = 0;
        return target[0] == '/';
}

/* ---- the in-memory tree */

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
};

struct MemTree {
        MemNode *top;
        char **origins;
        size_t n_entries, bytes;
};

static MemNode *mem_node_free(MemNode *n) {
        if (!n)
                return NULL;
        HASHMAP_FOREACH_ENTRY(e, &n->children)
                mem_node_free(e->value);
        hashmap_done(&n->children);
        free(n->name);
        free(n->data);
        free(n->target);
        free(n);
        return NULL;
}

static MemNode *mem_node_new(const char *name, size_t len, int type, MemNode *parent) {
        MemNode *n = calloc(1, sizeof(MemNode));

        if (!n)
                return NULL;
        n->name = strndup_safe(name, len);
        if (!n->name)
                return mfree(n);
        n->type = type;
        n->parent = parent;
        hashmap_init(&n->children);
        return n;
}

int mem_tree_new(MemTree **ret) {
        MemTree *t = calloc(1, sizeof(MemTree));

        if (!t)
                return -ENOMEM;
        t->top = mem_node_new("", 0, DT_DIR, NULL);
        if (!t->top)
                return free(t), -ENOMEM;
        *ret = t;
        return 0;
}

MemTree *mem_tree_free(MemTree *t) {
        if (!t)
                return NULL;
        mem_node_free(t->top);
        strv_free(t->origins);
        free(t);
        return NULL;
}

size_t mem_tree_entries(const MemTree *t) {
        return t->n_entries;
}

size_t mem_tree_bytes(const MemTree *t) {
        return t->bytes;
}

static int intern_origin(MemTree *t, const char *origin, const char **ret) {
        *ret = NULL;
        if (!origin)
                return 0;
        STRV_FOREACH(o, t->origins)
                if (streq(*o, origin)) {
                        *ret = *o;
                        return 0;
                }
        if (strv_extend(&t->origins, origin) < 0)
                return -ENOMEM;
        *ret = t->origins[strv_length(t->origins) - 1];
        return 0;
}

/* The next component of *p (skipping "/" and "."): its start and length, 0 at the end. */
static size_t next_component(const char **p) {
        for (;;) {
                size_t n;
                *p += strspn(*p, "/");
                n = strcspn(*p, "/");
                if (n == 1 && (*p)[0] == '.') {
                        *p += 1;
                        continue;
                }
                return n;
        }
}

/* next_component() for the walks of root_chase(): the component of todo from *pos on, copied to comp, *pos moved
 * past it; *ret_last: only slashes follow it; *ret_dir: a slash follows it, so it must be a directory (or a
 * symlink to one, followed even when the last component's symlink is not, as the kernel does). Returns its
 * length, 0 when the path is used up, -ENAMETOOLONG. */
static int take_component(const char *todo, size_t *pos, char comp[static NAME_MAX + 1], bool *ret_last,
                          bool *ret_dir) {
        const char *p = todo + *pos;
        size_t n = next_component(&p);

        if (n == 0)
                return 0;
        if (n > NAME_MAX)
                return -ENAMETOOLONG;
        memcpy(comp, p, n);
        comp[n] = 0;
        *pos = (size_t) (p - todo) + n;
        *ret_last = todo[*pos + strspn(todo + *pos, "/")] == 0;
        *ret_dir = todo[*pos] == '/';
        return (int) n;
}

static int mem_tree_add(MemTree *t, const char *path, int type, MemNode **ret) {
        MemNode *cur = t->top;
        const char *p = path;
        size_t n;

        n = next_component(&p);
        if (n == 0)
                return type == DT_DIR ? (*ret = NULL, 0) : -EINVAL;
        for (;;) {
                const char *comp = p;
                size_t len = n;
                bool last;
                MemNode *child;
                char name[NAME_MAX + 1];

                if (len > NAME_MAX)
                        return -ENAMETOOLONG;
                if (len == 2 && comp[0] == '.' && comp[1] == '.')
                        return -EINVAL;
                p += len;
                n = next_component(&p);
                last = n == 0;
                memcpy(name, comp, len);
                name[len] = 0;
                child = hashmap_get(&cur->children, name);
                if (child) {
                        if (last) {
                                if (child->type == DT_DIR && type == DT_DIR) {
                                        *ret = NULL;
                                        return 0;
                                }
                                return -EEXIST;
                        }
                        if (child->type != DT_DIR)
                                return -ENOTDIR;
                        cur = child;
                        continue;
                }
                child = mem_node_new(name, len, last ? type : DT_DIR, cur);
                if (!child)
                        return -ENOMEM;
                if (hashmap_put(&cur->children, child->name, child) < 0) {
                        mem_node_free(child);
                        return -ENOMEM;
                }
                t->n_entries++;
                if (last) {
                        *ret = child;
                        return 0;
                }
                cur = child;
        }
}

/* Marks the new node and its parents that have no origin yet with origin. */
static int mem_tree_set_origin(MemTree *t, MemNode *n, const char *origin) {
        const char *o;
        int r = intern_origin(t, origin, &o);

        if (r < 0)
                return r;
        for (; n && n != t->top && !n->origin; n = n->parent)
                n->origin = o;
        return 0;
}

int mem_tree_add_dir(MemTree *t, const char *path, const char *origin) {
        MemNode *n = NULL;
        int r = mem_tree_add(t, path, DT_DIR, &n);

        if (r < 0 || !n)
                return r;
        return mem_tree_set_origin(t, n, origin);
}

int mem_tree_add_file(MemTree *t, const char *path, const void *data, size_t size, const char *origin) {
        _cleanup_(freep) char *copy = malloc(size + 1);
        MemNode *n = NULL;
        int r;

        if (!copy)
                return -ENOMEM;
        if (size > 0)
                memcpy(copy, data, size);
        copy[size] = 0;
        r = mem_tree_add(t, path, DT_REG, &n);
        if (r < 0)
                return r;
        n->data = TAKE_PTR(copy);
        n->size = size;
        t->bytes += size;
        return mem_tree_set_origin(t, n, origin);
}

int mem_tree_add_symlink(MemTree *t, const char *path, const char *target, const char *origin) {
        _cleanup_(freep) char *copy = strdup(target);
        MemNode *n = NULL;
        int r;

        if (!copy)
                return -ENOMEM;
        if (strlen(target) >= PATH_MAX)
                return -ENAMETOOLONG;
        r = mem_tree_add(t, path, DT_LNK, &n);
        if (r < 0)
                return r;
        n->target = TAKE_PTR(copy);
        t->bytes += strlen(target);
        return mem_tree_set_origin(t, n, origin);
}

/* The node at an in-tree path, following nothing (display and readlink of an already resolved parent). */
static const MemNode *mem_lookup(const MemTree *t, const char *path) {
        const MemNode *cur = t->top;
        const char *p = path;
        size_t n;

        while ((n = next_component(&p)) > 0) {
                char name[NAME_MAX + 1];
                if (n > NAME_MAX || cur->type != DT_DIR)
                        return NULL;
                if (n == 2 && p[0] == '.' && p[1] == '.') {
                        cur = cur->parent ?: cur;
                        p += n;
                        continue;
                }
                memcpy(name, p, n);
                name[n] = 0;
                cur = hashmap_get(&cur->children, name);
                if (!cur)
                        return NULL;
                p += n;
        }
        return cur;
}

int mem_tree_read(const MemTree *t, const char *path, const char **ret_data, size_t *ret_size) {
        const MemNode *n = mem_lookup(t, path);

        if (!n)
                return -ENOENT;
        if (n->type != DT_REG)
                return -EBADFD;
        *ret_data = n->data;
        *ret_size = n->size;
        return 0;
}

/* root_chase() over the tree: the same walk as on a disk, one component at a time. */
static int mem_chase(const MemTree *t, const char *path, ChaseFlags flags, char **ret_path, const MemNode **ret_node) {
        _cleanup_(freep) char *done = NULL, *todo = NULL;
        const MemNode *cur = t->top;
        unsigned hops = 0;
        size_t pos = 0;
        bool missing = false;

        done = strdup("/");
        todo = strdup(path);
        if (!done || !todo)
                return -ENOMEM;
        for (;;) {
                char comp[NAME_MAX + 1];
                const MemNode *child;
                bool last, dir;
                int n = take_component(todo, &pos, comp, &last, &dir);

                if (n < 0)
                        return n;
                if (n == 0)
                        break;
                if (streq(comp, "..")) {
                        (void) path_cut_last(done);
                        if (!missing)
                                cur = cur->parent ?: cur;
                        else
                                cur = mem_lookup(t, done);
                        if (!cur)
                                return -ENOENT;
                        missing = false;
                        continue;
                }
                if (missing) {
                        if (path_push(&done, comp, n) < 0)
                                return -ENOMEM;
                        continue;
                }
                child = hashmap_get(&cur->children, comp);
                if (!child) {
                        if (flags & CHASE_NONEXISTENT) {
                                missing = true;
                                if (path_push(&done, comp, n) < 0)
                                        return -ENOMEM;
                                continue;
                        }
                        return -ENOENT;
                }
                if (child->type == DT_LNK && !(last && !dir && (flags & CHASE_NOFOLLOW_LAST))) {
                        int k;

                        if (++hops > CHASE_SYMLINKS_MAX)
                                return -ELOOP;
                        if (isempty(child->target))
                                return -ENOENT;
                        k = splice_symlink(&todo, &pos, child->target);
                        if (k < 0)
                                return k;
                        if (k > 0) {
                                done[0] = '/';
                                done[1] = 0;
                                cur = t->top;
                        }
                        continue;
                }
                if (dir && child->type != DT_DIR)
                        return -ENOTDIR;
                if (path_push(&done, comp, n) < 0)
                        return -ENOMEM;
                cur = child;
        }
        if (ret_path)
                *ret_path = TAKE_PTR(done);
        if (ret_node)
                *ret_node = missing ? NULL : cur;
        return missing ? 1 : 0;
}

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


/* Opens the directory at the absolute in-root path dir (which has already been resolved and contains no
 * symlinks) by walking from the root fd. */
static int open_resolved(const Root *r, const char *dir) {
        _cleanup_(closep) int fd = -EBADF;
        const char *p = dir;

        fd = openat(r->fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        while (*p) {
                size_t n;
                char comp[NAME_MAX + 1];
                int nfd;

                p += strspn(p, "/");
                n = strcspn(p, "/");
                if (n == 0)
                        break;
                if (n > NAME_MAX)
                        return -ENAMETOOLONG;
                memcpy(comp, p, n);
                comp[n] = 0;
                nfd = openat(fd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
                if (nfd < 0)
                        return -errno;
                close(fd);
                fd = nfd;
                p += n;
        }
        return TAKE_FD(fd);
}

/* The root directory's own path as /proc/self/fd shows it, in top. */
static int read_top(const Root *r, char top[static PATH_MAX]) {
        char proc[64];
        ssize_t n;

        snprintf(proc, sizeof proc, "/proc/self/fd/%d", r->fd);
        n = readlink(proc, top, PATH_MAX - 1);
        if (n <= 0 || (size_t) n >= PATH_MAX - 1)
                return -EOPNOTSUPP;
        top[n] = 0;
        return 0;
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
        if (r->cache->frozen++ == 0 && !r->cache->top && read_top(r, top) >= 0)
                r->cache->top = strdup(top); /* on OOM each chase reads it again */
}

#ifdef SYS_openat2
/* Most paths have no symlink in them. Resolved beneath the root with no symlink allowed, such a path is its own
 * in-root path: no /proc lookups. -EOPNOTSUPP for a path that needs the way of chase_in_kernel(): a symlink on
 * the way (ELOOP), a ".." or a trailing "/" (which asks for a directory). The other errors are what that way
 * would find too, as every component before the failing one is a real directory. */
static int chase_plain(const Root *r, const char *path, uint64_t open_flags, char **ret_path, int *ret_fd) {
        struct open_how how = {
                .flags = open_flags,
                .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
        };
        _cleanup_(closep) int fd = -EBADF;
        char rel[PATH_MAX], *o = rel;
        const char *p = path;
        size_t n = strlen(path);

        if (n > 0 && (path[n - 1] == '/' || path[n - 1] == '.') && !streq(path, "/"))
                return -EOPNOTSUPP;
        /* next_component() leaves out "." components */
        while ((n = next_component(&p)) > 0) {
                if ((n == 2 && p[0] == '.' && p[1] == '.') || (size_t) (o - rel) + n + 2 > sizeof rel)
                        return -EOPNOTSUPP;
                *o++ = '/';
                memcpy(o, p, n);
                o += n;
                p += n;
        }
        *o = 0;
        fd = (int) syscall(SYS_openat2, r->fd, o == rel ? "." : rel + 1, &how, sizeof how);
        if (fd < 0)
                return errno == ENOENT || errno == ENOTDIR || errno == EACCES || errno == ENAMETOOLONG
                               ? -errno
                               : -EOPNOTSUPP; /* ELOOP (a symlink), EXDEV, EAGAIN, ... */
        if (ret_path && !(*ret_path = strdup(o == rel ? "/" : rel)))
                return -ENOMEM;
        if (ret_fd)
                *ret_fd = TAKE_FD(fd);
        return 0;
}
#endif

/* The kernel's RESOLVE_IN_ROOT does what the walk in root_chase() does - symlinks resolved against the root,
 * ".." never above it, at most 40 hops - in one system call instead of one per component. The in-root path comes
 * from /proc/self/fd. Returns -EOPNOTSUPP where that is not available (old kernel, seccomp, no /proc): walk. */
static int chase_in_kernel(const Root *r, const char *path, ChaseFlags flags, char **ret_path, int *ret_fd) {
#ifdef SYS_openat2
        static bool unavailable; /* atomic: roots are read from several threads when frozen */
        struct open_how how = {
                .flags = O_PATH | O_CLOEXEC | ((flags & CHASE_NOFOLLOW_LAST) ? O_NOFOLLOW : 0),
                .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
        };
        _cleanup_(closep) int fd = -EBADF;
        char proc[64], top[PATH_MAX], got[PATH_MAX];
        ssize_t ng;
        const char *rest;
        int k;

        if (__atomic_load_n(&unavailable, __ATOMIC_RELAXED))
                return -EOPNOTSUPP;
        k = chase_plain(r, path, how.flags, ret_path, ret_fd);
        if (k != -EOPNOTSUPP)
                return k;
        fd = (int) syscall(SYS_openat2, r->fd, isempty(path) ? "." : path, &how, sizeof how);
        if (fd < 0) {
                int e = errno;
                if (e == ENOENT || e == ENOTDIR || e == ELOOP || e == ENAMETOOLONG || e == EACCES)
                        return -e;
                if (e == ENOSYS || e == EPERM || e == EINVAL || e == E2BIG)
                        __atomic_store_n(&unavailable, true, __ATOMIC_RELAXED);
                return -EOPNOTSUPP; /* EAGAIN (a concurrent rename) and the rest: let the walk decide */
        }
        if (ret_path) {
                /* the root's own path is looked up once per Root */
                if (r->cache && r->cache->top)
                        strcpy(top, r->cache->top);
                else {
                        if (read_top(r, top) < 0)
                                return -EOPNOTSUPP;
                        if (r->cache && !r->cache->frozen && !(r->cache->top = strdup(top)))
                                return -ENOMEM;
                }
                snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
                ng = readlink(proc, got, sizeof got - 1);
                if (ng <= 0 || (size_t) ng >= sizeof got - 1)
                        return -EOPNOTSUPP;
                got[ng] = 0;
                if (streq(top, "/"))
                        rest = got;
                else if (!(rest = startswith(got, top)) || (*rest != '/' && *rest != 0))
                        return -EOPNOTSUPP; /* cannot tell the in-root path: let the walk find it */
                *ret_path = strdup(*rest ? rest : "/");
                if (!*ret_path)
                        return -ENOMEM;
        }
        if (ret_fd)
                *ret_fd = TAKE_FD(fd);
        return 0;
#else
        return -EOPNOTSUPP;
#endif
}

int root_chase(const Root *r, const char *path, ChaseFlags flags, char **ret_path, int *ret_fd) {
        _cleanup_(freep) char *done = NULL, *todo = NULL;
        _cleanup_(closep) int fd = -EBADF;
        unsigned hops = 0;
        size_t pos = 0;
        bool missing = false;

        if (!path)
                return -EINVAL;
        if (r->mem) {
                if (ret_fd)
                        *ret_fd = -EBADF;
                return mem_chase(r->mem, path, flags, ret_path, NULL);
        }
        if (!(flags & CHASE_NONEXISTENT)) {
                int k = chase_in_kernel(r, path, flags, ret_path, ret_fd);
                if (k != -EOPNOTSUPP)
                        return k;
        }
        done = strdup("/");
        todo = strdup(path);
        if (!done || !todo)
                return -ENOMEM;
        fd = openat(r->fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;

        for (;;) {
                char comp[NAME_MAX + 1];
                struct stat st;
                int nfd;
                bool last, dir;
                int n = take_component(todo, &pos, comp, &last, &dir);

                if (n < 0)
                        return n;
                if (n == 0)
                        break;
                if (streq(comp, "..")) {
                        (void) path_cut_last(done);
                        closep(&fd);
                        fd = open_resolved(r, done);
                        if (fd < 0)
                                return fd;
                        continue;
                }

                if (missing) {
                        /* everything below a missing component is just appended */
                        if (path_push(&done, comp, n) < 0)
                                return -ENOMEM;
                        continue;
                }

                nfd = openat(fd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
                if (nfd < 0) {
                        if (errno == ENOENT && (flags & CHASE_NONEXISTENT)) {
                                missing = true;
                                if (path_push(&done, comp, n) < 0)
                                        return -ENOMEM;
                                continue;
                        }
                        return -errno;
                }
                if (fstat(nfd, &st) < 0) {
                        int e = -errno;
                        close(nfd);
                        return e;
                }

                if (S_ISLNK(st.st_mode) && !(last && !dir && (flags & CHASE_NOFOLLOW_LAST))) {
                        _cleanup_(freep) char *target = NULL;
                        ssize_t k;

                        close(nfd);
                        if (++hops > CHASE_SYMLINKS_MAX)
                                return -ELOOP;
                        target = malloc(PATH_MAX);
                        if (!target)
                                return -ENOMEM;
                        k = readlinkat(fd, comp, target, PATH_MAX - 1);
                        if (k < 0)
                                return -errno;
                        target[k] = 0;
                        if (k == 0)
                                return -ENOENT;

                        /* the rest of the path is appended to the link's target and walked again */
                        k = splice_symlink(&todo, &pos, target);
                        if (k < 0)
                                return (int) k;
                        if (k > 0) {
                                done[1] = 0;
                                done[0] = '/';
                                closep(&fd);
                                fd = openat(r->fd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
                                if (fd < 0)
                                        return -errno;
                        }
                        continue;
                }

                if (dir && !S_ISDIR(st.st_mode)) {
                        close(nfd);
                        return -ENOTDIR;
                }
                if (path_push(&done, comp, n) < 0) {
                        close(nfd);
                        return -ENOMEM;
                }
                close(fd);
                fd = nfd;
        }

        if (ret_path)
                *ret_path = TAKE_PTR(done);
        if (ret_fd)
                *ret_fd = missing ? -EBADF : TAKE_FD(fd);
        return missing ? 1 : 0;
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

                k = mem_chase(r->mem, path, 0, &resolved, &n);
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

                e = mem_chase(r->mem, dir, 0, &resolved, NULL);
                if (e < 0)
                        return e;
                p = path_join(resolved, name);
                if (!p)
                        return -ENOMEM;
                n = mem_lookup(r->mem, p);
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
                e = mem_chase(r->mem, path, CHASE_NOFOLLOW_LAST, NULL, &n);
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

                e = mem_chase(r->mem, path, 0, NULL, &dn);
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

                while (p && !(n = mem_lookup(r->mem, p)) && strchr(p, '/') && !streq(p, "/"))
                        (void) path_cut_last(p);
                if (!p)
                        return NULL;
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
                e = mem_chase(r->mem, path, CHASE_NONEXISTENT, &resolved, &n);
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
