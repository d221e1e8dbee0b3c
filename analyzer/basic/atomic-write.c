/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <fcntl.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "basic/atomic-write.h"

static int temp_name(const char *name, char **ret) {
        uint32_t rnd;

        if (getrandom(&rnd, sizeof rnd, GRND_NONBLOCK) != sizeof rnd)
                rnd = (uint32_t) getpid() ^ (uint32_t) (uintptr_t) ret ^ (uint32_t) rand();
        return asprintf_safe(ret, ".#%s.%08x", name, rnd) < 0 ? -ENOMEM : 0;
}

static int write_all(int fd, const char *data, size_t size) {
        while (size > 0) {
                ssize_t k = write(fd, data, size);
                if (k < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                data += k;
                size -= (size_t) k;
        }
        return 0;
}

/* Creates a fresh temporary file next to name; *ret_name is its name. */
static int open_temp(int dir_fd, const char *name, mode_t mode, char **ret_name) {
        for (unsigned attempt = 0; attempt < 64; attempt++) {
                _cleanup_(freep) char *t = NULL;
                int fd;

                if (temp_name(name, &t) < 0)
                        return -ENOMEM;
                fd = openat(dir_fd, t, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
                if (fd >= 0) {
                        *ret_name = TAKE_PTR(t);
                        return fd;
                }
                if (errno != EEXIST)
                        return -errno;
        }
        return -EEXIST;
}

static int fsync_dir(int dir_fd) {
        _cleanup_(closep) int fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        return fsync(fd) < 0 ? -errno : 0;
}

int atomic_write_at(int dir_fd, const char *name, const char *data, size_t size, mode_t new_mode) {
        _cleanup_(freep) char *tmp = NULL;
        _cleanup_(closep) int fd = -EBADF;
        struct stat st;
        bool exists;
        int r;

        if (strchr(name, '/') || streq(name, ".") || streq(name, ".."))
                return -EINVAL;
        exists = fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) >= 0;
        if (!exists && errno != ENOENT)
                return -errno;
        if (exists && S_ISLNK(st.st_mode))
                return -ELOOP;
        if (exists && S_ISDIR(st.st_mode))
                return -EISDIR;
        if (exists && !S_ISREG(st.st_mode))
                return -EBADFD;

        fd = open_temp(dir_fd, name, 0600, &tmp);
        if (fd < 0)
                return fd;
        r = write_all(fd, data, size);
        if (r >= 0 && fchmod(fd, exists ? st.st_mode & 07777 : new_mode) < 0)
                r = -errno;
        /* keep the owner where we may (as root); otherwise the file becomes ours, as an editor would make it
         */
        if (r >= 0 && exists && fchown(fd, st.st_uid, st.st_gid) < 0 && errno != EPERM)
                r = -errno;
        if (r >= 0 && fsync(fd) < 0)
                r = -errno;
        if (r >= 0 && close(TAKE_FD(fd)) < 0)
                r = -errno;
        if (r >= 0 && renameat(dir_fd, tmp, dir_fd, name) < 0)
                r = -errno;
        if (r < 0) {
                (void) unlinkat(dir_fd, tmp, 0);
                return r;
        }
        return fsync_dir(dir_fd);
}

int atomic_write_path(const char *path, const char *data, size_t size, mode_t new_mode) {
        _cleanup_(freep) char *dir = NULL;
        _cleanup_(closep) int dir_fd = -EBADF;
        const char *base = strrchr(path, '/');

        if (!base) {
                dir = strdup(".");
                base = path;
        } else {
                dir = strndup_safe(path, base == path ? 1 : (size_t) (base - path));
                base++;
        }
        if (!dir)
                return -ENOMEM;
        if (isempty(base))
                return -EISDIR;
        dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dir_fd < 0)
                return -errno;
        return atomic_write_at(dir_fd, base, data, size, new_mode);
}

static int close_fd(int fd) {
        if (fd >= 0)
                (void) close(fd);
        return -EBADF;
}

/* renameat2(RENAME_NOREPLACE), or where the file system lacks it a check and a plain rename */
static int rename_noreplace(int dir_fd, const char *from, const char *to) {
        struct stat st;

        if (renameat2(dir_fd, from, dir_fd, to, RENAME_NOREPLACE) >= 0)
                return 0;
        if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
                return -errno;
        if (fstatat(dir_fd, to, &st, AT_SYMLINK_NOFOLLOW) >= 0)
                return -EEXIST;
        return renameat(dir_fd, from, dir_fd, to) < 0 ? -errno : 0;
}

static void remove_temp_dir(int dir_fd, const char *tmp, const char *name) {
        _cleanup_(closep) int fd = openat(dir_fd, tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0)
                (void) unlinkat(fd, name, 0);
        (void) unlinkat(dir_fd, tmp, AT_REMOVEDIR);
}

int atomic_write_in_subdir(int dir_fd, const char *dir, const char *name, const char *data, size_t size,
                           mode_t dir_mode, mode_t new_mode) {
        _cleanup_(freep) char *tmp = NULL;
        _cleanup_(closep) int sub = -EBADF, fd = -EBADF;
        struct stat st;
        int r;

        if (strchr(dir, '/') || streq(dir, ".") || streq(dir, ".."))
                return -EINVAL;
        for (unsigned attempt = 0; attempt < 2; attempt++) {
                if (fstatat(dir_fd, dir, &st, AT_SYMLINK_NOFOLLOW) >= 0) {
                        if (S_ISLNK(st.st_mode))
                                return -ELOOP;
                        if (!S_ISDIR(st.st_mode))
                                return -ENOTDIR;
                        sub = openat(dir_fd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                        if (sub < 0)
                                return -errno;
                        return atomic_write_at(sub, name, data, size, new_mode);
                }
                if (errno != ENOENT)
                        return -errno;

                /* build the directory with its file under a temporary name, then move it into place */
                tmp = mfree(tmp);
                if (temp_name(dir, &tmp) < 0)
                        return -ENOMEM;
                if (mkdirat(dir_fd, tmp, dir_mode) < 0)
                        return -errno;
                sub = openat(dir_fd, tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                r = sub < 0 ? -errno : 0;
                if (r >= 0) {
                        fd = openat(sub, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                                    new_mode);
                        r = fd < 0 ? -errno : write_all(fd, data, size);
                }
                if (r >= 0 && fchmod(fd, new_mode) < 0)
                        r = -errno;
                if (r >= 0 && fsync(fd) < 0)
                        r = -errno;
                if (r >= 0 && fsync(sub) < 0)
                        r = -errno;
                if (r >= 0)
                        r = rename_noreplace(dir_fd, tmp, dir);
                if (r >= 0)
                        return fsync_dir(dir_fd);
                sub = close_fd(sub);
                fd = close_fd(fd);
                remove_temp_dir(dir_fd, tmp, name);
                /* the directory appeared meanwhile: write into it */
                if (r != -EEXIST && r != -ENOTEMPTY)
                        return r;
        }
        return -EEXIST;
}
