/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* debhelper's names for the unit and tmpfiles.d files of a debian/ directory (dh-names.h). */

#include <string.h>
#include <strings.h>

#include "basic/unit-name.h"
#include "basic/util.h"
#include "load/dh-names.h"

/* dh_installsystemd's types: the @ (template) form exists for all but mount */
static const char * const unit_types[] = { "service", "target", "socket", "path", "timer", "mount", NULL };

int dh_control_packages(const char *text, size_t size, char ***ret) {
        _cleanup_(strv_freep) char **l = NULL;

        *ret = NULL;
        for (const char *p = text, *end = text + size; p < end;) {
                const char *nl = memchr(p, '\n', (size_t) (end - p)), *stop = nl ? nl : end;

                /* "Package: NAME" starts a binary package's paragraph (field names are case-insensitive) */
                if ((size_t) (stop - p) > 8 && strncasecmp(p, "Package:", 8) == 0) {
                        const char *v = p + 8, *e = stop;
                        while (v < e && (*v == ' ' || *v == '\t'))
                                v++;
                        while (e > v && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
                                e--;
                        if (e > v) {
                                char *name = strndup_safe(v, (size_t) (e - v));
                                if (!name || strv_push(&l, name) < 0)
                                        return -ENOMEM;
                        }
                }
                p = nl ? nl + 1 : end;
        }
        if (!l)
                return -EBADMSG;
        *ret = TAKE_PTR(l);
        return 0;
}

static const char *unit_type_of(const char *s) {
        for (const char * const *t = unit_types; *t; t++)
                if (streq(s, *t))
                        return *t;
        return NULL;
}

/* rest is what follows "P." or "P@." in base: "T" or "N.T" (template: the @ form). 1 with *ret_name, 0 no. */
static int unit_after_package(const char *pkg, const char *rest, bool template, char **ret_name, char **ret_how) {
        const char *dot = strrchr(rest, '.'), *type = unit_type_of(dot ? dot + 1 : rest);
        _cleanup_(freep) char *name = NULL, *how = NULL;

        if (!type || (template && streq(type, "mount")))
                return 0;
        if (!dot) /* P.T, P@.T */
                name = strjoin(pkg, template ? "@." : ".", type);
        else {    /* P.N.T, P@.N.T: --name=N */
                _cleanup_(freep) char *n = strndup_safe(rest, (size_t) (dot - rest));
                if (!n)
                        return -ENOMEM;
                name = strjoin(n, template ? "@." : ".", type);
                how = strjoin("what dh_installsystemd --name=", n, " installs");
                if (!how)
                        return -ENOMEM;
        }
        if (!name)
                return -ENOMEM;
        if (!unit_name_is_valid(name, UNIT_NAME_PLAIN | UNIT_NAME_TEMPLATE))
                return 0;
        *ret_name = TAKE_PTR(name);
        *ret_how = TAKE_PTR(how);
        return 1;
}

/* rest after "P.": "tmpfiles", "tmpfile", "N.tmpfiles", "N.tmpfile". */
static int tmpfiles_after_package(const char *pkg, const char *rest, char **ret_name, char **ret_how) {
        const char *dot = strrchr(rest, '.'), *kind = dot ? dot + 1 : rest;
        _cleanup_(freep) char *n = NULL;

        if (!streq(kind, "tmpfiles") && !streq(kind, "tmpfile"))
                return 0;
        n = dot ? strndup_safe(rest, (size_t) (dot - rest)) : strdup(pkg);
        if (!n || !(*ret_name = strjoin(n, ".conf")))
                return -ENOMEM;
        *ret_how = dot ? strjoin("what dh_installtmpfiles --name=", n, " installs") : NULL;
        if (dot && !*ret_how)
                return -ENOMEM;
        return 1;
}

int dh_install_name(char * const *packages, const char *base, char **ret_name, char **ret_how) {
        const char *best = NULL;
        size_t best_len = 0;
        int r;

        *ret_name = *ret_how = NULL;
        /* the longest package name base starts with: "foo-utils.service" is foo-utils's, not foo's */
        STRV_FOREACH(p, packages) {
                size_t n = strlen(*p);
                if (n > best_len && strncmp(base, *p, n) == 0 && (base[n] == '.' || (base[n] == '@' && base[n + 1] == '.'))) {
                        best = *p;
                        best_len = n;
                }
        }
        if (best) {
                bool template = base[best_len] == '@';
                const char *rest = base + best_len + (template ? 2 : 1);

                r = unit_after_package(best, rest, template, ret_name, ret_how);
                if (r != 0)
                        return r < 0 ? r : DH_FILE_UNIT;
                if (!template) {
                        r = tmpfiles_after_package(best, rest, ret_name, ret_how);
                        if (r != 0)
                                return r < 0 ? r : DH_FILE_TMPFILES;
                }
        }
        /* debian/T and debian/tmpfiles: the main package's */
        if (packages && packages[0] && unit_type_of(base)) {
                if (!(*ret_name = strjoin(packages[0], ".", base)) ||
                    !(*ret_how = strjoin("debhelper's file for the main package, ", packages[0])))
                        return -ENOMEM;
                return DH_FILE_UNIT;
        }
        if (packages && packages[0] && (streq(base, "tmpfiles") || streq(base, "tmpfile"))) {
                if (!(*ret_name = strjoin(packages[0], ".conf")) ||
                    !(*ret_how = strjoin("debhelper's file for the main package, ", packages[0])))
                        return -ENOMEM;
                return DH_FILE_TMPFILES;
        }
        return DH_FILE_NONE;
}
