/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fuzzes reading a Debian binary package: the input is written to a scratch file and read as a .deb (the ar
 * archive, debian-binary, control.tar.* and data.tar.* with every compression libarchive reads for dpkg-deb,
 * member names, hard links, symlinks and the limits) into the in-memory tree, which is then walked the way
 * lint does: the unit directories of two systemd versions, their unit files, every entry resolved and read.
 *
 * Invariants checked besides "no crash, no leak": every listed unit file opens and reads as the bytes the
 * tree holds for it, and every path resolved inside the tree stays absolute and free of "..". FUZZ_DEBUG=1
 * prints the diagnostics and the unit files found (to check that a seed builds what it means). */

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "fuzz-util.h"
#include "fuzz.h"
#include "load/package.h"

#define INPUT_MAX (1024 * 1024)
#define WALK_MAX 4096

static bool path_is_clean(const char *p) {
        if (!p || p[0] != '/')
                return false;
        for (const char *c = p; *c;) {
                size_t n = strcspn(c, "/");
                if (n == 2 && c[0] == '.' && c[1] == '.')
                        return false;
                c += n + strspn(c + n, "/");
        }
        return true;
}

/* Resolves and reads what is at path and, for directories, below it (at most *budget entries). */
static void walk(const Root *root, const char *path, unsigned depth, unsigned *budget) {
        _cleanup_(strv_freep) char **names = NULL;
        _cleanup_(freep) char *resolved = NULL, *display = NULL, *target = NULL;
        int t;

        if (*budget == 0 || depth > 32)
                return;
        (*budget)--;
        t = root_entry_type(root, path);
        if (t == -ENOMEM)
                abort();
        if (t < 0)
                return;
        display = root_display_path(root, path);
        if (!display)
                abort();
        if (t == DT_LNK && root_readlink(root, path, &target) == -ENOMEM)
                abort();
        if (root_chase(root, path, 0, &resolved, NULL) >= 0 && !path_is_clean(resolved))
                abort(); /* a resolved path that leaves the tree's namespace */
        if (t == DT_REG || t == DT_LNK) {
                _cleanup_(closep) int fd = -EBADF;
                _cleanup_(freep) char *data = NULL;
                size_t size;
                if (root_open_file(root, path, &fd, NULL) >= 0 &&
                    read_full_fd(fd, 8u << 20, &data, &size) == -ENOMEM)
                        abort();
                (void) root_null_or_empty(root, path);
        }
        if (t != DT_DIR || root_list_dir(root, path, &names) < 0)
                return;
        STRV_FOREACH(n, names) {
                _cleanup_(freep) char *child = path_join(path, *n);
                if (!child)
                        abort();
                walk(root, child, depth + 1, budget);
        }
}

/* Every unit file the packages provide opens and reads as what the tree holds. */
static void check_unit_files(PackageSet *s, const Root *root, unsigned v) {
        _cleanup_(strv_freep) char **dirs = NULL, **files = NULL;

        if (package_set_unit_dirs(s, fuzz_features(v), &dirs) < 0 || package_set_unit_files(s, dirs, &files) < 0)
                return;
        STRV_FOREACH(f, files) {
                bool found = false;
                STRV_FOREACH(d, dirs) {
                        _cleanup_(freep) char *p = path_join(*d, *f), *data = NULL;
                        _cleanup_(closep) int fd = -EBADF;
                        size_t size;
                        if (!p)
                                abort();
                        if (root_entry_type(root, p) != DT_REG)
                                continue;
                        if (root_open_file(root, p, &fd, NULL) < 0 ||
                            read_full_fd(fd, 8u << 20, &data, &size) < 0)
                                abort(); /* listed as a unit file, but cannot be read */
                        found = true;
                        if (getenv("FUZZ_DEBUG"))
                                fprintf(stderr, "unit %s (%zu bytes)\n", p, size);
                        break;
                }
                if (!found)
                        abort();
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        _cleanup_(package_set_done) PackageSet s = {};
        _cleanup_(diag_list_done) DiagList d = {};
        _cleanup_(freep) char *path = NULL;
        const Root *root;
        unsigned budget = WALK_MAX;
        int r;

        if (size > INPUT_MAX)
                return 0;
        path = fuzz_write_input("input.deb", data, size);

        r = package_file_is_deb(path);
        if (r < 0)
                abort();
        r = package_set_add_deb(&s, path, &d);
        if (r == -ENOMEM)
                abort();
        if (r < 0 && diag_count(&d, DIAG_ERROR) == 0)
                abort(); /* a refused package must say why */
        if (getenv("FUZZ_DEBUG")) {
                fprintf(stderr, "package_set_add_deb: %s\n", r < 0 ? strerror(-r) : "ok");
                diag_list_print(&d, stderr, DIAG_NOTICE);
        }
        /* lint stops at a damaged package; the tree of what was read so far must still be sound */
        if (package_set_root(&s, &root) < 0)
                abort();
        check_unit_files(&s, root, 229);
        check_unit_files(&s, root, 257);
        walk(root, "/", 0, &budget);
        return 0;
}
