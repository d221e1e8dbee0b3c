/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit names as systemd's unit-name.c treats them: validity, templates and instances, and the escaping of
 * systemd-escape (with and without --path). */

#include "basic/unit-name.h"


static const char * const unit_type_table[_UNIT_TYPE_MAX] = {
        [UNIT_SERVICE] = "service",
        [UNIT_SOCKET] = "socket",
        [UNIT_TARGET] = "target",
        [UNIT_DEVICE] = "device",
        [UNIT_MOUNT] = "mount",
        [UNIT_AUTOMOUNT] = "automount",
        [UNIT_SWAP] = "swap",
        [UNIT_TIMER] = "timer",
        [UNIT_PATH] = "path",
        [UNIT_SLICE] = "slice",
        [UNIT_SCOPE] = "scope",
};

const char *unit_type_to_string(UnitType t) {
        return t >= 0 && t < _UNIT_TYPE_MAX ? unit_type_table[t] : NULL;
}

UnitType unit_type_from_string(const char *s) {
        if (!s)
                return _UNIT_TYPE_INVALID;
        /* asked for every name of a large tree: a full comparison only with the types of the same first letter */
        for (size_t i = 0; i < _UNIT_TYPE_MAX; i++)
                if (unit_type_table[i][0] == s[0] && streq(unit_type_table[i], s))
                        return (UnitType) i;
        return _UNIT_TYPE_INVALID;
}

UnitType unit_name_to_type(const char *name) {
        const char *e;

        if (!unit_name_is_valid(name, UNIT_NAME_ANY))
                return _UNIT_TYPE_INVALID;
        e = strrchr(name, '.');
        return unit_type_from_string(e + 1);
}

static bool char_is_valid(char c) {
        /* systemd's VALID_CHARS: ASCII letters and digits, and ":-_.\\" */
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ':' || c == '-' ||
               c == '_' || c == '.' || c == '\\';
}

bool unit_name_is_valid(const char *name, UnitNameFlags flags) {
        const char *e, *at = NULL;

        /* As systemd: an '@' after the first one is accepted as part of the instance. */
        if (isempty(name) || strlen(name) > UNIT_NAME_MAX)
                return false;
        e = strrchr(name, '.');
        if (!e || e == name || unit_type_from_string(e + 1) < 0)
                return false;
        for (const char *i = name; i < e; i++) {
                if (*i == '@' && !at)
                        at = i;
                if (*i != '@' && !char_is_valid(*i))
                        return false;
        }
        if (at == name)
                return false;
        if ((flags & UNIT_NAME_PLAIN) && !at)
                return true;
        if ((flags & UNIT_NAME_INSTANCE) && at && e > at + 1)
                return true;
        if ((flags & UNIT_NAME_TEMPLATE) && at && e == at + 1)
                return true;
        return false;
}

int unit_name_to_prefix(const char *name, char **ret) {
        const char *p;
        char *s;

        if (!unit_name_is_valid(name, UNIT_NAME_ANY))
                return -EINVAL;
        p = strchr(name, '@');
        if (!p)
                p = strrchr(name, '.');
        s = strndup_safe(name, (size_t) (p - name));
        if (!s)
                return -ENOMEM;
        *ret = s;
        return 0;
}

int unit_name_to_instance(const char *name, char **ret) {
        const char *p, *d;
        char *s;

        if (!unit_name_is_valid(name, UNIT_NAME_ANY))
                return -EINVAL;
        p = strchr(name, '@');
        if (!p) {
                *ret = NULL;
                return 0;
        }
        d = strrchr(name, '.');
        s = strndup_safe(p + 1, (size_t) (d - p - 1));
        if (!s)
                return -ENOMEM;
        *ret = s;
        return 0;
}

int unit_name_template(const char *name, char **ret) {
        const char *p, *d;
        char *s;

        if (!unit_name_is_valid(name, UNIT_NAME_INSTANCE | UNIT_NAME_TEMPLATE))
                return -EINVAL;
        p = strchr(name, '@');
        d = strrchr(name, '.');
        s = malloc((size_t) (p - name) + 1 + strlen(d) + 1);
        if (!s)
                return -ENOMEM;
        memcpy(s, name, (size_t) (p - name) + 1);
        strcpy(s + (p - name) + 1, d);
        *ret = s;
        return 0;
}

int unit_name_replace_instance(const char *name, const char *instance, char **ret) {
        const char *p, *d;
        _cleanup_(freep) char *s = NULL;

        if (!unit_name_is_valid(name, UNIT_NAME_INSTANCE | UNIT_NAME_TEMPLATE))
                return -EINVAL;
        p = strchr(name, '@');
        d = strrchr(name, '.');
        s = malloc((size_t) (p - name) + 1 + strlen(instance) + strlen(d) + 1);
        if (!s)
                return -ENOMEM;
        memcpy(s, name, (size_t) (p - name) + 1);
        strcpy(s + (p - name) + 1, instance);
        strcat(s, d);
        if (!unit_name_is_valid(s, UNIT_NAME_INSTANCE))
                return -EINVAL;
        *ret = TAKE_PTR(s);
        return 0;
}

int unit_name_strip_suffix(const char *name, char **ret) {
        const char *d;
        char *s;

        if (!unit_name_is_valid(name, UNIT_NAME_ANY))
                return -EINVAL;
        d = strrchr(name, '.');
        s = strndup_safe(name, (size_t) (d - name));
        if (!s)
                return -ENOMEM;
        *ret = s;
        return 0;
}

static bool unit_prefix_is_valid(const char *p, size_t n) {
        if (n == 0)
                return false;
        for (size_t i = 0; i < n; i++)
                if (!char_is_valid(p[i]))
                        return false;
        return true;
}

/* One "-" step of systemd's drop-in search (dropin.c): "a-b-c" -> "a-b-", "a-b-" -> "a-" (a trailing dash is
 * chopped once before looking again). Cuts prefix in place and returns true, or false when there is no step. */
static bool dash_prefix_step(char *prefix) {
        bool chopped = false;

        for (;;) {
                char *dash = strrchr(prefix, '-');
                size_t n;

                if (!dash || dash == prefix)
                        return false;
                n = (size_t) (dash - prefix);
                if (prefix[n + 1] != 0 || chopped) {
                        prefix[n + 1] = 0;
                        return true;
                }
                prefix[n] = 0;
                chopped = true;
        }
}

int unit_name_dash_prefixes(const char *name, char ***ret) {
        _cleanup_(strv_freep) char **l = NULL;
        _cleanup_(freep) char *prefix = NULL;
        int r;

        r = unit_name_to_prefix(name, &prefix);
        if (r < 0)
                return r;
        while (dash_prefix_step(prefix) && unit_prefix_is_valid(prefix, strlen(prefix))) {
                r = strv_extend(&l, prefix);
                if (r < 0)
                        return r;
        }
        if (!l) {
                l = calloc(1, sizeof(char *));
                if (!l)
                        return -ENOMEM;
        }
        *ret = TAKE_PTR(l);
        return 0;
}

static int dropin_names_expand(const char *name, bool prefix_dirs, unsigned depth, char ***l) {
        _cleanup_(freep) char *template = NULL, *prefix = NULL, *instance = NULL, *built = NULL;
        bool is_instance;
        int r;

        if (depth > UNIT_NAME_MAX) /* each step shortens the prefix; cannot happen, but stay bounded */
                return 0;
        r = strv_extend_unique(l, name);
        if (r < 0)
                return r;

        is_instance = unit_name_is_valid(name, UNIT_NAME_INSTANCE);
        if (is_instance) {
                r = unit_name_template(name, &template);
                if (r < 0)
                        return r;
                r = dropin_names_expand(template, prefix_dirs, depth + 1, l);
                if (r < 0)
                        return r;
        }
        if (!prefix_dirs)
                return 0;

        r = unit_name_to_prefix(name, &prefix);
        if (r < 0)
                return r;
        if (!dash_prefix_step(prefix) || !unit_prefix_is_valid(prefix, strlen(prefix)))
                return 0;
        if (is_instance) {
                r = unit_name_to_instance(name, &instance);
                if (r < 0)
                        return r;
        }
        built = instance ? strjoin(prefix, "@", instance, strrchr(name, '.'))
                         : strjoin(prefix, strrchr(name, '.'));
        if (!built)
                return -ENOMEM;
        if (!unit_name_is_valid(built, UNIT_NAME_ANY))
                return 0;
        return dropin_names_expand(built, prefix_dirs, depth + 1, l);
}

int unit_name_dropin_names(const char *name, bool prefix_dirs, char ***ret) {
        _cleanup_(strv_freep) char **l = NULL;
        int r;

        if (!unit_name_is_valid(name, UNIT_NAME_ANY))
                return -EINVAL;
        r = dropin_names_expand(name, prefix_dirs, 0, &l);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(l);
        return 0;
}

/* ---- escaping, as systemd-escape ---- */

static char hexchar(int x) {
        return "0123456789abcdef"[x & 15];
}

static int unhexchar(char c) {
        if (c >= '0' && c <= '9')
                return c - '0';
        if (c >= 'a' && c <= 'f')
                return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
                return c - 'A' + 10;
        return -EINVAL;
}

static char *escape_char(char c, char *t) {
        *t++ = '\\';
        *t++ = 'x';
        *t++ = hexchar((unsigned char) c >> 4);
        *t++ = hexchar((unsigned char) c);
        return t;
}

int unit_name_escape(const char *s, char **ret) {
        char *r, *t;

        r = malloc(strlen(s) * 4 + 1);
        if (!r)
                return -ENOMEM;
        t = r;
        /* a leading '.' is escaped: no unit names like ".dotdir.mount" */
        if (*s == '.')
                t = escape_char(*s++, t);
        for (; *s; s++) {
                if (*s == '/')
                        *t++ = '-';
                else if (*s == '-' || *s == '\\' || !char_is_valid(*s))
                        t = escape_char(*s, t);
                else
                        *t++ = *s;
        }
        *t = 0;
        *ret = r;
        return 0;
}

int unit_name_unescape(const char *s, char **ret) {
        _cleanup_(freep) char *r = NULL;
        char *t;

        r = malloc(strlen(s) + 1);
        if (!r)
                return -ENOMEM;
        t = r;
        for (; *s; s++) {
                if (*s == '-')
                        *t++ = '/';
                else if (*s == '\\') {
                        int a, b;

                        if (s[1] != 'x')
                                return -EINVAL;
                        a = unhexchar(s[2]);
                        if (a < 0)
                                return -EINVAL;
                        b = unhexchar(s[3]);
                        if (b < 0)
                                return -EINVAL;
                        *t++ = (char) ((a << 4) | b);
                        s += 3;
                } else
                        *t++ = *s;
        }
        *t = 0;
        *ret = TAKE_PTR(r);
        return 0;
}

int unit_name_path_escape(const char *path, char **ret) {
        _cleanup_(freep) char *p = NULL;
        char *q, *e;

        /* As systemd: simplify first (collapse "//", drop "." components), "/" and "" become "-", and what is
         * left must be normalised (no ".." components). Relative paths are accepted like systemd-escape does. */
        p = path_simplify_dup(path);
        if (!p)
                return -ENOMEM;
        if (streq(p, "/") || streq(p, ".") || isempty(path)) {
                q = strdup("-");
                if (!q)
                        return -ENOMEM;
                *ret = q;
                return 0;
        }
        if (!path_is_normalized(p))
                return -EINVAL;
        e = p + strlen(p);
        while (e > p && e[-1] == '/')
                *--e = 0;
        q = p;
        while (*q == '/')
                q++;
        return unit_name_escape(q, ret);
}

int unit_name_path_unescape(const char *s, char **ret) {
        _cleanup_(freep) char *w = NULL;
        char *r;
        int k;

        if (isempty(s))
                return -EINVAL;
        if (streq(s, "-")) {
                r = strdup("/");
                if (!r)
                        return -ENOMEM;
                *ret = r;
                return 0;
        }
        k = unit_name_unescape(s, &w);
        if (k < 0)
                return k;
        /* no leading or trailing slashes in the escaped form */
        if (w[0] == '/' || endswith(w, "/"))
                return -EINVAL;
        r = strjoin("/", w);
        if (!r)
                return -ENOMEM;
        if (!path_is_normalized(r)) {
                free(r);
                return -EINVAL;
        }
        *ret = r;
        return 0;
}

int unit_name_from_path(const char *path, const char *suffix, char **ret) {
        _cleanup_(freep) char *p = NULL;
        char *s;
        int r;

        r = unit_name_path_escape(path, &p);
        if (r < 0)
                return r;
        s = strjoin(p, suffix);
        if (!s)
                return -ENOMEM;
        if (!unit_name_is_valid(s, UNIT_NAME_PLAIN)) {
                free(s);
                return -EINVAL;
        }
        *ret = s;
        return 0;
}

int unit_name_mounts_of_path(const char *path, char ***ret) {
        _cleanup_(freep) char *p = path_simplify_dup(path);
        _cleanup_(strv_freep) char **l = NULL;

        if (!p)
                return -ENOMEM;
        while (!streq(p, "/")) {
                _cleanup_(freep) char *name = NULL;

                if (unit_name_from_path(p, ".mount", &name) >= 0 && strv_push(&l, TAKE_PTR(name)) < 0)
                        return -ENOMEM;
                (void) path_cut_last(p);
        }
        if (strv_extend(&l, "-.mount") < 0)
                return -ENOMEM;
        *ret = TAKE_PTR(l);
        return 0;
}

int unit_name_file_instance(char **name, const char *instance) {
        char *i = NULL;
        int r;

        if (!unit_name_is_valid(*name, UNIT_NAME_TEMPLATE))
                return 0;
        r = unit_name_replace_instance(*name, instance, &i);
        if (r < 0)
                return r;
        free(*name);
        *name = i;
        return 0;
}

int unit_name_split_file_path(const char *path, char **ret_dir, char **ret_name) {
        _cleanup_(freep) char *abs = NULL, *dir = NULL, *name = NULL;
        const char *base;

        if (path[0] == '/')
                abs = strdup(path);
        else {
                _cleanup_(freep) char *cwd = getcwd(NULL, 0);
                if (!cwd)
                        return -errno;
                abs = path_join(cwd, path);
        }
        if (!abs)
                return -ENOMEM;
        base = path_basename(abs);
        if (!unit_name_is_valid(base, UNIT_NAME_ANY))
                return -EINVAL;
        dir = strndup_safe(abs, base - abs > 1 ? (size_t) (base - abs - 1) : 1);
        name = strdup(base);
        if (!dir || !name)
                return -ENOMEM;
        *ret_dir = TAKE_PTR(dir);
        *ret_name = TAKE_PTR(name);
        return 0;
}
