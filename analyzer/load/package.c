/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <strings.h>
#include <sys/stat.h>

#include "basic/unit-name.h"
#include "load/dh-names.h"
#include "load/package.h"
#include "load/search-path.h"

/* What the manager and systemd-tmpfiles read from a package: the unit directories of every search path and
 * tmpfiles.d. Everything else of the package is skipped unread. */
static const char * const kept_dirs[] = {
        "etc/systemd/system",
        "usr/local/lib/systemd/system",
        "lib/systemd/system",
        "usr/lib/systemd/system",
        "etc/tmpfiles.d",
        "usr/local/lib/tmpfiles.d",
        "lib/tmpfiles.d",
        "usr/lib/tmpfiles.d",
        NULL,
};

#define TREE_DEPTH_MAX 16
/* symlinks out of the kept directories followed through at most this many links */
#define LINK_PASSES_MAX 4

static void package_done(Package *p) {
        free(p->file);
        free(p->origin);
        free(p->name);
        free(p->version);
        free(p->architecture);
}

void package_set_done(PackageSet *s) {
        for (size_t i = 0; i < s->n_packages; i++)
                package_done(&s->packages[i]);
        free(s->packages);
        mem_tree_free(s->tree);
        root_free(s->root);
        *s = (PackageSet) {};
}

static const char *kept_prefix(const char *path) {
        for (const char * const *d = kept_dirs; *d; d++) {
                const char *t = startswith(path, *d);
                if (t && (*t == 0 || *t == '/'))
                        return *d;
        }
        return NULL;
}

/* Where the symlink at link (an in-tree path, "lib/systemd/system/x.service") points, as an in-tree path: an
 * absolute target from the package's root, a relative one from link's directory, ".." resolved by the names alone
 * (never above the root), as the in-memory tree resolves it. Returns 0, -EINVAL (it points at the root) or
 * -ENOMEM. */
static int link_target_member(const char *link, const char *target, char **ret) {
        _cleanup_(freep) char *full = NULL, *out = NULL;
        size_t n = 0;

        if (target[0] == '/')
                full = strdup(target);
        else {
                const char *slash = strrchr(link, '/');
                _cleanup_(freep) char *dir = strndup_safe(link, slash ? (size_t) (slash - link) : 0);
                full = dir ? strjoin(dir, "/", target) : NULL;
        }
        out = full ? malloc(strlen(full) + 1) : NULL;
        if (!out)
                return -ENOMEM;
        for (const char *c = full; *c;) {
                size_t l = strcspn(c, "/");
                if (l == 2 && c[0] == '.' && c[1] == '.') {
                        while (n > 0 && out[n - 1] != '/')
                                n--;
                        if (n > 0)
                                n--; /* the "/" before the component dropped */
                } else if (l > 0 && !(l == 1 && c[0] == '.')) {
                        if (n > 0)
                                out[n++] = '/';
                        memcpy(out + n, c, l);
                        n += l;
                }
                c += l + strspn(c + l, "/");
        }
        if (n == 0)
                return -EINVAL;
        out[n] = 0;
        *ret = TAKE_PTR(out);
        return 0;
}

/* A symlink kept at path that points out of the kept directories: what it points at is wanted from the package
 * too (dracut-core's units are absolute symlinks into /usr/lib/dracut), as installing the package would put it
 * there. Returns 0 or -ENOMEM. */
static int want_link_target(const char *path, const char *target, char ***wanted) {
        _cleanup_(freep) char *t = NULL;
        int r = link_target_member(path, target, &t);

        if (r == -EINVAL)
                return 0;
        if (r < 0)
                return r;
        /* a mask is a link to /dev/null, which no package ships */
        if (kept_prefix(t) || streq(t, "dev/null"))
                return 0;
        return strv_extend_unique(wanted, t);
}

/* A member name as an in-tree path: "./lib/x" and "lib/x" -> "lib/x". Absolute names and ".." are refused:
 * dpkg never writes them, and only an attack needs them. Returns 0, -EINVAL (refused) or -ENOMEM. */
static int member_path(const char *name, char **ret) {
        _cleanup_(freep) char *s = NULL;
        const char *p = name;

        if (!name || !*name)
                return -EINVAL;
        if (name[0] == '/')
                return -EINVAL;
        while (startswith(p, "./"))
                p += 2 + strspn(p + 2, "/");
        for (const char *c = p; *c;) {
                size_t n = strcspn(c, "/");
                if (n == 2 && c[0] == '.' && c[1] == '.')
                        return -EINVAL;
                c += n + strspn(c + n, "/");
        }
        s = path_simplify_dup(p);
        if (!s)
                return -ENOMEM;
        while (startswith(s, "./"))
                memmove(s, s + 2, strlen(s + 2) + 1);
        if (streq(s, "."))
                s[0] = 0;
        if (strlen(s) >= PATH_MAX)
                return -ENAMETOOLONG;
        *ret = TAKE_PTR(s);
        return 0;
}

static int ensure_tree(PackageSet *s) {
        if (s->root)
                return -EBUSY;
        return s->tree ? 0 : mem_tree_new(&s->tree);
}

/* A new package in s, its tree made on the first one (nothing may be added after package_set_root()). */
static int new_package(PackageSet *s, const char *file, bool tree, Package **ret) {
        Package *n;
        int r = ensure_tree(s);

        if (r < 0)
                return r;
        n = realloc(s->packages, (s->n_packages + 1) * sizeof(Package));
        if (!n)
                return -ENOMEM;
        s->packages = n;
        n = &s->packages[s->n_packages];
        *n = (Package) { .tree = tree };
        n->file = strdup(file);
        if (tree)
                n->origin = endswith(file, "/") ? strdup(file) : strjoin(file, "/");
        else
                n->origin = strjoin(file, ":");
        if (!n->file || !n->origin) {
                package_done(n);
                return -ENOMEM;
        }
        s->n_packages++;
        *ret = n;
        return 0;
}

static int diag_member(DiagList *diags, DiagLevel level, const Package *p, const char *path, const char *fmt, ...)
        _printf_(5, 6);
static int diag_member(DiagList *diags, DiagLevel level, const Package *p, const char *path, const char *fmt, ...) {
        _cleanup_(freep) char *where = NULL, *m = NULL;
        va_list ap;
        int r;

        where = path ? strjoin(p->origin, path) : strdup(p->file);
        if (!where)
                return -ENOMEM;
        va_start(ap, fmt);
        r = vasprintf(&m, fmt, ap);
        va_end(ap);
        if (r < 0)
                return -ENOMEM;
        return diag_add(diags, level, where, 0, "%s", m);
}

/* Is the tree still within the limits after adding? */
static int check_limits(PackageSet *s, const Package *p, DiagList *diags) {
        if (mem_tree_entries(s->tree) > PACKAGE_ENTRIES_MAX || mem_tree_bytes(s->tree) > PACKAGE_BYTES_MAX) {
                (void) diag_member(diags, DIAG_ERROR, p, NULL,
                                   "more than %u entries or %u MiB in unit and tmpfiles.d directories: refused",
                                   PACKAGE_ENTRIES_MAX, PACKAGE_BYTES_MAX >> 20);
                return -E2BIG;
        }
        return 0;
}

/* The outcome of adding one entry: refusals are warnings, the package goes on. */
static int added(PackageSet *s, Package *p, const char *path, int r, DiagList *diags) {
        if (r == -ENOMEM)
                return r;
        if (r == -EEXIST)
                return diag_member(diags, DIAG_WARNING, p, path,
                                   "a second entry with this path (in this package or an earlier one): ignored, "
                                   "the first is kept");
        if (r == -ENOTDIR)
                return diag_member(diags, DIAG_WARNING, p, path,
                                   "a parent directory is a file or symlink in the packages: ignored");
        if (r < 0)
                return diag_member(diags, DIAG_WARNING, p, path, "cannot be kept: %s", strerror(-r));
        p->n_kept++;
        return check_limits(s, p, diags);
}

/* ---- control files */

static int control_field(const char *text, const char *field, char **ret) {
        size_t fl = strlen(field);

        for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
                if (strncasecmp(l, field, fl) == 0 && l[fl] == ':') {
                        const char *v = l + fl + 1;
                        size_t n;
                        v += strspn(v, " \t");
                        n = strcspn(v, "\n");
                        while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r'))
                                n--;
                        free(*ret);
                        *ret = strndup_safe(v, n);
                        return *ret ? 1 : -ENOMEM;
                }
        }
        return 0;
}

static int parse_control(Package *p, const char *text, size_t size) {
        /* a NUL inside, or a name that is not printable, would end up in reports: taken only as plain text */
        if (strlen(text) != size || !utf8_is_valid_n(text, size, 0))
                return -EBADMSG;
        if (control_field(text, "Package", &p->name) < 0 || control_field(text, "Version", &p->version) < 0 ||
            control_field(text, "Architecture", &p->architecture) < 0)
                return -ENOMEM;
        for (char **f = (char *[]) { p->name, p->version, p->architecture, NULL }; *f; f++)
                for (const char *c = *f; *c; c++)
                        if ((unsigned char) *c < 0x20 || *c == 0x7f)
                                return -EBADMSG;
        return 0;
}

/* ---- .deb */

typedef struct Outer {
        struct archive *a;
        char buf[64 * 1024];
} Outer;

/* The inner archive reads the current member of the outer one: a stream, never a file. */
static la_ssize_t outer_read(struct archive *inner, void *userdata, const void **ret) {
        Outer *o = userdata;
        la_ssize_t n = archive_read_data(o->a, o->buf, sizeof o->buf);

        if (n < 0) {
                archive_set_error(inner, EIO, "%s", archive_error_string(o->a) ?: "read error");
                return -1;
        }
        *ret = o->buf;
        return n;
}

static void archive_freep(struct archive **a) {
        if (*a)
                archive_read_free(*a);
}

static int open_inner(Outer *o, struct archive **ret) {
        _cleanup_(archive_freep) struct archive *a = archive_read_new();

        if (!a)
                return -ENOMEM;
        /* what dpkg-deb writes and reads: tar, compressed with gzip, xz, zstd, bzip2 or lzma, or not */
        if (archive_read_support_format_tar(a) != ARCHIVE_OK || archive_read_support_filter_gzip(a) != ARCHIVE_OK ||
            archive_read_support_filter_xz(a) != ARCHIVE_OK || archive_read_support_filter_bzip2(a) != ARCHIVE_OK ||
            archive_read_support_filter_lzma(a) != ARCHIVE_OK)
                return -ENOMEM;
        /* without libzstd libarchive would start the zstd program: only when it is built in */
        (void) archive_read_support_filter_zstd(a);
        if (archive_read_open(a, o, NULL, outer_read, NULL) != ARCHIVE_OK)
                return -EBADMSG;
        *ret = TAKE_PTR(a);
        return 0;
}

/* Reads the current entry's data, at most max bytes (more is -EFBIG). */
static int read_entry(struct archive *a, size_t max, char **ret, size_t *ret_size) {
        _cleanup_(freep) char *buf = NULL;
        size_t n = 0, allocated = 0;

        for (;;) {
                la_ssize_t k;
                if (GREEDY_REALLOC(buf, allocated, MIN(n + 65536, max + 1) + 1) < 0)
                        return -ENOMEM;
                k = archive_read_data(a, buf + n, MIN(n + 65536, max + 1) - n);
                if (k < 0)
                        return -EBADMSG;
                if (k == 0)
                        break;
                n += (size_t) k;
                if (n > max)
                        return -EFBIG;
        }
        if (!buf && !(buf = malloc(1)))
                return -ENOMEM;
        buf[n] = 0;
        *ret = TAKE_PTR(buf);
        *ret_size = n;
        return 0;
}

static int read_control_tar(Package *p, Outer *o, DiagList *diags) {
        _cleanup_(archive_freep) struct archive *a = NULL;
        struct archive_entry *e;
        int r, k;

        r = open_inner(o, &a);
        if (r < 0)
                return r;
        while ((k = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
                _cleanup_(freep) char *path = NULL, *data = NULL;
                size_t size;

                if (member_path(archive_entry_pathname(e), &path) < 0 || !streq(path, "control") ||
                    archive_entry_filetype(e) != AE_IFREG)
                        continue;
                r = read_entry(a, 1u << 20, &data, &size);
                if (r < 0 || parse_control(p, data, size) < 0) {
                        (void) diag_member(diags, DIAG_WARNING, p, "control", "unreadable control file: ignored");
                        continue;
                }
        }
        return k == ARCHIVE_EOF ? 0 : -EBADMSG;
}

static int keep_entry(PackageSet *s, Package *p, struct archive *a, struct archive_entry *e, const char *path,
                      char ***wanted, DiagList *diags) {
        const char *hard = archive_entry_hardlink(e);
        _cleanup_(freep) char *data = NULL;
        size_t size;
        int r;

        if (hard) {
                /* a hard link shares the data of a member read before: kept as a copy of it */
                _cleanup_(freep) char *target = NULL;
                const char *d;
                size_t n;
                if (member_path(hard, &target) < 0)
                        return diag_member(diags, DIAG_WARNING, p, path, "hard link to a refused name: ignored");
                r = mem_tree_read(s->tree, target, &d, &n);
                if (r < 0)
                        return diag_member(diags, DIAG_WARNING, p, path,
                                           "hard link to %s, which is not a kept file: ignored", target);
                return added(s, p, path, mem_tree_add_file(s->tree, path, d, n, p->origin), diags);
        }
        switch (archive_entry_filetype(e)) {
        case AE_IFDIR:
                return mem_tree_add_dir(s->tree, path, p->origin) == -ENOMEM ? -ENOMEM : 0;
        case AE_IFLNK: {
                const char *t = archive_entry_symlink(e);
                if (isempty(t))
                        return diag_member(diags, DIAG_WARNING, p, path, "symlink without a target: ignored");
                r = want_link_target(path, t, wanted);
                if (r < 0)
                        return r;
                return added(s, p, path, mem_tree_add_symlink(s->tree, path, t, p->origin), diags);
        }
        case AE_IFREG:
                if (archive_entry_size_is_set(e) && archive_entry_size(e) > (la_int64_t) PACKAGE_MEMBER_MAX)
                        return diag_member(diags, DIAG_WARNING, p, path,
                                           "%lld bytes, more than %u MiB: not read, ignored",
                                           (long long) archive_entry_size(e), PACKAGE_MEMBER_MAX >> 20);
                r = read_entry(a, PACKAGE_MEMBER_MAX, &data, &size);
                if (r == -EFBIG)
                        return diag_member(diags, DIAG_WARNING, p, path, "more than %u MiB: ignored",
                                           PACKAGE_MEMBER_MAX >> 20);
                if (r < 0)
                        return r;
                return added(s, p, path, mem_tree_add_file(s->tree, path, data, size, p->origin), diags);
        default:
                return diag_member(diags, DIAG_WARNING, p, path,
                                   "not a regular file, directory or symlink (device, FIFO or socket): ignored");
        }
}

/* Keeps the members of the kept directories (only NULL), or those named in only; symlinks that point elsewhere in
 * the package add their targets to *wanted. */
static int read_data_tar(PackageSet *s, Package *p, Outer *o, char * const *only, char ***wanted,
                         DiagList *diags) {
        _cleanup_(archive_freep) struct archive *a = NULL;
        struct archive_entry *e;
        unsigned members = 0;
        int r, k;

        r = open_inner(o, &a);
        if (r < 0)
                return r;
        while ((k = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
                _cleanup_(freep) char *path = NULL;
                const char *name = archive_entry_pathname(e);

                if (++members > PACKAGE_MEMBERS_MAX) {
                        (void) diag_member(diags, DIAG_ERROR, p, NULL, "more than %u members in data.tar: refused",
                                           PACKAGE_MEMBERS_MAX);
                        return -E2BIG;
                }
                r = member_path(name, &path);
                if (r == -ENOMEM)
                        return r;
                if (r < 0) {
                        /* said only when it aims at what bootrace reads: other refused names cannot matter */
                        (void) diag_member(diags, DIAG_WARNING, p, NULL,
                                           "member \"%s\": absolute name or \"..\": refused", strna(name));
                        continue;
                }
                if (only ? !strv_contains(only, path) : !kept_prefix(path))
                        continue;
                r = keep_entry(s, p, a, e, path, wanted, diags);
                if (r < 0)
                        return r;
        }
        if (k != ARCHIVE_EOF) {
                (void) diag_member(diags, DIAG_ERROR, p, NULL, "damaged data.tar: %s",
                                   archive_error_string(a) ?: "read error");
                return -EBADMSG;
        }
        return 0;
}

int package_file_is_deb(const char *path) {
        _cleanup_(closep) int fd = -EBADF;
        char h[8 + 16];
        struct stat st;
        ssize_t n;

        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode))
                return 0;
        n = pread(fd, h, sizeof h, 0);
        if (n < 0)
                return -errno;
        return n == (ssize_t) sizeof h && memcmp(h, "!<arch>\ndebian-binary", 21) == 0;
}

/* The data.tar of the .deb at path once more, for the members named in only. */
static int reread_data_tar(PackageSet *s, Package *p, const char *path, Outer *o, char * const *only,
                           char ***wanted, DiagList *diags) {
        _cleanup_(archive_freep) struct archive *a = archive_read_new();
        struct archive_entry *e;
        int k;

        if (!a || archive_read_support_format_ar(a) != ARCHIVE_OK)
                return -ENOMEM;
        if (archive_read_open_filename(a, path, 64 * 1024) != ARCHIVE_OK)
                return -EIO; /* read a moment ago: it changed under us */
        o->a = a;
        while ((k = archive_read_next_header(a, &e)) == ARCHIVE_OK)
                if (startswith(strempty(archive_entry_pathname(e)), "data.tar")) {
                        int r = read_data_tar(s, p, o, only, wanted, diags);
                        o->a = NULL;
                        return r;
                }
        o->a = NULL;
        return -EIO;
}

int package_set_add_deb(PackageSet *s, const char *path, DiagList *diags) {
        _cleanup_(archive_freep) struct archive *a = NULL;
        _cleanup_(freep) Outer *o = NULL;
        struct archive_entry *e;
        _cleanup_(strv_freep) char **wanted = NULL;
        Package *p;
        bool seen_binary = false, seen_control = false, seen_data = false;
        size_t errors = diag_count(diags, DIAG_ERROR);
        int r, k;

        r = new_package(s, path, false, &p);
        if (r < 0)
                return r;
        o = calloc(1, sizeof(Outer));
        a = archive_read_new();
        if (!o || !a)
                return -ENOMEM;
        if (archive_read_support_format_ar(a) != ARCHIVE_OK)
                return -ENOMEM;
        if (archive_read_open_filename(a, path, 64 * 1024) != ARCHIVE_OK) {
                int err = archive_errno(a);
                (void) diag_member(diags, DIAG_ERROR, p, NULL, "not a Debian package (an ar archive): %s",
                                   archive_error_string(a) ?: strerror(err));
                return err > 0 ? -err : -EBADMSG;
        }
        o->a = a;
        while ((k = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
                const char *name = strempty(archive_entry_pathname(e));

                if (!seen_binary) {
                        _cleanup_(freep) char *v = NULL;
                        size_t n;
                        if (!streq(name, "debian-binary") || read_entry(a, 64, &v, &n) < 0 || !startswith(v, "2.")) {
                                (void) diag_member(diags, DIAG_ERROR, p, NULL,
                                                   "not a Debian binary package (no debian-binary 2.x first)");
                                return -EBADMSG;
                        }
                        seen_binary = true;
                        continue;
                }
                if (startswith(name, "control.tar")) {
                        if (seen_control) {
                                (void) diag_member(diags, DIAG_ERROR, p, NULL, "two control.tar members");
                                return -EBADMSG;
                        }
                        seen_control = true;
                        r = read_control_tar(p, o, diags);
                } else if (startswith(name, "data.tar")) {
                        if (seen_data) {
                                (void) diag_member(diags, DIAG_ERROR, p, NULL, "two data.tar members");
                                return -EBADMSG;
                        }
                        seen_data = true;
                        r = read_data_tar(s, p, o, NULL, &wanted, diags);
                } else
                        continue; /* "_"-members and others: dpkg-deb ignores or refuses them, none matters here */
                if (r == -EBADMSG && diag_count(diags, DIAG_ERROR) == errors)
                        (void) diag_member(diags, DIAG_ERROR, p, NULL, "damaged %s: %s", name,
                                           archive_error_string(a) ?: "cut short or corrupt");
                if (r < 0)
                        return r;
        }
        if (k != ARCHIVE_EOF || !seen_data) {
                (void) diag_member(diags, DIAG_ERROR, p, NULL, "%s",
                                   k != ARCHIVE_EOF ? "damaged ar archive" : "no data.tar member");
                return -EBADMSG;
        }
        /* what the kept symlinks point at elsewhere in the package: data.tar once more for those (a chain of
         * symlinks a few times), only for packages that have such links */
        for (unsigned pass = 0; wanted && pass < LINK_PASSES_MAX; pass++) {
                _cleanup_(strv_freep) char **only = TAKE_PTR(wanted);
                r = reread_data_tar(s, p, path, o, only, &wanted, diags);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* ---- unpacked trees */

int package_dir_is_tree(const char *dir) {
        _cleanup_(root_freep) Root *r = NULL;

        if (root_open(dir, &r) < 0)
                return 0;
        if (root_entry_type(r, "/DEBIAN") == DT_DIR)
                return 1;
        for (const char * const *d = kept_dirs; *d; d++)
                if (root_entry_type(r, *d) == DT_DIR)
                        return 1;
        return 0;
}

static int copy_tree(PackageSet *s, Package *p, const Root *r, const char *path, unsigned depth, char ***wanted,
                     DiagList *diags) {
        _cleanup_(strv_freep) char **names = NULL;
        int k;

        if (depth > TREE_DEPTH_MAX)
                return diag_member(diags, DIAG_WARNING, p, path, "directories nested too deep: not read");
        k = root_list_dir(r, path, &names);
        if (k == -ENOMEM)
                return k;
        if (k < 0)
                return diag_member(diags, DIAG_WARNING, p, path, "cannot list: %s", strerror(-k));
        STRV_FOREACH(n, names) {
                _cleanup_(freep) char *child = path_join(path, *n), *data = NULL, *target = NULL;
                _cleanup_(closep) int fd = -EBADF;
                size_t size;
                int t;

                if (!child)
                        return -ENOMEM;
                t = root_entry_type(r, child);
                if (t == DT_DIR) {
                        if (mem_tree_add_dir(s->tree, child, p->origin) == -ENOMEM)
                                return -ENOMEM;
                        k = copy_tree(s, p, r, child, depth + 1, wanted, diags);
                } else if (t == DT_LNK) {
                        k = root_readlink(r, child, &target);
                        if (k == -ENOMEM)
                                return k;
                        if (k >= 0 && want_link_target(child, target, wanted) < 0)
                                return -ENOMEM;
                        k = k < 0 ? diag_member(diags, DIAG_WARNING, p, child, "unreadable symlink: ignored") :
                                    added(s, p, child, mem_tree_add_symlink(s->tree, child, target, p->origin),
                                          diags);
                } else if (t == DT_REG) {
                        k = root_open_file(r, child, &fd, NULL);
                        if (k >= 0)
                                k = read_full_fd(fd, PACKAGE_MEMBER_MAX, &data, &size);
                        if (k == -ENOMEM)
                                return k;
                        if (k == -EFBIG)
                                k = diag_member(diags, DIAG_WARNING, p, child, "more than %u MiB: ignored",
                                                PACKAGE_MEMBER_MAX >> 20);
                        else if (k < 0)
                                k = diag_member(diags, DIAG_WARNING, p, child, "cannot read: %s: ignored",
                                                strerror(-k));
                        else
                                k = added(s, p, child, mem_tree_add_file(s->tree, child, data, size, p->origin),
                                          diags);
                } else
                        k = diag_member(diags, DIAG_WARNING, p, child,
                                        "not a regular file, directory or symlink (device, FIFO or socket): ignored");
                if (k < 0)
                        return k;
        }
        return 0;
}

/* A new package of the directory dir (an unpacked tree, a debian/ directory): its file is dir simplified. */
static int new_tree_package(PackageSet *s, const char *dir, Package **ret) {
        _cleanup_(freep) char *clean = path_simplify_dup(dir);

        return clean ? new_package(s, clean, true, ret) : -ENOMEM;
}

/* What the kept symlinks of a tree point at elsewhere in it (files, and symlinks followed on). */
static int copy_wanted(PackageSet *s, Package *p, const Root *r, char ***wanted, DiagList *diags) {
        for (unsigned pass = 0; *wanted && pass < LINK_PASSES_MAX; pass++) {
                _cleanup_(strv_freep) char **only = TAKE_PTR(*wanted);
                STRV_FOREACH(w, only) {
                        _cleanup_(freep) char *target = NULL, *data = NULL;
                        _cleanup_(closep) int fd = -EBADF;
                        size_t size;
                        int t = root_entry_type(r, *w), k = 0;

                        if (t == DT_LNK) {
                                k = root_readlink(r, *w, &target);
                                if (k >= 0 && (k = want_link_target(*w, target, wanted)) >= 0)
                                        k = added(s, p, *w, mem_tree_add_symlink(s->tree, *w, target, p->origin),
                                                  diags);
                        } else if (t == DT_REG) {
                                k = root_open_file(r, *w, &fd, NULL);
                                if (k >= 0)
                                        k = read_full_fd(fd, PACKAGE_MEMBER_MAX, &data, &size);
                                if (k >= 0)
                                        k = added(s, p, *w, mem_tree_add_file(s->tree, *w, data, size, p->origin),
                                                  diags);
                                else if (k != -ENOMEM)
                                        k = diag_member(diags, DIAG_WARNING, p, *w, "cannot read: %s: ignored",
                                                        strerror(-k));
                        }
                        if (k < 0)
                                return k;
                }
        }
        return 0;
}

int package_set_add_tree(PackageSet *s, const char *dir, DiagList *diags) {
        _cleanup_(strv_freep) char **wanted = NULL;
        _cleanup_(root_freep) Root *r = NULL;
        Package *p;
        int k;

        k = new_tree_package(s, dir, &p);
        if (k < 0)
                return k;
        k = root_open(dir, &r);
        if (k < 0) {
                (void) diag_member(diags, DIAG_ERROR, p, NULL, "cannot open: %s", strerror(-k));
                return k;
        }
        {
                _cleanup_(closep) int fd = -EBADF;
                _cleanup_(freep) char *data = NULL;
                size_t size;
                if (root_open_file(r, "/DEBIAN/control", &fd, NULL) >= 0 &&
                    read_full_fd(fd, 1u << 20, &data, &size) >= 0 && parse_control(p, data, size) < 0)
                        (void) diag_member(diags, DIAG_WARNING, p, "DEBIAN/control", "unreadable: ignored");
        }
        for (const char * const *d = kept_dirs; *d; d++) {
                bool real = true;
                /* only directories that are directories all the way: a symlinked /lib would read the same
                 * files twice, and a link out of the tree is no part of the package */
                for (const char *c = strchr(*d, '/'); real; c = strchr(c + 1, '/')) {
                        _cleanup_(freep) char *prefix = strndup_safe(*d, c ? (size_t) (c - *d) : strlen(*d));
                        if (!prefix)
                                return -ENOMEM;
                        real = root_entry_type(r, prefix) == DT_DIR;
                        if (!c)
                                break;
                }
                if (!real)
                        continue;
                if (mem_tree_add_dir(s->tree, *d, p->origin) == -ENOMEM)
                        return -ENOMEM;
                k = copy_tree(s, p, r, *d, 0, &wanted, diags);
                if (k < 0)
                        return k;
        }
        return copy_wanted(s, p, r, &wanted, diags);
}

/* ---- a source package's debian/ directory, standard input */

int package_dir_is_debian(const char *dir) {
        _cleanup_(freep) char *clean = path_simplify_dup(dir), *control = NULL;
        struct stat st;

        if (!clean || !streq(path_basename(clean), "debian"))
                return 0;
        control = path_join(clean, "control");
        return control && stat(control, &st) >= 0 && S_ISREG(st.st_mode);
}

static int debian_packages(const char *dir, char ***ret) {
        _cleanup_(freep) char *control = path_join(dir, "control"), *text = NULL;
        _cleanup_(closep) int fd = -EBADF;
        size_t size;
        int k;

        if (!control)
                return -ENOMEM;
        fd = open(control, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        k = fd < 0 ? -errno : read_full_fd(fd, 1u << 20, &text, &size);
        return k < 0 ? k : dh_control_packages(text, size, ret);
}

int package_debian_file_renamed(const char *path, char **ret_dir) {
        _cleanup_(freep) char *clean = path_simplify_dup(path), *dir = NULL, *name = NULL, *how = NULL;
        _cleanup_(strv_freep) char **packages = NULL;
        const char *base;
        int kind;

        *ret_dir = NULL;
        if (!clean)
                return -ENOMEM;
        base = path_basename(clean);
        dir = base > clean + 1 ? strndup_safe(clean, (size_t) (base - clean - 1)) : strdup(".");
        if (!dir)
                return -ENOMEM;
        if (package_dir_is_debian(dir) <= 0)
                return 0;
        kind = debian_packages(dir, &packages);
        if (kind == -ENOMEM)
                return kind;
        if (kind < 0)
                return 0; /* said when the directory is read as a whole; here it is just a file */
        kind = dh_install_name(packages, base, &name, &how);
        if (kind <= 0)
                return kind;
        if (kind == DH_FILE_UNIT && streq(name, base))
                return 0;
        *ret_dir = TAKE_PTR(dir);
        return 1;
}

/* One file of debian/: read, then kept at the path debhelper installs it to. */
static int add_debian_file(PackageSet *s, Package *p, const char *dir, char * const *packages, const char *base,
                           DiagList *diags) {
        _cleanup_(freep) char *name = NULL, *how = NULL, *file = NULL, *path = NULL, *data = NULL;
        _cleanup_(closep) int fd = -EBADF;
        struct stat st;
        size_t size;
        int kind, r;

        kind = dh_install_name(packages, base, &name, &how);
        if (kind < 0)
                return kind;
        if (kind == DH_FILE_NONE) {
                if (!unit_name_is_valid(base, UNIT_NAME_PLAIN | UNIT_NAME_TEMPLATE))
                        return 0; /* changelog, rules, foo.postinst, ... */
                kind = DH_FILE_UNIT;
                if (!(name = strdup(base)))
                        return -ENOMEM;
        }
        file = path_join(dir, base);
        path = kind == DH_FILE_UNIT ? path_join("lib/systemd/system", name) : path_join("usr/lib/tmpfiles.d", name);
        if (!file || !path)
                return -ENOMEM;
        fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0)
                return errno == ENOMEM ? -ENOMEM :
                       diag_add(diags, DIAG_WARNING, file, 0, "cannot read: %s: ignored",
                                errno == ELOOP ? "a symlink (debhelper installs files)" : strerror(errno));
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
                return diag_add(diags, DIAG_WARNING, file, 0, "not a regular file: ignored");
        r = read_full_fd_stat(fd, &st, PACKAGE_MEMBER_MAX, &data, &size);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return diag_add(diags, DIAG_WARNING, file, 0, "cannot read: %s: ignored", strerror(-r));
        r = mem_tree_add_file_shown(s->tree, path, data, size, p->origin, file);
        if (r == -EEXIST)
                return diag_add(diags, DIAG_WARNING, file, 0,
                                "debhelper installs an earlier file of this directory as %s: this one is ignored", name);
        if (r >= 0 && how &&
            diag_add(diags, DIAG_NOTICE, file, 0, "read as %s (%s)", name, how) < 0)
                return -ENOMEM;
        return added(s, p, path, r, diags);
}

/* debhelper's pkgfile() looks for debian/P.T before the main package's debian/T: the files named so come first
 * (a second file for the same name is then the one ignored) */
static int debian_order(const void *a, const void *b) {
        const char *x = *(const char * const *) a, *y = *(const char * const *) b;
        bool xd = strchr(x, '.') != NULL, yd = strchr(y, '.') != NULL;

        if (xd != yd)
                return xd ? -1 : 1;
        return strcmp(x, y);
}

int package_set_add_debian(PackageSet *s, const char *dir, const char *only, DiagList *diags) {
        _cleanup_(freep) char *control = NULL;
        _cleanup_(strv_freep) char **packages = NULL, **names = NULL;
        _cleanup_(root_freep) Root *r = NULL;
        const char *clean;
        Package *p;
        int k;

        k = new_tree_package(s, dir, &p);
        if (k < 0)
                return k;
        clean = p->file;
        control = path_join(clean, "control");
        if (!control)
                return -ENOMEM;
        k = debian_packages(clean, &packages);
        if (k < 0) {
                (void) diag_add(diags, DIAG_ERROR, control, 0, "%s",
                                k == -EBADMSG ? "no binary package (no \"Package:\" field): not a debian/control" :
                                                strerror(-k));
                return k == -ENOMEM ? k : -EBADMSG;
        }
        p->debian = true;
        if (!(p->name = strdup(packages[0])))
                return -ENOMEM;
        if (only)
                return add_debian_file(s, p, clean, packages, only, diags);
        k = root_open(clean, &r);
        if (k >= 0)
                k = root_list_dir(r, "/", &names);
        if (k < 0) {
                (void) diag_add(diags, DIAG_ERROR, clean, 0, "cannot list: %s", strerror(-k));
                return k;
        }
        qsort_safe(names, strv_length(names), sizeof(char *), debian_order);
        STRV_FOREACH(n, names) {
                k = add_debian_file(s, p, clean, packages, *n, diags);
                if (k < 0)
                        return k;
        }
        return 0;
}

int package_set_add_data(PackageSet *s, const char *shown, const char *name, const void *data, size_t size,
                         DiagList *diags) {
        _cleanup_(freep) char *path = NULL;
        Package *p;
        int k;

        k = new_package(s, shown, false, &p);
        if (k < 0)
                return k;
        p->data = true;
        path = path_join("lib/systemd/system", name);
        if (!path)
                return -ENOMEM;
        if (size > PACKAGE_MEMBER_MAX)
                return diag_add(diags, DIAG_ERROR, shown, 0, "more than %u MiB: refused", PACKAGE_MEMBER_MAX >> 20),
                       -E2BIG;
        return added(s, p, path, mem_tree_add_file_shown(s->tree, path, data, size, p->origin, shown), diags);
}

int package_set_root(PackageSet *s, const Root **ret) {
        int r;

        if (!s->root) {
                if (!s->tree && (r = mem_tree_new(&s->tree)) < 0)
                        return r;
                r = root_open_mem(TAKE_PTR(s->tree), s->n_packages > 0 ? s->packages[0].origin : "packages:",
                                  &s->root);
                if (r < 0)
                        return r;
        }
        *ret = s->root;
        return 0;
}

int package_set_unit_dirs(PackageSet *s, const FeatureSet *fs, char ***ret) {
        _cleanup_(strv_freep) char **sp = NULL, **dirs = NULL;
        const Root *root;
        bool has_lib = false;
        int r;

        r = package_set_root(s, &root);
        if (r < 0)
                return r;
        r = search_path_for(fs, &sp);
        if (r < 0)
                return r;
        STRV_FOREACH(d, sp) {
                has_lib = has_lib || streq(*d, "/lib/systemd/system");
                if (root_entry_type(root, *d) == DT_DIR && strv_extend(&dirs, *d) < 0)
                        return -ENOMEM;
                if (streq(*d, "/usr/lib/systemd/system") && !has_lib &&
                    root_entry_type(root, "/lib/systemd/system") == DT_DIR &&
                    strv_extend(&dirs, "/lib/systemd/system") < 0)
                        return -ENOMEM;
        }
        if (!dirs && !(dirs = calloc(1, sizeof(char *))))
                return -ENOMEM;
        *ret = TAKE_PTR(dirs);
        return 0;
}

/* A regular file, or a symlink to one outside the unit directories: a linked unit, which systemd loads under
 * the symlink's name (a symlink to another unit's file in dirs is an alias of that unit). */
static bool is_unit_file(const Root *root, char * const *dirs, const char *path) {
        _cleanup_(freep) char *resolved = NULL;
        int t = root_entry_type(root, path);

        if (t == DT_REG)
                return true;
        if (t != DT_LNK || root_chase(root, path, 0, &resolved, NULL) != 0 ||
            root_entry_type(root, resolved) != DT_REG)
                return false;
        STRV_FOREACH(d, dirs) {
                const char *rest = startswith(resolved, *d);
                if (rest && rest[0] == '/')
                        return false;
        }
        return true;
}

int package_set_unit_files(PackageSet *s, char * const *dirs, char ***ret) {
        _cleanup_(strv_freep) char **files = NULL;
        const Root *root;
        int r;

        r = package_set_root(s, &root);
        if (r < 0)
                return r;
        STRV_FOREACH(d, dirs) {
                _cleanup_(strv_freep) char **names = NULL;
                if (root_list_dir(root, *d, &names) < 0)
                        continue;
                STRV_FOREACH(n, names) {
                        _cleanup_(freep) char *p = path_join(*d, *n);
                        if (!p)
                                return -ENOMEM;
                        if (!unit_name_is_valid(*n, UNIT_NAME_ANY) || !is_unit_file(root, dirs, p) ||
                            root_null_or_empty(root, p) != 0)
                                continue;
                        if (strv_extend_unique(&files, *n) < 0)
                                return -ENOMEM;
                }
        }
        if (!files && !(files = calloc(1, sizeof(char *))))
                return -ENOMEM;
        *ret = TAKE_PTR(files);
        return 0;
}
