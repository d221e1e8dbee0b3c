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

int main(void) {
        char tmpl[] = "/tmp/test-atomic-write.XXXXXX", path[4200], other[4200];
        _cleanup_(closep) int dfd = -EBADF;
        struct stat st;
        char *s;
        int r;

        if (!mkdtemp(tmpl))
                return 1;
        dfd = open(tmpl, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

        snprintf(path, sizeof path, "%s/new.service", tmpl);
        r = atomic_write_at(dfd, "new.service", "[Unit]\n", 7, 0644);
        s = slurp(path);
        TAP_INTEQ(r, 0, "a new file is written");
        TAP_STREQ(s, "[Unit]\n", "with its content");
        free(s);
        tap_ok(stat(path, &st) >= 0 && (st.st_mode & 07777) == 0644, "a new file gets the mode asked for");

        (void) chmod(path, 0640);
        r = atomic_write_path(path, "[Unit]\nAfter=a.service\n", 23, 0644);
        s = slurp(path);
        TAP_INTEQ(r, 0, "an existing file is replaced");
        TAP_STREQ(s, "[Unit]\nAfter=a.service\n", "with the new content");
        free(s);
        tap_ok(stat(path, &st) >= 0 && (st.st_mode & 07777) == 0640, "and keeps its own mode (0640)");

        snprintf(other, sizeof other, "%s/outside", tmpl);
        (void) mkdir(other, 0755);
        snprintf(other, sizeof other, "%s/outside/target.service", tmpl);
        {
                FILE *f = fopen(other, "we");
                fputs("original\n", f);
                fclose(f);
        }
        (void) symlinkat("outside/target.service", dfd, "link.service");
        r = atomic_write_at(dfd, "link.service", "x\n", 2, 0644);
        s = slurp(other);
        TAP_INTEQ(r, -ELOOP, "a symlink is refused");
        TAP_STREQ(s, "original\n", "and what it points to is untouched");
        free(s);
        tap_ok(fstatat(dfd, "link.service", &st, AT_SYMLINK_NOFOLLOW) >= 0 && S_ISLNK(st.st_mode),
               "the symlink itself stays");

        TAP_INTEQ(atomic_write_at(dfd, "outside", "x\n", 2, 0644), -EISDIR, "a directory is refused");
        TAP_INTEQ(atomic_write_at(dfd, "../escape", "x\n", 2, 0644), -EINVAL, "a name with a slash is refused");

        r = atomic_write_in_subdir(dfd, "new.service.d", "bootrace-fix.conf", "[Unit]\n", 7, 0755, 0644);
        snprintf(path, sizeof path, "%s/new.service.d/bootrace-fix.conf", tmpl);
        s = slurp(path);
        TAP_INTEQ(r, 0, "a drop-in in a missing directory");
        TAP_STREQ(s, "[Unit]\n", "is created with the directory");
        free(s);
        snprintf(path, sizeof path, "%s/new.service.d", tmpl);
        tap_ok(stat(path, &st) >= 0 && (st.st_mode & 07777) == 0755, "the directory gets mode 0755");

        r = atomic_write_in_subdir(dfd, "new.service.d", "bootrace-fix.conf", "[Unit]\nAfter=b\n", 16, 0755, 0644);
        snprintf(path, sizeof path, "%s/new.service.d/bootrace-fix.conf", tmpl);
        s = slurp(path);
        TAP_INTEQ(r, 0, "a drop-in in an existing directory");
        TAP_STREQ(s, "[Unit]\nAfter=b\n", "replaces the file");
        free(s);

        (void) symlinkat("outside", dfd, "linked.service.d");
        r = atomic_write_in_subdir(dfd, "linked.service.d", "bootrace-fix.conf", "x\n", 2, 0755, 0644);
        snprintf(path, sizeof path, "%s/outside/bootrace-fix.conf", tmpl);
        TAP_INTEQ(r, -ELOOP, "a drop-in directory that is a symlink is refused");
        tap_ok(access(path, F_OK) < 0, "and nothing is written where it points");

        TAP_INTEQ(leftovers(tmpl), 0, "no temporary file or directory is left behind");

        /* a failed write: the file and the directory stay as they were (running as root, permissions do not
         * stop us; a name that is too long does) */
        {
                char longname[300];
                memset(longname, 'x', sizeof longname - 1);
                longname[sizeof longname - 1] = 0;
                r = atomic_write_at(dfd, longname, "x\n", 2, 0644);
                tap_ok(r < 0, "a write that fails reports it (%s)", strerror(-r));
                TAP_INTEQ(leftovers(tmpl), 0, "and leaves nothing behind");
        }

        {
                char cmd[4300];
                snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpl);
                if (system(cmd) != 0)
                        return 1;
        }
        return tap_done();
}
