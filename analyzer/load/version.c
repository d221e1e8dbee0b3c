/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "load/version.h"
#include "rules/rules.h"

static const char * const version_source_table[_VERSION_SOURCE_MAX] = {
        [VERSION_FROM_OPTION] = "option",
        [VERSION_FROM_TARGET] = "target",
        [VERSION_FROM_ROOT] = "root",
        [VERSION_FROM_DEFAULT] = "default",
        [VERSION_FROM_LIVE] = "live",
};

const char *version_source_to_string(VersionSource s) {
        return s >= 0 && s < _VERSION_SOURCE_MAX ? version_source_table[s] : NULL;
}

static int version_from_library_name(const char *name, unsigned *ret) {
        const char *v = startswith(name, "libsystemd-shared-");
        unsigned n = 0;
        size_t k = 0;

        if (!v || !strstr(v, ".so"))
                return -EINVAL;
        while (v[k] >= '0' && v[k] <= '9' && k < 6)
                n = n * 10 + (unsigned) (v[k++] - '0');
        if (k == 0 || n == 0)
                return -EINVAL;
        *ret = n;
        return 0;
}

static int version_from_dpkg(const Root *root, unsigned *ret) {
        _cleanup_(closep) int fd = -EBADF;
        _cleanup_(freep) char *data = NULL;
        size_t size;
        const char *p;

        if (root_open_file(root, "/var/lib/dpkg/status", &fd, NULL) < 0)
                return -ENOENT;
        if (read_full_fd(fd, 256u << 20, &data, &size) < 0)
                return -ENOENT;
        for (p = data; (p = strstr(p, "Package: systemd\n")); p++) {
                const char *end = strstr(p, "\n\n"), *v = strstr(p, "\nVersion: ");
                unsigned n = 0;
                if (!v || (end && v > end))
                        continue;
                v += strlen("\nVersion: ");
                while (*v >= '0' && *v <= '9')
                        n = n * 10 + (unsigned) (*v++ - '0');
                if (n > 0) {
                        *ret = n;
                        return 0;
                }
        }
        return -ENOENT;
}

int systemd_version_of_root(const Root *root, unsigned *ret) {
        static const char * const dirs[] = {
                "/usr/lib/systemd", "/lib/systemd", "/usr/lib64/systemd", "/usr/lib/x86_64-linux-gnu/systemd",
                "/usr/lib/aarch64-linux-gnu/systemd", "/usr/lib/i386-linux-gnu/systemd",
                "/usr/lib/arm-linux-gnueabihf/systemd", "/usr/lib/powerpc64le-linux-gnu/systemd",
                "/usr/lib/s390x-linux-gnu/systemd", "/usr/lib/riscv64-linux-gnu/systemd",
        };

        for (size_t i = 0; i < ELEMENTSOF(dirs); i++) {
                _cleanup_(strv_freep) char **names = NULL;
                if (root_list_dir(root, dirs[i], &names) < 0)
                        continue;
                STRV_FOREACH(n, names)
                        if (version_from_library_name(*n, ret) >= 0)
                                return 0;
        }
        return version_from_dpkg(root, ret);
}
