/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Packages read into memory: .deb archives made here with libarchive (every compression dpkg-deb writes, and
 * hostile ones: "..", absolute names, links out of the tree, duplicates, devices, oversized and damaged
 * members), and unpacked trees. */

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "features.h"
#include "load/package.h"
#include "tap.h"

static char tmpl[] = "/tmp/test-package.XXXXXX";

typedef struct Member {
        const char *name;
        int type;           /* AE_IFREG, AE_IFDIR, AE_IFLNK, AE_IFCHR; 0 = hard link to target */
        const char *data;   /* file contents, or the link target */
        size_t size;        /* 0: strlen(data) */
} Member;

/* A tar (compressed with filter) of members, in memory. */
static int make_tar(const Member *m, int filter, char **ret, size_t *ret_size) {
        struct archive *a = archive_write_new();
        size_t cap = 16u << 20, used = 0;
        char *buf = malloc(cap);

        if (!a || !buf)
                return -ENOMEM;
        archive_write_set_format_gnutar(a);
        archive_write_add_filter(a, filter);
        archive_write_set_bytes_in_last_block(a, 1);
        if (archive_write_open_memory(a, buf, cap, &used) != ARCHIVE_OK)
                return -EIO;
        for (; m->name; m++) {
                struct archive_entry *e = archive_entry_new();
                size_t size = m->size ?: (m->data ? strlen(m->data) : 0);
                archive_entry_set_pathname(e, m->name);
                archive_entry_set_perm(e, 0644);
                if (m->type == 0) {
                        archive_entry_set_filetype(e, AE_IFREG);
                        archive_entry_set_hardlink(e, m->data);
                        size = 0;
                } else
                        archive_entry_set_filetype(e, (unsigned) m->type);
                if (m->type == AE_IFLNK)
                        archive_entry_set_symlink(e, m->data);
                if (m->type == AE_IFREG)
                        archive_entry_set_size(e, (la_int64_t) size);
                if (m->type == AE_IFCHR)
                        archive_entry_set_rdev(e, 0x0103);
                archive_write_header(a, e);
                if (m->type == AE_IFREG && size > 0) {
                        if (m->size && !m->data) {
                                char *zeros = calloc(1, size);
                                archive_write_data(a, zeros, size);
                                free(zeros);
                        } else
                                archive_write_data(a, m->data, size);
                }
                archive_entry_free(e);
        }
        archive_write_close(a);
        archive_write_free(a);
        *ret = buf;
        *ret_size = used;
        return 0;
}

static void ar_member(struct archive *a, const char *name, const char *data, size_t size) {
        struct archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, name);
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        archive_entry_set_size(e, (la_int64_t) size);
        archive_write_header(a, e);
        archive_write_data(a, data, size);
        archive_entry_free(e);
}

/* Writes NAME.deb with debian-binary (unless binary is NULL), a control.tar.xz and data.tar.SUFFIX. */
static char *make_deb(const char *name, const char *binary, const Member *data, int filter, const char *suffix) {
        static const Member control[] = {
                { "./control", AE_IFREG, "Package: foo\nVersion: 1.0-1\nArchitecture: all\nDescription: x\n" },
                {},
        };
        char *path = NULL, *c = NULL, *d = NULL, dname[64];
        size_t cn = 0, dn = 0;
        struct archive *a = archive_write_new();

        if (asprintf_safe(&path, "%s/%s", tmpl, name) < 0 || make_tar(control, ARCHIVE_FILTER_XZ, &c, &cn) < 0 ||
            make_tar(data, filter, &d, &dn) < 0)
                return NULL;
        archive_write_set_format_ar_svr4(a);
        archive_write_open_filename(a, path);
        if (binary)
                ar_member(a, "debian-binary", binary, strlen(binary));
        ar_member(a, "control.tar.xz", c, cn);
        snprintf(dname, sizeof dname, "data.tar%s", suffix);
        ar_member(a, dname, d, dn);
        archive_write_close(a);
        archive_write_free(a);
        free(c);
        free(d);
        return path;
}

static bool has_diag(const DiagList *l, const char *file_part, const char *msg_part) {
        for (size_t i = 0; i < l->n; i++)
                if ((!file_part || (l->items[i].file && strstr(l->items[i].file, file_part))) &&
                    strstr(l->items[i].message, msg_part))
                        return true;
        return false;
}

static const Member good[] = {
        { "./", AE_IFDIR },
        { "./lib/systemd/system/", AE_IFDIR },
        { "./lib/systemd/system/foo.service", AE_IFREG, "[Service]\nExecStart=/bin/true\nPrivateTmp=yes\n" },
        { "./lib/systemd/system/foo-alias.service", AE_IFLNK, "foo.service" },
        { "./lib/systemd/system/multi-user.target.wants/foo.service", AE_IFLNK, "../foo.service" },
        { "./etc/systemd/system/foo.service.d/override.conf", AE_IFREG, "[Unit]\nAfter=b.service\n" },
        { "./usr/lib/tmpfiles.d/foo.conf", AE_IFREG, "d /var/lib/foo 0755 root root -\n" },
        { "./usr/bin/foo", AE_IFREG, "#!/bin/sh\n" },
        { "./usr/share/doc/foo/copyright", AE_IFREG, "x\n" },
        {},
};

static void test_compressions(void) {
        static const struct {
                int filter;
                const char *suffix;
        } kinds[] = {
                { ARCHIVE_FILTER_GZIP, ".gz" },  { ARCHIVE_FILTER_XZ, ".xz" },    { ARCHIVE_FILTER_ZSTD, ".zst" },
                { ARCHIVE_FILTER_BZIP2, ".bz2" }, { ARCHIVE_FILTER_NONE, "" },
        };

        for (size_t i = 0; i < ELEMENTSOF(kinds); i++) {
                _cleanup_(package_set_done) PackageSet s = {};
                _cleanup_(diag_list_done) DiagList diags = {};
                _cleanup_(freep) char *deb = NULL, *disp = NULL;
                _cleanup_(strv_freep) char **dirs = NULL, **files = NULL;
                const Root *root = NULL;
                char name[64];
                int r;

                snprintf(name, sizeof name, "foo_1.0-1_all%s.deb", kinds[i].suffix);
                deb = make_deb(name, "2.0\n", good, kinds[i].filter, kinds[i].suffix);
                tap_ok(deb && package_file_is_deb(deb) == 1, "%s is a .deb", name);
                r = deb ? package_set_add_deb(&s, deb, &diags) : -EINVAL;
                tap_ok(r == 0, "data.tar%s read (%d)", kinds[i].suffix, r);
                if (r < 0) {
                        diag_list_print(&diags, stdout, DIAG_NOTICE);
                        continue;
                }
                TAP_INTEQ(s.n_packages, 1, "one package");
                TAP_STREQ(s.n_packages ? s.packages[0].name : NULL, "foo", "control: package");
                TAP_STREQ(s.n_packages ? s.packages[0].version : NULL, "1.0-1", "control: version");
                TAP_STREQ(s.n_packages ? s.packages[0].architecture : NULL, "all", "control: architecture");
                TAP_INTEQ(s.packages[0].n_kept, 5, "units, links, drop-in and tmpfiles.d kept, nothing else");
                TAP_INTEQ(package_set_root(&s, &root), 0, "the packages' root");
                TAP_INTEQ(root ? root_entry_type(root, "/usr/bin/foo") : 0, -ENOENT,
                          "the root holds the kept entries only: no /usr/bin/foo");
                TAP_INTEQ(root ? root_entry_type(root, "/lib/systemd/system/foo-alias.service") : 0, DT_LNK,
                          "the root holds the kept entries: the alias, as a symlink");
                disp = root ? root_display_path(root, "/lib/systemd/system/foo.service") : NULL;
                tap_ok(disp && endswith(disp, ".deb:lib/systemd/system/foo.service"), "display %s", strna(disp));
                TAP_INTEQ(package_set_unit_dirs(&s, test_features(252), &dirs), 0, "unit directories for 252");
                TAP_INTEQ(strv_length(dirs), 2, "unit directories for 252: two");
                TAP_STREQ(strv_length(dirs) == 2 ? dirs[0] : NULL, "/etc/systemd/system", "unit directories: /etc first");
                TAP_STREQ(strv_length(dirs) == 2 ? dirs[1] : NULL, "/lib/systemd/system", "unit directories: then /lib");
                TAP_INTEQ(package_set_unit_files(&s, dirs, &files), 0, "the unit files");
                TAP_INTEQ(strv_length(files), 1, "one unit file (the alias is a symlink, not a unit of its own)");
                TAP_STREQ(files ? files[0] : NULL, "foo.service", "the unit file foo.service");
                tap_ok(diags.n == 0, "no diagnostics");
        }
}

static void test_hostile(void) {
        static char big_name[] = "./lib/systemd/system/big.service";
        const Member hostile[] = {
                { "./lib/systemd/system/ok.service", AE_IFREG, "[Service]\nExecStart=/bin/true\n" },
                { "../../etc/systemd/system/evil.service", AE_IFREG, "[Service]\n" },
                { "/etc/systemd/system/abs.service", AE_IFREG, "[Service]\n" },
                { "./lib/systemd/system/../../../../etc/systemd/system/dotdot.service", AE_IFREG, "[Service]\n" },
                { "./lib/systemd/system/out.service", AE_IFLNK, "../../../../../../etc/shadow" },
                { "./lib/systemd/system/ok.service", AE_IFREG, "[Service]\nExecStart=/bin/false\n" },
                { "./lib/systemd/system/dev.service", AE_IFCHR, NULL },
                { "./lib/systemd/system/hard.service", 0, "./lib/systemd/system/ok.service" },
                { "./lib/systemd/system/hard2.service", 0, "./usr/bin/nothing" },
                { big_name, AE_IFREG, NULL, PACKAGE_MEMBER_MAX + 1 },
                { "./lib/systemd/system/ok.service/x.conf", AE_IFREG, "x" },
                {},
        };
        _cleanup_(package_set_done) PackageSet s = {};
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(freep) char *deb = make_deb("hostile_1_all.deb", "2.0\n", hostile, ARCHIVE_FILTER_GZIP, ".gz");
        const Root *root = NULL;
        int r;

        r = deb ? package_set_add_deb(&s, deb, &diags) : -EINVAL;
        TAP_INTEQ(r, 0, "a hostile package is read, its bad members refused one by one");
        tap_ok(has_diag(&diags, NULL, "member \"../../etc/systemd/system/evil.service\": absolute name or \"..\""),
               "\"..\" refused");
        tap_ok(has_diag(&diags, NULL, "member \"/etc/systemd/system/abs.service\""), "absolute name refused");
        tap_ok(has_diag(&diags, NULL, "dotdot.service\": absolute name or \"..\""), "\"..\" inside a name refused");
        tap_ok(has_diag(&diags, "ok.service", "a second entry"), "duplicate refused, the first kept");
        tap_ok(has_diag(&diags, "dev.service", "device, FIFO or socket"), "device refused");
        tap_ok(has_diag(&diags, "hard2.service", "not a kept file"), "hard link to nothing refused");
        tap_ok(has_diag(&diags, "big.service", "not read"), "oversized member not read");
        tap_ok(has_diag(&diags, "ok.service/x.conf", "parent directory is a file"), "a file is no directory");
        if (package_set_root(&s, &root) < 0)
                return;
        {
                _cleanup_(closep) int fd = -EBADF;
                _cleanup_(freep) char *data = NULL;
                size_t n = 0;
                tap_ok(root_open_file(root, "/lib/systemd/system/hard.service", &fd, NULL) == 0 &&
                               read_full_fd(fd, 1024, &data, &n) == 0 && strstr(data, "/bin/true"),
                       "a hard link is a copy of the first ok.service");
        }
        TAP_INTEQ(root_open_file(root, "/lib/systemd/system/out.service", &(int) { -1 }, NULL), -ENOENT,
                  "a symlink out of the package dangles inside it: /etc/shadow is never read");
        TAP_INTEQ(root_entry_type(root, "/etc/systemd/system/evil.service"), -ENOENT, "nothing landed outside");
}

static void test_damaged(void) {
        static const Member one[] = {
                { "./lib/systemd/system/a.service", AE_IFREG, "[Service]\nExecStart=/bin/true\n" },
                {},
        };
        _cleanup_(freep) char *nobin = make_deb("nobin.deb", NULL, one, ARCHIVE_FILTER_XZ, ".xz");
        _cleanup_(freep) char *v3 = make_deb("v3.deb", "3.0\n", one, ARCHIVE_FILTER_XZ, ".xz");
        _cleanup_(freep) char *ok = make_deb("ok.deb", "2.0\n", one, ARCHIVE_FILTER_XZ, ".xz");
        _cleanup_(freep) char *cut = NULL;
        struct stat st;

        {
                _cleanup_(package_set_done) PackageSet s = {};
                _cleanup_(diag_list_done) DiagList diags = {};
                TAP_INTEQ(package_file_is_deb(nobin), 0, "no debian-binary: not a .deb");
                TAP_INTEQ(package_set_add_deb(&s, nobin, &diags), -EBADMSG, "refused when given anyway");
        }
        {
                _cleanup_(package_set_done) PackageSet s = {};
                _cleanup_(diag_list_done) DiagList diags = {};
                TAP_INTEQ(package_set_add_deb(&s, v3, &diags), -EBADMSG, "format 3.0 refused");
        }
        /* the same package cut short in the middle of data.tar */
        if (asprintf_safe(&cut, "%s/cut.deb", tmpl) >= 0 && stat(ok, &st) == 0) {
                _cleanup_(package_set_done) PackageSet s = {};
                _cleanup_(diag_list_done) DiagList diags = {};
                char cmd[1024];
                snprintf(cmd, sizeof cmd, "head -c %lld '%s' > '%s'", (long long) st.st_size - 40, ok, cut);
                if (system(cmd) != 0)
                        tap_diag("head failed");
                TAP_INTEQ(package_set_add_deb(&s, cut, &diags), -EBADMSG, "a truncated package is an error");
                tap_ok(diags.n > 0 && has_diag(&diags, "cut.deb", "damaged"), "and says so");
                if (!has_diag(&diags, "cut.deb", "damaged"))
                        diag_list_print(&diags, stdout, DIAG_NOTICE);
        }
}

static void test_tree(void) {
        _cleanup_(package_set_done) PackageSet s = {};
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(freep) char *tree = NULL, *disp = NULL, *cmd = NULL;
        const Root *root = NULL;

        if (asprintf_safe(&tree, "%s/debian/foo", tmpl) < 0 ||
            asprintf_safe(&cmd, "mkdir -p %1$s/lib/systemd/system %1$s/usr/lib/tmpfiles.d %1$s/DEBIAN %1$s/usr/bin && "
                                "printf '[Service]\\nExecStart=/bin/true\\n' > %1$s/lib/systemd/system/t.service && "
                                "ln -s /etc/passwd %1$s/lib/systemd/system/p.service && "
                                "mkfifo %1$s/lib/systemd/system/fifo.service && "
                                "echo 'd /run/foo' > %1$s/usr/lib/tmpfiles.d/foo.conf && "
                                "echo x > %1$s/usr/bin/foo && "
                                "printf 'Package: foo\\nVersion: 2\\n' > %1$s/DEBIAN/control",
                          tree) < 0 ||
            system(cmd) != 0) {
                tap_bail("cannot make a package tree under %s", tmpl);
        }
        TAP_INTEQ(package_dir_is_tree(tree), 1, "debian/foo is a package tree");
        TAP_INTEQ(package_dir_is_tree(tmpl), 0, "its parent is not");
        TAP_INTEQ(package_set_add_tree(&s, tree, &diags), 0, "tree read");
        if (s.n_packages != 1)
                tap_bail("the tree is not one package: no check below would mean anything");
        TAP_STREQ(s.packages[0].name, "foo", "DEBIAN/control read: package");
        TAP_STREQ(s.packages[0].version, "2", "DEBIAN/control read: version");
        TAP_INTEQ(s.packages[0].n_kept, 3, "unit, link and tmpfiles.d kept");
        tap_ok(has_diag(&diags, "fifo.service", "FIFO"), "a FIFO is refused without blocking");
        if (package_set_root(&s, &root) < 0)
                return;
        disp = root_display_path(root, "/lib/systemd/system/t.service");
        tap_ok(disp && streq(disp + strlen(tmpl), "/debian/foo/lib/systemd/system/t.service"),
               "a tree's display path is the real file (%s)", strna(disp));
}

int main(void) {
        if (!mkdtemp(tmpl)) {
                perror("mkdtemp");
                return 1;
        }
        test_compressions();
        test_hostile();
        test_damaged();
        test_tree();
        {
                char cmd[600];
                snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpl);
                if (system(cmd) != 0)
                        tap_diag("cleanup failed");
        }
        return tap_done();
}
