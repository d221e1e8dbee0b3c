/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>

#include "fuzz-util.h"

#ifndef FUZZ_RULES_DIR
#define FUZZ_RULES_DIR "rules"
#endif

static char *scratch;

static void scratch_remove(void) {
        int fd;

        if (!scratch)
                return;
        fd = open(scratch, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0) {
                (void) fuzz_rm_children(fd);
                close(fd);
        }
        (void) rmdir(scratch);
        scratch = mfree(scratch);
}

const char *fuzz_scratch_dir(void) {
        const char *tmp = getenv("TMPDIR");

        if (scratch)
                return scratch;
        /* creating and removing files on a disk file system is what makes these fuzzers slow: tmpfs is 7x
         * faster, so /dev/shm comes before /tmp */
        if (isempty(tmp))
                tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        if (asprintf_safe(&scratch, "%s/bootrace-fuzz.XXXXXX", tmp) < 0 || !mkdtemp(scratch)) {
                perror("fuzz: cannot create a scratch directory");
                abort();
        }
        atexit(scratch_remove);
        return scratch;
}

char *fuzz_write_input(const char *name, const uint8_t *data, size_t size) {
        char *path = path_join(fuzz_scratch_dir(), name);
        int fd;

        if (!path)
                abort();
        (void) unlink(path);
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 || (size > 0 && write(fd, data, size) != (ssize_t) size))
                abort();
        close(fd);
        return path;
}

int fuzz_rm_children(int dfd) {
        _cleanup_(closep) int fd = -EBADF;
        DIR *d;
        struct dirent *de;
        int r = 0;

        /* a DIR owns its fd: give it a duplicate so that the caller's stays open */
        fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        d = fdopendir(fd);
        if (!d)
                return -errno;
        fd = -EBADF;
        while ((de = readdir(d))) {
                struct stat st;

                if (streq(de->d_name, ".") || streq(de->d_name, ".."))
                        continue;
                if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                        continue;
                if (S_ISDIR(st.st_mode)) {
                        int sub = openat(dirfd(d), de->d_name,
                                         O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                        if (sub >= 0) {
                                (void) fuzz_rm_children(sub);
                                close(sub);
                        }
                        if (unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR) < 0 && r == 0)
                                r = -errno;
                } else if (unlinkat(dirfd(d), de->d_name, 0) < 0 && r == 0)
                        r = -errno;
        }
        closedir(d);
        return r;
}

int fuzz_mkdir_parents(int dfd, const char *path, const char **ret_name) {
        _cleanup_(closep) int fd = -EBADF;
        const char *p = path;

        if (isempty(path) || path[0] == '/')
                return -EINVAL;
        fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        for (;;) {
                size_t n = strcspn(p, "/");
                char comp[NAME_MAX + 1];
                int nfd;

                if (n == 0 || n > NAME_MAX)
                        return -EINVAL;
                memcpy(comp, p, n);
                comp[n] = 0;
                if (streq(comp, ".") || streq(comp, ".."))
                        return -EINVAL;
                if (p[n] == 0 || p[n + 1] == 0) {
                        if (p[n] == '/')
                                return -EINVAL; /* a trailing slash names no file */
                        *ret_name = p;
                        return TAKE_FD(fd);
                }
                if (mkdirat(fd, comp, 0755) < 0 && errno != EEXIST)
                        return -errno;
                nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (nfd < 0)
                        return -errno;
                close(fd);
                fd = nfd;
                p += n + 1;
        }
}

const char *fuzz_rules_dir(void) {
        const char *e = getenv("BOOTRACE_RULES_DIR");

        return !isempty(e) ? e : FUZZ_RULES_DIR;
}

const FeatureSet *fuzz_features(unsigned v) {
        static Rules *rules;
        static FeatureSet sets[32];
        static size_t n;

        if (!rules) {
                DiagList diags = {};
                if (rules_load(fuzz_rules_dir(), &rules, &diags) < 0) {
                        diag_list_print(&diags, stderr, DIAG_ERROR);
                        fprintf(stderr, "fuzz: cannot load the rules of %s\n", fuzz_rules_dir());
                        abort();
                }
                diag_list_done(&diags);
        }
        for (size_t i = 0; i < n; i++)
                if (sets[i].version == v)
                        return &sets[i];
        if (n == ELEMENTSOF(sets) || rules_feature_set(rules, v, &sets[n]) < 0)
                abort();
        return &sets[n++];
}
