/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>

#include "basic/unit-name.h"
#include "load/fstab-generator.h"

/* The generator's output changed over versions (rules/features.xml: fstab-*), as measured with the real generators
 * of systemd 247, 252 and 257 on the same fstab (tests/t6012-fstab-generator.sh) and from implicit-deps.md §6-7. */

static bool has_option(const char *opts, const char *name) {
        size_t n = strlen(name);
        for (const char *p = opts; p && *p;) {
                size_t k = strcspn(p, ",");
                if (k == n && strncmp(p, name, n) == 0)
                        return true;
                p += k + (p[k] == ',');
        }
        return false;
}

static bool is_network_fs(const char *type, const char *opts) {
        static const char * const net[] = { "nfs", "nfs4", "cifs", "smb3", "smbfs", "sshfs", "ncpfs", "ncp",
                                            "glusterfs", "ceph", "9p", "afs", "davfs", "fuse.sshfs", NULL };
        if (has_option(opts, "_netdev"))
                return true;
        for (const char * const *n = net; *n; n++)
                if (streq(type, *n))
                        return true;
        return false;
}

static int write_file(const char *dir, const char *name, const char *content) {
        _cleanup_(freep) char *p = path_join(dir, name);
        FILE *f;

        if (!p)
                return -ENOMEM;
        f = fopen(p, "wxe");
        if (!f)
                return errno == EEXIST ? 0 : -errno; /* the first entry for a name wins, as in the generator */
        fputs(content, f);
        if (fclose(f) != 0)
                return -errno;
        return 1;
}

static int link_into(const char *dir, const char *target, const char *kind, const char *name, const char *dest) {
        _cleanup_(freep) char *d = NULL, *l = NULL;

        if (asprintf_safe(&d, "%s/%s.%s", dir, target, kind) < 0 || asprintf_safe(&l, "%s/%s", d, name) < 0)
                return -ENOMEM;
        if (mkdir(d, 0755) < 0 && errno != EEXIST)
                return -errno;
        if (symlink(dest, l) < 0 && errno != EEXIST)
                return -errno;
        return 0;
}

/* Does the root have fsck.TYPE (the generator only checks a file system it can check)? */
static bool root_has_fsck(const Root *root, const char *type) {
        static const char * const dirs[] = { "/sbin", "/usr/sbin", "/bin", "/usr/bin", NULL };
        for (const char * const *d = dirs; *d; d++) {
                _cleanup_(freep) char *p = NULL, *r = NULL;
                if (asprintf_safe(&p, "%s/fsck.%s", *d, type) < 0)
                        return false;
                if (root_chase(root, p, 0, &r, NULL) == 0)
                        return true;
        }
        return false;
}

int fstab_generate(const Root *root, const FeatureSet *fs, const char *dir, DiagList *diags) {
        _cleanup_(closep) int fd = -EBADF;
        _cleanup_(freep) char *data = NULL;
        unsigned line = 0;
        size_t size;
        int n = 0, r;

        if (root_open_file(root, "/etc/fstab", &fd, NULL) < 0)
                return 0;
        r = read_full_fd(fd, 4u << 20, &data, &size);
        if (r < 0)
                return r;
        if (feature_enabled(fs, FEATURE_FSTAB_REMOUNT_FS_WANT)) {
                r = link_into(dir, "local-fs.target", "wants", "systemd-remount-fs.service",
                              "/lib/systemd/system/systemd-remount-fs.service");
                if (r < 0)
                        return r;
        }
        for (char *p = data, *nl; p && *p; p = nl ? nl + 1 : NULL) {
                char what[1024], where[1024], type[128], opts[1024] = "defaults";
                int freq = 0, passno = 0;
                _cleanup_(freep) char *name = NULL, *unit = NULL, *dev = NULL, *devunit = NULL, *fsck = NULL;
                bool nofail, noauto, netfs, swap, root_fs;
                const char *target;

                nl = strchr(p, '\n');
                if (nl)
                        *nl = 0;
                line++;
                p += strspn(p, " \t");
                if (*p == '#' || !*p)
                        continue;
                if (sscanf(p, "%1023s %1023s %127s %1023s %d %d", what, where, type, opts, &freq, &passno) < 3) {
                        _cleanup_(freep) char *fp = root_display_path(root, "/etc/fstab");
                        (void) diag_add(diags, DIAG_WARNING, fp, line, "not a valid fstab entry, ignored");
                        continue;
                }
                swap = streq(type, "swap");
                nofail = has_option(opts, "nofail");
                noauto = has_option(opts, "noauto");
                netfs = is_network_fs(type, opts);
                root_fs = streq(where, "/");
                if (!swap && (where[0] != '/' || unit_name_from_path(where, ".mount", &name) < 0))
                        continue;
                if (swap) {
                        if (what[0] != '/' || unit_name_from_path(what, ".swap", &name) < 0)
                                continue;
                        if (startswith(what, "/dev/") && feature_enabled(fs, FEATURE_FSTAB_BLOCKDEV_AFTER) &&
                            (unit_name_path_escape(what, &dev) < 0 ||
                             asprintf_safe(&devunit, "After=blockdev@%s.target\n", dev) < 0))
                                return -ENOMEM;
                        if (asprintf_safe(&unit,
                                          "# Automatically generated by bootrace's model of systemd-fstab-generator\n"
                                          "[Unit]\nSourcePath=/etc/fstab\n%s\n[Swap]\nWhat=%s\n%s%s\n",
                                          strempty(devunit), what, streq(opts, "defaults") ? "" : "Options=",
                                          streq(opts, "defaults") ? "" : opts) < 0)
                                return -ENOMEM;
                        r = write_file(dir, name, unit);
                        if (r > 0 && !noauto)
                                r = link_into(dir, "swap.target", nofail ? "wants" : "requires", name, name);
                        if (r < 0)
                                return r;
                        n++;
                        continue;
                }

                /* the device's fsck unit and block device target, for device paths */
                if (startswith(what, "/dev/")) {
                        if (unit_name_path_escape(what, &dev) < 0)
                                return -ENOMEM;
                        if (passno > 0 && !netfs && !root_fs && root_has_fsck(root, type) &&
                            asprintf_safe(&fsck, "Requires=systemd-fsck@%s.service\nAfter=systemd-fsck@%s.service\n",
                                          dev, dev) < 0)
                                return -ENOMEM;
                        if (feature_enabled(fs, FEATURE_FSTAB_BLOCKDEV_AFTER) &&
                            asprintf_safe(&devunit, "After=blockdev@%s.target\n", dev) < 0)
                                return -ENOMEM;
                }
                target = netfs ? "remote-fs.target" : "local-fs.target";
                if (asprintf_safe(&unit,
                                  "# Automatically generated by bootrace's model of systemd-fstab-generator\n"
                                  "[Unit]\nSourcePath=/etc/fstab\n%s%s%s\n[Mount]\nWhat=%s\nWhere=%s\nType=%s\n%s%s\n",
                                  feature_enabled(fs, FEATURE_FSTAB_BEFORE_LOCAL_FS) && !nofail ? (netfs ? "Before=remote-fs.target\n" : "Before=local-fs.target\n") : "",
                                  strempty(fsck), strempty(devunit), what, where, type,
                                  streq(opts, "defaults") ? "" : "Options=", streq(opts, "defaults") ? "" : opts) < 0)
                        return -ENOMEM;
                r = write_file(dir, name, unit);
                if (r < 0)
                        return r;
                if (r > 0 && !noauto) {
                        char dest[1100];
                        snprintf(dest, sizeof dest, "../%s", name);
                        r = link_into(dir, target, nofail ? "wants" : "requires", name, dest);
                        if (r < 0)
                                return r;
                }
                if (root_fs && passno > 0 && feature_enabled(fs, FEATURE_FSTAB_FSCK_ROOT_WANT) && root_has_fsck(root, type)) {
                        r = link_into(dir, "local-fs.target", "wants", "systemd-fsck-root.service",
                                      "/lib/systemd/system/systemd-fsck-root.service");
                        if (r < 0)
                                return r;
                }
                n++;
        }
        return n;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
        (void) st;
        (void) ftw;
        if (flag == FTW_DP)
                (void) rmdir(path);
        else
                (void) unlink(path);
        return 0;
}

void fstab_generated_remove(const char *dir) {
        if (dir)
                (void) nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
