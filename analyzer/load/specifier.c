/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Specifier expansion as unit_full_printf() / unit_name_printf() of the system manager do it, per version. The
 * versions that know each letter, and allow it in unit names, are data (rules/features.xml). */

#include <ctype.h>
#include <limits.h>

#include "basic/unit-name.h"
#include "load/specifier.h"

/* Each letter with the facts that say whether a version knows it (rules/features.xml: specifier-X) and allows
 * it in unit names (specifier-in-names-X; -1: never). */
typedef struct SpecifierInfo {
        char letter;
        Feature known;
        Feature in_names;
} SpecifierInfo;

#define S(c, l) { c, FEATURE_SPECIFIER_##l, _FEATURE_INVALID }
#define SN(c, l) { c, FEATURE_SPECIFIER_##l, FEATURE_SPECIFIER_NAME_##l }
static const SpecifierInfo specifier_table[] = {
        SN('n', n), SN('N', N), SN('p', p), SN('i', i), S('P', P), S('I', I), S('f', f), S('t', t),
        S('c', c), S('r', r), S('R', R), SN('u', u), S('h', h), S('s', s), SN('b', b), SN('H', H),
        SN('m', m), SN('U', U), SN('v', v), S('S', S), S('C', C), S('L', L), SN('j', j), S('J', J),
        S('T', T), S('V', V), S('E', E), SN('g', g), SN('G', G), SN('a', a), SN('B', B), SN('o', o),
        SN('w', w), SN('W', W), SN('l', l), SN('A', A), SN('M', M), S('y', y), S('Y', Y), S('d', d),
        SN('q', q), S('D', D),
};
#undef S
#undef SN

static const char *specifier_name(char letter) {
        static const char names[] = "%a\0%b\0%c\0%d\0%e\0%f\0%g\0%h\0%i\0%j\0%k\0%l\0%m\0%n\0%o\0%p\0%q\0%r\0"
                                    "%s\0%t\0%u\0%v\0%w\0%x\0%y\0%z\0"
                                    "%A\0%B\0%C\0%D\0%E\0%F\0%G\0%H\0%I\0%J\0%K\0%L\0%M\0%N\0%O\0%P\0%Q\0%R\0"
                                    "%S\0%T\0%U\0%V\0%W\0%X\0%Y\0%Z\0"
                                    "%0\0%1\0%2\0%3\0%4\0%5\0%6\0%7\0%8\0%9\0%?";

        if (letter >= 'a' && letter <= 'z')
                return names + 3 * (letter - 'a');
        if (letter >= 'A' && letter <= 'Z')
                return names + 3 * (26 + letter - 'A');
        if (letter >= '0' && letter <= '9')
                return names + 3 * (52 + letter - '0');
        return names + 3 * 62;
}

bool specifier_is_known(char letter, SpecifierUse use, const FeatureSet *fs) {
        for (size_t i = 0; i < ELEMENTSOF(specifier_table); i++) {
                const SpecifierInfo *s = &specifier_table[i];
                if (s->letter != letter)
                        continue;
                if (!feature_enabled(fs, s->known))
                        return false;
                if (use == SPECIFIER_USE_UNIT_NAME)
                        return s->in_names >= 0 && feature_enabled(fs, s->in_names);
                return true;
        }
        return false;
}

static int dup_to(const char *s, char **ret) {
        char *d = strdup(s ?: "");
        if (!d)
                return -ENOMEM;
        *ret = d;
        return 0;
}

static bool user_is_root(const char *user) {
        return !user || streq(user, "root") || streq(user, "0");
}

static bool is_number(const char *s) {
        if (isempty(s))
                return false;
        for (; *s; s++)
                if (*s < '0' || *s > '9')
                        return false;
        return true;
}

/* The value of one specifier: 0 and *ret, -ENXIO when unknown offline, -EINVAL when it cannot be computed. */
static int specifier_value(char letter, const SpecifierContext *c, char **ret) {
        _cleanup_(freep) char *prefix = NULL, *instance = NULL, *t = NULL;
        bool manager_user = feature_enabled(c->features, FEATURE_SPECIFIER_MANAGER_USER);
        const char *dash;
        int r;

        switch (letter) {
        case 'n':
                return dup_to(c->unit_name, ret);
        case 'N':
                return unit_name_strip_suffix(c->unit_name, ret);
        case 'p':
                return unit_name_to_prefix(c->unit_name, ret);
        case 'P':
                r = unit_name_to_prefix(c->unit_name, &prefix);
                return r < 0 ? r : unit_name_unescape(prefix, ret);
        case 'i':
                r = unit_name_to_instance(c->unit_name, &instance);
                return r < 0 ? r : dup_to(instance, ret);
        case 'I':
                r = unit_name_to_instance(c->unit_name, &instance);
                if (r < 0)
                        return r;
                return unit_name_unescape(strempty(instance), ret);
        case 'j':
        case 'J':
                r = unit_name_to_prefix(c->unit_name, &prefix);
                if (r < 0)
                        return r;
                dash = strrchr(prefix, '-');
                if (letter == 'j')
                        return dup_to(dash ? dash + 1 : prefix, ret);
                return unit_name_unescape(dash ? dash + 1 : prefix, ret);
        case 'f':
                r = unit_name_to_instance(c->unit_name, &instance);
                if (r < 0)
                        return r;
                if (instance)
                        return unit_name_path_unescape(instance, ret);
                r = unit_name_to_prefix(c->unit_name, &prefix);
                return r < 0 ? r : unit_name_path_unescape(prefix, ret);
        case 't':
                return dup_to("/run", ret);
        case 'S':
                return dup_to("/var/lib", ret);
        case 'C':
                return dup_to("/var/cache", ret);
        case 'L':
                return dup_to("/var/log", ret);
        case 'E':
                return dup_to("/etc", ret);
        case 'T':
                return dup_to("/tmp", ret);
        case 'V':
                return dup_to("/var/tmp", ret);
        case 'D':
                return dup_to("/usr/share", ret);
        case 'd':
                t = strjoin("/run/credentials/", c->unit_name);
                if (!t)
                        return -ENOMEM;
                *ret = TAKE_PTR(t);
                return 0;
        case 'u':
                if (manager_user || user_is_root(c->user))
                        return dup_to("root", ret);
                return is_number(c->user) ? -ENXIO : dup_to(c->user, ret);
        case 'U':
                if (manager_user || user_is_root(c->user))
                        return dup_to("0", ret);
                return is_number(c->user) ? dup_to(c->user, ret) : -ENXIO;
        case 'g':
                return dup_to("root", ret);
        case 'G':
                return dup_to("0", ret);
        case 'h':
                return manager_user || user_is_root(c->user) ? dup_to("/root", ret) : -ENXIO;
        case 's':
                return manager_user || user_is_root(c->user) ? dup_to("/bin/sh", ret) : -ENXIO;
        case 'H':
                return c->hostname ? dup_to(c->hostname, ret) : -ENXIO;
        case 'l':
                if (!c->hostname)
                        return -ENXIO;
                t = strndup_safe(c->hostname, strcspn(c->hostname, "."));
                if (!t)
                        return -ENOMEM;
                *ret = TAKE_PTR(t);
                return 0;
        case 'm':
                return c->machine_id ? dup_to(c->machine_id, ret) : -ENXIO;
        case 'b':
                return c->boot_id ? dup_to(c->boot_id, ret) : -ENXIO;
        case 'v':
                return c->kernel_release ? dup_to(c->kernel_release, ret) : -ENXIO;
        case 'a':
                return c->architecture ? dup_to(c->architecture, ret) : -ENXIO;
        case 'y':
                return c->fragment_path ? dup_to(c->fragment_path, ret) : -ENXIO;
        case 'Y': {
                const char *slash;
                if (!c->fragment_path)
                        return -ENXIO;
                slash = strrchr(c->fragment_path, '/');
                if (!slash)
                        return dup_to(".", ret);
                t = strndup_safe(c->fragment_path, slash == c->fragment_path ? 1 : (size_t) (slash - c->fragment_path));
                if (!t)
                        return -ENOMEM;
                *ret = TAKE_PTR(t);
                return 0;
        }
        default:
                /* %c %r %R (cgroup paths), %o %w %W %B %A %M (os-release), %q (pretty hostname) */
                return -ENXIO;
        }
}

int specifier_expand(const char *s, const SpecifierContext *c, SpecifierUse use, char **ret,
                     const char **ret_unknown) {
        _cleanup_(freep) char *out = NULL;
        size_t n = 0, allocated = 0, len = strlen(s);
        int r;

        if (!c || !c->features || !unit_name_is_valid(c->unit_name, UNIT_NAME_ANY))
                return -EINVAL;

        if (GREEDY_REALLOC(out, allocated, len + 1) < 0)
                return -ENOMEM;
        for (const char *f = s; *f; f++) {
                _cleanup_(freep) char *w = NULL;
                size_t wl;

                if (*f != '%' || f[1] == 0) {
                        /* a trailing '%' stays */
                        out[n++] = *f;
                        continue;
                }
                f++;
                if (*f == '%') {
                        out[n++] = '%';
                        continue;
                }
                if (!specifier_is_known(*f, use, c->features)) {
                        if (feature_enabled(c->features, FEATURE_SPECIFIER_UNKNOWN_IS_ERROR) && isalnum((unsigned char) *f)) {
                                if (ret_unknown)
                                        *ret_unknown = specifier_name(*f);
                                return -EBADMSG;
                        }
                        if (GREEDY_REALLOC(out, allocated, n + 3 + (len - (size_t) (f - s))) < 0)
                                return -ENOMEM;
                        out[n++] = '%';
                        out[n++] = *f;
                        continue;
                }
                r = specifier_value(*f, c, &w);
                if (r < 0) {
                        if (r != -ENOMEM && ret_unknown)
                                *ret_unknown = specifier_name(*f);
                        return r == -ENXIO || r == -ENOMEM ? r : -EINVAL;
                }
                wl = strlen(w);
                if (GREEDY_REALLOC(out, allocated, n + wl + 1 + (len - (size_t) (f - s))) < 0)
                        return -ENOMEM;
                memcpy(out + n, w, wl);
                n += wl;
        }
        out[n] = 0;
        *ret = TAKE_PTR(out);
        return 0;
}
