/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Path resolution inside a root: symlinks never lead outside it, loops end with -ELOOP. */

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "load/root.h"
#include "tap.h"

static char tmpl[] = "/tmp/test-root.XXXXXX";

/* The tree's set-up: a step that fails bails out, as the checks on the tree would test nothing. */
static void mk(const char *rel, const char *content) {
        char p[512];
        FILE *f;
        snprintf(p, sizeof p, "%s/%s", tmpl, rel);
        f = fopen(p, "we");
        if (!f)
                tap_bail("cannot create %s: %m", p);
        if (fputs(content, f) < 0 || fclose(f) != 0)
                tap_bail("cannot write %s: %m", p);
}

static void mkd(const char *rel) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", tmpl, rel);
        if (mkdir(p, 0755) < 0)
                tap_bail("cannot make the directory %s: %m", p);
}

static void ln(const char *target, const char *rel) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", tmpl, rel);
        if (symlink(target, p) < 0)
                tap_bail("cannot make the symlink %s: %m", p);
}

/* Replaces the file at rel, atomically, with a symlink that climbs out of the root to /etc/hostname. */
static void swap_for_escaping_symlink(const char *rel) {
        char p[512], q[520];
        snprintf(p, sizeof p, "%s/%s", tmpl, rel);
        snprintf(q, sizeof q, "%s.new", p);
        if (symlink("../../../../../../../../etc/hostname", q) < 0 || rename(q, p) < 0)
                tap_bail("cannot replace %s by a symlink: %m", p);
}

static void check_chase(const Root *r, const char *path, ChaseFlags flags, int want_r, const char *want_path) {
        _cleanup_(freep) char *got = NULL;
        int k = root_chase(r, path, flags, &got, NULL);
        tap_ok(k == want_r && (want_r < 0 || streq_ptr(got, want_path)), "chase %s -> %s (%d)", path,
               want_path ? want_path : "error", want_r);
        if (!(k == want_r && (want_r < 0 || streq_ptr(got, want_path))))
                tap_diag("got %d %s", k, got ? got : "(null)");
}

/* The same questions for a tree on disk and the same tree in memory: both must answer alike. */
static void common_checks(const Root *r) {
        _cleanup_(strv_freep) char **names = NULL;
        int fd = -1, k;

        check_chase(r, "/lib/systemd/system/a.service", 0, 0, "/usr/lib/systemd/system/a.service");
        check_chase(r, "/etc/systemd/system/abs.service", 0, 0, "/etc/hostname");
        check_chase(r, "/etc/systemd/system/dotdot.service", 0, 0, "/etc/hostname");
        check_chase(r, "/../../../etc/hostname", 0, 0, "/etc/hostname");
        check_chase(r, "etc//systemd/./system/../system/alias.service", 0, 0, "/usr/lib/systemd/system/a.service");
        check_chase(r, "/etc/systemd/system/alias.service", CHASE_NOFOLLOW_LAST, 0,
                    "/etc/systemd/system/alias.service");
        check_chase(r, "/etc/systemd/system/loop1.service", 0, -ELOOP, NULL);
        check_chase(r, "/etc/systemd/system/missing.service", 0, -ENOENT, NULL);
        check_chase(r, "/etc/systemd/system/missing.d/x.conf", CHASE_NONEXISTENT, 1,
                    "/etc/systemd/system/missing.d/x.conf");
        check_chase(r, "/etc/systemd/system/masked.service", CHASE_NONEXISTENT, 1, "/dev/null");
        check_chase(r, "/etc/hostname/x", 0, -ENOTDIR, NULL);
        /* paths without a symlink: resolved without following any (on disk), the same answers */
        check_chase(r, "/usr/lib/systemd/system/a.service", 0, 0, "/usr/lib/systemd/system/a.service");
        check_chase(r, "usr//lib/./systemd/system///a.service", 0, 0, "/usr/lib/systemd/system/a.service");
        check_chase(r, "/usr/lib/systemd/system", 0, 0, "/usr/lib/systemd/system");
        check_chase(r, "/", 0, 0, "/");
        check_chase(r, "/etc/hostname/", 0, -ENOTDIR, NULL);
        check_chase(r, "/etc/hostname/.", 0, -ENOTDIR, NULL);
        check_chase(r, "/usr/lib/systemd/system/", 0, 0, "/usr/lib/systemd/system");
        check_chase(r, "/usr/lib/missing/a.service", 0, -ENOENT, NULL);
        check_chase(r, "/usr/lib/systemd/system/a.service/x", 0, -ENOTDIR, NULL);
        check_chase(r, "/usr/../../usr/lib/systemd/system/a.service", 0, 0, "/usr/lib/systemd/system/a.service");

        {
                /* the content read through an escaping symlink is the root's file, not the host's */
                char buf[64] = {};
                tap_ok(root_open_file(r, "/etc/systemd/system/dotdot.service", &fd, NULL) == 0 &&
                               read(fd, buf, sizeof buf - 1) > 0 && streq(buf, "inside\n"),
                       "reading through ../../.. stays inside the root");
                if (fd >= 0)
                        close(fd);
        }
        k = root_open_file(r, "/etc/systemd", &fd, NULL);
        TAP_INTEQ(k, -EISDIR, "a directory is refused");
        TAP_INTEQ(root_null_or_empty(r, "/etc/systemd/system/masked.service"), 1, "symlink to /dev/null is a mask");
        TAP_INTEQ(root_null_or_empty(r, "/etc/systemd/system/empty.service"), 1, "empty file is a mask");
        TAP_INTEQ(root_null_or_empty(r, "/lib/systemd/system/a.service"), 0, "a unit file is no mask");
        TAP_INTEQ(root_entry_type(r, "/etc/systemd/system/alias.service"), DT_LNK, "entry type of a symlink");
        TAP_INTEQ(root_entry_type(r, "/lib"), DT_LNK, "entry type of /lib");
        TAP_INTEQ(root_entry_type(r, "/lib/systemd"), DT_DIR, "entry type through a symlinked dir");
        tap_ok(root_list_dir(r, "/lib/systemd/system", &names) == 0 && strv_length(names) == 1 &&
                       streq(names[0], "a.service"),
               "list a directory through a symlink");
        {
                /* the listing's types: those root_entry_type() gives, in the order of root_list_dir()'s names */
                _cleanup_(strv_freep) char **plain = NULL, **typed = NULL;
                _cleanup_(freep) unsigned char *types = NULL;
                size_t n = 0, agree = 0;

                if (root_list_dir(r, "/etc/systemd/system", &plain) == 0 &&
                    root_list_dir_types(r, "/etc/systemd/system", &typed, &types) == 0) {
                        n = strv_length(plain);
                        for (size_t i = 0; i < n && typed[i]; i++) {
                                _cleanup_(freep) char *p = path_join("/etc/systemd/system", typed[i]);
                                int t = types[i], e = p ? root_entry_type(r, p) : -ENOMEM;
                                if (streq(plain[i], typed[i]) &&
                                    (t == DT_REG || t == DT_LNK || t == DT_DIR ? e == t : e == DT_UNKNOWN))
                                        agree++;
                                else
                                        tap_diag("%s: listed as %d, root_entry_type() %d", typed[i], t, e);
                        }
                }
                tap_ok(n > 5 && agree == n && strv_length(typed) == n,
                       "listing with types: %zu of %zu names and types as root_entry_type() says", agree, n);
        }
        {
                _cleanup_(freep) char *t = NULL;
                tap_ok(root_readlink(r, "/etc/systemd/system/alias.service", &t) == 0 &&
                               streq(t, "/lib/systemd/system/a.service"),
                       "readlink returns the stored target");
        }
}

static void mem_checks(void) {
        _cleanup_(root_freep) Root *m = NULL;
        _cleanup_(freep) char *d1 = NULL, *d2 = NULL, *d3 = NULL;
        MemTree *t = NULL;

        tap_ok(mem_tree_new(&t) == 0, "mem_tree_new");
        tap_ok(mem_tree_add_dir(t, "/etc/systemd/system", "a.deb:") == 0 &&
                       mem_tree_add_dir(t, "usr/lib/systemd/system", "a.deb:") == 0 &&
                       mem_tree_add_symlink(t, "./lib", "usr/lib", "a.deb:") == 0 &&
                       mem_tree_add_file(t, "usr/lib/systemd/system/a.service", "[Unit]\n", 7, "b.deb:") == 0 &&
                       mem_tree_add_file(t, "etc/hostname", "inside\n", 7, "a.deb:") == 0 &&
                       mem_tree_add_file(t, "etc/systemd/system/empty.service", "", 0, "a.deb:") == 0 &&
                       mem_tree_add_symlink(t, "etc/systemd/system/abs.service", "/etc/hostname", "a.deb:") == 0 &&
                       mem_tree_add_symlink(t, "etc/systemd/system/dotdot.service",
                                            "../../../../../../../../etc/hostname", "a.deb:") == 0 &&
                       mem_tree_add_symlink(t, "etc/systemd/system/masked.service", "/dev/null", "a.deb:") == 0 &&
                       mem_tree_add_symlink(t, "etc/systemd/system/loop1.service", "loop2.service", "a.deb:") == 0 &&
                       mem_tree_add_symlink(t, "etc/systemd/system/loop2.service", "loop1.service", "a.deb:") == 0 &&
                       mem_tree_add_symlink(t, "etc/systemd/system/alias.service", "/lib/systemd/system/a.service",
                                            "a.deb:") == 0,
               "the same tree in memory");
        TAP_INTEQ(mem_tree_add_file(t, "etc/../../x", "", 0, NULL), -EINVAL, "\"..\" is refused when adding");
        TAP_INTEQ(mem_tree_add_file(t, "etc/hostname", "", 0, NULL), -EEXIST, "a duplicate entry is refused");
        TAP_INTEQ(mem_tree_add_file(t, "etc/hostname/x", "", 0, NULL), -ENOTDIR, "a file is no parent");
        TAP_INTEQ(mem_tree_add_file(t, "lib/systemd/x", "", 0, NULL), -ENOTDIR,
                  "nothing is added through a symlink");
        TAP_INTEQ(mem_tree_add_dir(t, "etc/systemd", NULL), 0, "a directory may be added again");
        tap_ok(mem_tree_entries(t) == 17 && mem_tree_bytes(t) > 14, "entries and bytes are counted (%zu)",
               mem_tree_entries(t));
        tap_ok(root_open_mem(t, "pkgs:", &m) == 0, "root_open_mem");
        if (!m)
                return;
        common_checks(m);
        d1 = root_display_path(m, "/usr/lib/systemd/system/a.service");
        d2 = root_display_path(m, "/etc/systemd/system/foo.service.d/x.conf");
        d3 = root_display_path(m, "/var/nothing");
        tap_ok(streq_ptr(d1, "b.deb:usr/lib/systemd/system/a.service"), "display: the entry's origin (%s)", d1);
        tap_ok(streq_ptr(d2, "a.deb:etc/systemd/system/foo.service.d/x.conf"),
               "display of a missing path: the nearest parent's origin (%s)", d2);
        tap_ok(streq_ptr(d3, "pkgs:var/nothing"), "display outside the tree: the root's name (%s)", d3);
        {
                char buf[64] = {};
                int fd = -1;
                tap_ok(root_open_file(m, "/lib/systemd/system/a.service", &fd, NULL) == 0 &&
                               read(fd, buf, sizeof buf - 1) == 7 && streq(buf, "[Unit]\n") &&
                               write(fd, "x", 1) < 0,
                       "a memory file reads back its bytes and cannot be written");
                if (fd >= 0)
                        close(fd);
        }
}

/* The tree on disk every check reads; a step that fails bails out. */
static void make_tree(void) {
        char fifo[512];

        if (!mkdtemp(tmpl))
                tap_bail("mkdtemp: %m");
        mkd("etc");
        mkd("etc/systemd");
        mkd("etc/systemd/system");
        mkd("usr");
        mkd("usr/lib");
        mkd("usr/lib/systemd");
        mkd("usr/lib/systemd/system");
        ln("usr/lib", "lib");
        mk("usr/lib/systemd/system/a.service", "[Unit]\n");
        mk("etc/hostname", "inside\n");
        mk("etc/systemd/system/empty.service", "");
        mk("etc/systemd/system/fresh.service", "");
        ln("/etc/hostname", "etc/systemd/system/abs.service");
        ln("../../../../../../../../etc/hostname", "etc/systemd/system/dotdot.service");
        ln("/dev/null", "etc/systemd/system/masked.service");
        ln("loop2.service", "etc/systemd/system/loop1.service");
        ln("loop1.service", "etc/systemd/system/loop2.service");
        ln("/lib/systemd/system/a.service", "etc/systemd/system/alias.service");
        snprintf(fifo, sizeof fifo, "%s/etc/systemd/system/fifo.service", tmpl);
        if (mkfifo(fifo, 0644) < 0)
                tap_bail("cannot make the FIFO %s: %m", fifo);
}

static void test_disk(const Root *r) {
        _cleanup_(freep) char *disp = NULL;
        _cleanup_(closep) int fd = -EBADF;

        common_checks(r);
        TAP_INTEQ(root_open_file(r, "/etc/systemd/system/fifo.service", &fd, NULL), -EBADFD,
                  "a FIFO is refused without blocking");
        disp = root_display_path(r, "/etc/x");
        tap_ok(disp && startswith(disp, tmpl), "display path: starts with the root");
        tap_ok(disp && endswith(disp, "/etc/x"), "display path: ends with the path inside");
}

/* Reads the file at path of r into buf (a few bytes). Returns what root_open_file() returned. */
static int read_in_root(const Root *r, const char *path, char *buf, size_t size, char **ret_path) {
        _cleanup_(closep) int fd = -EBADF;
        int k = root_open_file(r, path, &fd, ret_path);

        if (k >= 0 && read(fd, buf, size - 1) < 0)
                return -errno;
        return k;
}

/* Once /etc/systemd/system is listed, its entries are answered relative to the directory kept open: the same
 * answers as before, and an entry changed since the listing is resolved the long way, inside the root. */
static void test_listed(Root *r) {
        _cleanup_(strv_freep) char **names = NULL;
        _cleanup_(freep) char *res = NULL, *t = NULL;
        _cleanup_(closep) int fd = -EBADF;
        char buf[64] = {}, empty[64] = {};

        TAP_INTEQ(root_list_dir(r, "/etc/systemd/system", &names), 0, "list /etc/systemd/system");
        TAP_INTEQ(strv_length(names), 9, "its 9 entries");
        tap_ok(r->cache != NULL, "a root on disk keeps listed directories");
        common_checks(r);
        TAP_INTEQ(root_open_file(r, "/etc/systemd/system/fifo.service", &fd, NULL), -EBADFD,
                  "listed: a FIFO is refused without blocking");
        TAP_INTEQ(root_entry_type(r, "/etc/systemd/system/fifo.service"), DT_UNKNOWN,
                  "listed: a FIFO's type is \"other\"");
        TAP_INTEQ(root_entry_type(r, "/etc/systemd/system/nope.service"), -ENOENT, "listed: a missing entry");
        TAP_INTEQ(read_in_root(r, "/etc/systemd/system/empty.service", empty, sizeof empty, &res), 0,
                  "listed: a regular file opens");
        TAP_STREQ(res, "/etc/systemd/system/empty.service", "listed: with its in-root path");
        /* empty.service becomes a symlink out of the root after the listing */
        swap_for_escaping_symlink("etc/systemd/system/empty.service");
        TAP_INTEQ(read_in_root(r, "/etc/systemd/system/empty.service", buf, sizeof buf, NULL), 0,
                  "listed, then replaced by an escaping symlink: it opens");
        TAP_STREQ(buf, "inside\n", "listed, then replaced by an escaping symlink: the root's file is read");
        /* fresh.service, not looked at yet, becomes a symlink out of the root too */
        swap_for_escaping_symlink("etc/systemd/system/fresh.service");
        TAP_INTEQ(root_null_or_empty(r, "/etc/systemd/system/fresh.service"), 0,
                  "listed, then replaced before anyone asked: the root's non-empty file, no mask");
        TAP_INTEQ(root_null_or_empty(r, "/etc/systemd/system/empty.service"), 1,
                  "listed and asked: the first answer stands (a snapshot, like the listing)");
        TAP_INTEQ(root_readlink(r, "/etc/systemd/system/loop1.service", &t), 0, "listed: a symlink is read");
        TAP_STREQ(t, "loop2.service", "listed: relative to its directory");
}

int main(void) {
        _cleanup_(root_freep) Root *r = NULL;
        char cmd[600];

        make_tree();
        if (root_open(tmpl, &r) < 0)
                tap_bail("root_open %s", tmpl);
        test_disk(r);
        test_listed(r);
        mem_checks();
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpl);
        if (system(cmd) != 0)
                tap_diag("cleanup failed");
        return tap_done();
}
