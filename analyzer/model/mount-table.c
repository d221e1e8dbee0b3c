/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "model/mount-table.h"

void mount_table_done(MountTable *t) {
        for (size_t i = 0; i < t->n_entries; i++) {
                free(t->entries[i].where);
                free(t->entries[i].what);
                free(t->entries[i].fstype);
        }
        t->entries = mfree(t->entries);
        t->n_entries = 0;
}

/* mountinfo escapes space, tab, newline and backslash as \NNN (octal). */
static char *unescape_octal(const char *s, size_t n) {
        char *r = malloc(n + 1), *o = r;

        if (!r)
                return NULL;
        for (size_t i = 0; i < n; i++) {
                if (s[i] == '\\' && i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
                    s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
                        *o++ = (char) ((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
                        i += 3;
                } else
                        *o++ = s[i];
        }
        *o = 0;
        return r;
}

/* The n-th space-separated field of line l (length len), as pointer and length; false when there is none. */
static bool field(const char *l, size_t len, size_t n, const char **ret, size_t *ret_len) {
        size_t i = 0;

        for (size_t k = 0;; k++) {
                size_t start;
                while (i < len && l[i] == ' ')
                        i++;
                if (i >= len)
                        return false;
                start = i;
                while (i < len && l[i] != ' ')
                        i++;
                if (k == n) {
                        *ret = l + start;
                        *ret_len = i - start;
                        return true;
                }
        }
}

int mount_table_parse_mountinfo(const char *text, MountTable *ret) {
        MountTable t = {};

        for (const char *l = text; l && *l;) {
                const char *nl = strchr(l, '\n'), *where, *f;
                size_t len = nl ? (size_t) (nl - l) : strlen(l), n_where, n_f, sep = 0;
                MountEntry *e;
                bool found = false;

                /* ID PARENT MAJ:MIN ROOT WHERE OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER-OPTIONS */
                for (size_t k = 6; field(l, len, k, &f, &n_f); k++)
                        if (n_f == 1 && f[0] == '-') {
                                sep = k;
                                found = true;
                                break;
                        }
                if (found && field(l, len, 4, &where, &n_where) && field(l, len, sep + 1, &f, &n_f) &&
                    where[0] == '/') {
                        const char *what;
                        size_t n_what;

                        e = reallocarray(t.entries, t.n_entries + 1, sizeof(MountEntry));
                        if (!e)
                                goto oom;
                        t.entries = e;
                        e = &t.entries[t.n_entries];
                        *e = (MountEntry) {
                                .where = unescape_octal(where, n_where),
                                .fstype = unescape_octal(f, n_f),
                                .what = field(l, len, sep + 2, &what, &n_what) ? unescape_octal(what, n_what)
                                                                                : strdup(""),
                        };
                        t.n_entries++;
                        if (!e->where || !e->fstype || !e->what)
                                goto oom;
                }
                l = nl ? nl + 1 : NULL;
        }
        *ret = t;
        return 0;
oom:
        mount_table_done(&t);
        return -ENOMEM;
}

const MountEntry *mount_table_find(const MountTable *t, const char *where) {
        for (size_t i = t ? t->n_entries : 0; i > 0; i--)
                if (streq(t->entries[i - 1].where, where))
                        return &t->entries[i - 1];
        return NULL;
}

bool mount_entry_ignored(const MountEntry *e, const Rules *r, unsigned v) {
        return rules_mount_point(r, "api", e->where, e->fstype, v) ||
               rules_mount_point(r, "ignored", e->where, e->fstype, v);
}
