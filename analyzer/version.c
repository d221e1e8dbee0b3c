/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "rules.h"
#include "version.h"

static const char * const version_source_table[_VERSION_SOURCE_MAX] = {
        [VERSION_FROM_OPTION] = "option",
        [VERSION_FROM_TARGET] = "target",
        [VERSION_FROM_ROOT] = "root",
        [VERSION_FROM_DEFAULT] = "default",
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

int context_resolve_version(const Context *ctx, const Root *root, unsigned *ret, VersionSource *ret_source) {
        VersionSource src = VERSION_FROM_DEFAULT;
        unsigned v = SYSTEMD_VERSION_NEWEST;

        if (ctx->systemd > 0) {
                v = ctx->systemd;
                src = VERSION_FROM_OPTION;
        } else if (ctx->target) {
                _cleanup_(rules_freep) Rules *rules = NULL;
                DiagList diags = {};
                int r = rules_load(NULL, &rules, &diags);

                if (r < 0) {
                        diag_list_print(&diags, stderr, DIAG_ERROR);
                        diag_list_done(&diags);
                        log_error("cannot read the rules in %s, needed for --target", rules_default_dir());
                        return r;
                }
                diag_list_done(&diags);
                if (rules_target_version(rules, ctx->target, &v, NULL) < 0) {
                        _cleanup_(strv_freep) char **names = rules_target_names(rules);
                        log_error("unknown --target=%s; known targets:", ctx->target);
                        STRV_FOREACH(n, names)
                                fprintf(stderr, "  %s\n", *n);
                        return -ENOENT;
                }
                src = VERSION_FROM_TARGET;
        } else if (root && systemd_version_of_root(root, &v) >= 0)
                src = VERSION_FROM_ROOT;
        else
                v = SYSTEMD_VERSION_NEWEST;

        *ret = v;
        if (ret_source)
                *ret_source = src;
        return 0;
}
