/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Resolving a path inside a root (root_chase()): symlinks against the root, ".." never above it. On a disk the
 * kernel does it in one call where it can (openat2() RESOLVE_IN_ROOT), else one component at a time; the
 * in-memory tree (mem-tree.c) is walked the same way. */

#include <dirent.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <limits.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "load/root-internal.h"

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

/* The next component of *p (skipping "/" and "."): its start and length, 0 at the end. */
size_t path_next_component(const char **p) {
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

/* path_next_component() for the walks of root_chase(): the component of todo from *pos on, copied to comp,
 * *pos moved past it; *ret_last: only slashes follow it; *ret_dir: a slash follows it, so it must be a directory
 * (or a symlink to one, followed even when the last component's symlink is not, as the kernel does). Returns its
 * length, 0 when the path is used up, -ENAMETOOLONG. */
static int take_component(const char *todo, size_t *pos, char comp[static NAME_MAX + 1], bool *ret_last,
                          bool *ret_dir) {
        const char *p = todo + *pos;
        size_t n = path_next_component(&p);

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

/* root_chase() over the tree: the same walk as on a disk, one component at a time. */
int mem_tree_chase(const MemTree *t, const char *path, ChaseFlags flags, char **ret_path,
                   const MemNode **ret_node) {
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
                                cur = mem_tree_lookup(t, done);
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
int root_read_top(const Root *r, char top[static PATH_MAX]) {
        char proc[64];
        ssize_t n;

        snprintf(proc, sizeof proc, "/proc/self/fd/%d", r->fd);
        n = readlink(proc, top, PATH_MAX - 1);
        if (n <= 0 || (size_t) n >= PATH_MAX - 1)
                return -EOPNOTSUPP;
        top[n] = 0;
        return 0;
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
        /* path_next_component() leaves out "." components */
        while ((n = path_next_component(&p)) > 0) {
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
                        if (root_read_top(r, top) < 0)
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
                return mem_tree_chase(r->mem, path, flags, ret_path, NULL);
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
