/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* atomic-write: a replaced file keeps its mode, a symlink is never followed, a missing drop-in directory is
 * created, and no temporary file is left behind, on success or failure. */

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "basic/atomic-write.h"
#include "tap.h"

static char *slurp(const char *path) {
        _cleanup_(closep) int fd = open(path, O_RDONLY | O_CLOEXEC);
        char *buf = NULL;
        size_t n;
        if (fd < 0 || read_full_fd(fd, 1 << 20, &buf, &n) < 0)
                return NULL;
        return buf;
}

/* Entries whose name starts with ".#" (our temporary files and directories), recursively. */
static unsigned leftovers(const char *dir) {
        DIR *d = opendir(dir);
        struct dirent *de;
        unsigned n = 0;

        if (!d)
                return 0;
        while ((de = readdir(d))) {
                char sub[4096];
                if (streq(de->d_name, ".") || streq(de->d_name, ".."))
                        continue;
                if (startswith(de->d_name, ".#"))
                        n++;
                snprintf(sub, sizeof sub, "%s/%s", dir, de->d_name);
                if (de->d_type == DT_DIR)
                        n += leftovers(sub);
        }
        closedir(d);
        return n;
}

static char tmpl[] = "/tmp/test-atomic-write.XXXXXX";
static int dfd = -EBADF;

/* tmpl/rel into buf. */
static const char *at(char *buf, size_t size, const char *rel) {
        snprintf(buf, size, "%s/%s", tmpl, rel);
        return buf;
}

static bool has_mode(const char *path, mode_t mode) {
        struct stat st;
        return stat(path, &st) >= 0 && (st.st_mode & 07777) == mode;
}

static void test_new_and_replace(void) {
        char path[4200];
        char *s;
        int r;

        at(path, sizeof path, "new.service");
        r = atomic_write_at(dfd, "new.service", "[Unit]\n", 7, 0644);
        s = slurp(path);
        TAP_INTEQ(r, 0, "a new file is written");
        TAP_STREQ(s, "[Unit]\n", "with its content");
        free(s);
        tap_ok(has_mode(path, 0644), "a new file gets the mode asked for");

        if (chmod(path, 0640) < 0)
                tap_bail("chmod %s: %m", path);
        r = atomic_write_path(path, "[Unit]\nAfter=a.service\n", 23, 0644);
        s = slurp(path);
        TAP_INTEQ(r, 0, "an existing file is replaced");
        TAP_STREQ(s, "[Unit]\nAfter=a.service\n", "with the new content");
        free(s);
        tap_ok(has_mode(path, 0640), "and keeps its own mode (0640)");
}

static void test_refusals(void) {
        char other[4200];
        struct stat st;
        FILE *f;
        char *s;
        int r;

        if (mkdir(at(other, sizeof other, "outside"), 0755) < 0)
                tap_bail("mkdir %s: %m", other);
        f = fopen(at(other, sizeof other, "outside/target.service"), "we");
        if (!f || fputs("original\n", f) < 0 || fclose(f) != 0)
                tap_bail("cannot write %s", other);
        if (symlinkat("outside/target.service", dfd, "link.service") < 0)
                tap_bail("symlink link.service: %m");
        r = atomic_write_at(dfd, "link.service", "x\n", 2, 0644);
        s = slurp(other);
        TAP_INTEQ(r, -ELOOP, "a symlink is refused");
        TAP_STREQ(s, "original\n", "and what it points to is untouched");
        free(s);
        tap_ok(fstatat(dfd, "link.service", &st, AT_SYMLINK_NOFOLLOW) >= 0, "the symlink itself stays");
        tap_ok(S_ISLNK(st.st_mode), "as a symlink");

        TAP_INTEQ(atomic_write_at(dfd, "outside", "x\n", 2, 0644), -EISDIR, "a directory is refused");
        TAP_INTEQ(atomic_write_at(dfd, "../escape", "x\n", 2, 0644), -EINVAL, "a name with a slash is refused");
}

static void test_dropins(void) {
        char path[4200];
        char *s;
        int r;

        r = atomic_write_in_subdir(dfd, "new.service.d", "bootrace-fix.conf", "[Unit]\n", 7, 0755, 0644);
        s = slurp(at(path, sizeof path, "new.service.d/bootrace-fix.conf"));
        TAP_INTEQ(r, 0, "a drop-in in a missing directory");
        TAP_STREQ(s, "[Unit]\n", "is created with the directory");
        free(s);
        tap_ok(has_mode(at(path, sizeof path, "new.service.d"), 0755), "the directory gets mode 0755");

        r = atomic_write_in_subdir(dfd, "new.service.d", "bootrace-fix.conf", "[Unit]\nAfter=b\n", 16, 0755, 0644);
        s = slurp(at(path, sizeof path, "new.service.d/bootrace-fix.conf"));
        TAP_INTEQ(r, 0, "a drop-in in an existing directory");
        TAP_STREQ(s, "[Unit]\nAfter=b\n", "replaces the file");
        free(s);

        /* "outside" is test_refusals()'s */
        if (symlinkat("outside", dfd, "linked.service.d") < 0)
                tap_bail("symlink linked.service.d: %m");
        r = atomic_write_in_subdir(dfd, "linked.service.d", "bootrace-fix.conf", "x\n", 2, 0755, 0644);
        TAP_INTEQ(r, -ELOOP, "a drop-in directory that is a symlink is refused");
        tap_ok(access(at(path, sizeof path, "outside/bootrace-fix.conf"), F_OK) < 0,
               "and nothing is written where it points");
}

/* A failed write: the file and the directory stay as they were (running as root, permissions do not stop us; a
 * name that is too long does). */
static void test_failed_write(void) {
        char longname[300];
        int r;

        memset(longname, 'x', sizeof longname - 1);
        longname[sizeof longname - 1] = 0;
        r = atomic_write_at(dfd, longname, "x\n", 2, 0644);
        tap_ok(r < 0, "a write that fails reports it (%s)", strerror(-r));
        TAP_INTEQ(leftovers(tmpl), 0, "and leaves nothing behind");
}

int main(void) {
        char cmd[4300];

        if (!mkdtemp(tmpl))
                tap_bail("mkdtemp: %m");
        dfd = open(tmpl, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0)
                tap_bail("open %s: %m", tmpl);

        test_new_and_replace();
        test_refusals();
        test_dropins();
        TAP_INTEQ(leftovers(tmpl), 0, "no temporary file or directory is left behind");
        test_failed_write();

        closep(&dfd);
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpl);
        if (system(cmd) != 0)
                tap_bail("cannot remove %s", tmpl);
        return tap_done();
}
