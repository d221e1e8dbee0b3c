/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <dirent.h>

#include "load/tmpfiles.h"

/* systemd-tmpfiles' directories, highest priority first (CONF_PATHS_NULSTR("tmpfiles.d"); /lib on Debian) */
static const char * const tmpfiles_dirs[] = {
        "/etc/tmpfiles.d", "/run/tmpfiles.d", "/usr/local/lib/tmpfiles.d", "/usr/lib/tmpfiles.d", "/lib/tmpfiles.d",
        NULL,
};

#define TMPFILES_FILE_MAX (1u << 20)

static void entry_done(TmpfilesEntry *e) {
        free(e->type);
        free(e->path);
        free(e->mode);
        free(e->user);
        free(e->group);
        free(e->age);
        free(e->argument);
        free(e->file);
}

void tmpfiles_list_done(TmpfilesList *l) {
        for (size_t i = 0; i < l->n; i++)
                entry_done(&l->items[i]);
        free(l->items);
        *l = (TmpfilesList) {};
}

/* One field: whitespace-separated, or quoted with ' or " (the quotes removed). *p moves past it. Returns the
 * field (NULL at the end of the line) or sets *bad for an unterminated quote. */
static char *next_field(const char **p, bool *bad) {
        const char *s = *p + strspn(*p, " \t");
        const char *start;
        size_t n;

        *p = s;
        if (!*s)
                return NULL;
        if (*s == '"' || *s == '\'') {
                const char *end = strchr(s + 1, *s);
                if (!end) {
                        *bad = true;
                        return NULL;
                }
                start = s + 1;
                n = (size_t) (end - start);
                *p = end + 1;
        } else {
                start = s;
                n = strcspn(s, " \t");
                *p = s + n;
        }
        return strndup_safe(start, n);
}

static char *dash_null(char *s) {
        if (s && streq(s, "-"))
                return mfree(s);
        return s;
}

bool tmpfiles_type_creates(const char *type) {
        /* not: w (writes existing files), e (adjusts existing dirs), x/X (exclude), r/R (remove), z/Z (modes),
         * t/T (xattrs), h/H (attributes), a/A (ACLs) */
        for (const char *c = type; *c; c++)
                if (strchr("fFdDvqQpLcbC", *c))
                        return true;
                else if (strchr("wexXrRzZtThHaA", *c))
                        return false;
        return false;
}

static int parse_line(const char *line, const char *file, unsigned n, TmpfilesList *l, DiagList *diags) {
        _cleanup_(freep) char *type = NULL, *path = NULL, *mode = NULL, *user = NULL, *group = NULL, *age = NULL;
        const char *p = line;
        bool bad = false;
        TmpfilesEntry *e;

        type = next_field(&p, &bad);
        path = bad ? NULL : next_field(&p, &bad);
        if (!bad && type && path) {
                mode = next_field(&p, &bad);
                user = bad ? NULL : next_field(&p, &bad);
                group = bad ? NULL : next_field(&p, &bad);
                age = bad ? NULL : next_field(&p, &bad);
        }
        if (bad || !type || !path)
                return diag_add(diags, DIAG_WARNING, file, n, "tmpfiles.d: %s, line ignored",
                                bad ? "unterminated quote" : "needs at least a type and a path");
        if (!strchr("fFwdDevqQpLcbCxXrRzZtThHaA", type[0]) || strlen(type) > 8)
                return diag_add(diags, DIAG_WARNING, file, n, "tmpfiles.d: unknown type \"%s\", line ignored", type);
        if (path[0] != '/' && path[0] != '%')
                return diag_add(diags, DIAG_WARNING, file, n, "tmpfiles.d: path \"%s\" is not absolute, line ignored",
                                path);
        if (GREEDY_REALLOC(l->items, l->allocated, l->n + 1) < 0)
                return -ENOMEM;
        e = &l->items[l->n];
        p += strspn(p, " \t");
        *e = (TmpfilesEntry) {
                .type = TAKE_PTR(type), .path = TAKE_PTR(path), .mode = dash_null(TAKE_PTR(mode)),
                .user = dash_null(TAKE_PTR(user)), .group = dash_null(TAKE_PTR(group)),
                .age = dash_null(TAKE_PTR(age)), .line = n,
        };
        e->file = strdup(file);
        if (*p)
                e->argument = strdup(p);
        if (!e->file || (*p && !e->argument)) {
                entry_done(e);
                return -ENOMEM;
        }
        l->n++;
        return 0;
}

int tmpfiles_parse(const char *text, const char *file, TmpfilesList *l, DiagList *diags) {
        unsigned n = 0;

        for (const char *s = text; *s;) {
                size_t len = strcspn(s, "\n");
                _cleanup_(freep) char *line = strndup_safe(s, len);
                char *t;
                int r;

                if (!line)
                        return -ENOMEM;
                n++;
                s += len + (s[len] == '\n');
                /* trailing whitespace and CR go; comments and empty lines are skipped */
                for (t = line + strlen(line); t > line && strchr(" \t\r", t[-1]); t--)
                        t[-1] = 0;
                t = line + strspn(line, " \t");
                if (!*t || *t == '#')
                        continue;
                r = parse_line(t, file, n, l, diags);
                if (r < 0)
                        return r;
        }
        return 0;
}

int tmpfiles_load(const Root *root, TmpfilesList *l, DiagList *diags) {
        _cleanup_(strv_freep) char **names = NULL;
        int r;

        /* every name once, from its highest directory */
        for (const char * const *d = tmpfiles_dirs; *d; d++) {
                _cleanup_(strv_freep) char **in = NULL;
                if (root_list_dir(root, *d, &in) < 0)
                        continue;
                STRV_FOREACH(n, in)
                        if (endswith(*n, ".conf") && strv_extend_unique(&names, *n) < 0)
                                return -ENOMEM;
        }
        strv_sort(names);
        STRV_FOREACH(n, names)
                for (const char * const *d = tmpfiles_dirs; *d; d++) {
                        _cleanup_(freep) char *p = path_join(*d, *n), *disp = NULL, *text = NULL;
                        _cleanup_(closep) int fd = -EBADF;
                        size_t size;

                        if (!p)
                                return -ENOMEM;
                        r = root_entry_type(root, p);
                        if (r < 0)
                                continue;
                        disp = root_display_path(root, p);
                        if (!disp)
                                return -ENOMEM;
                        if (root_null_or_empty(root, p) > 0)
                                break; /* masked */
                        r = root_open_file(root, p, &fd, NULL);
                        if (r >= 0)
                                r = read_full_fd(fd, TMPFILES_FILE_MAX, &text, &size);
                        if (r == -ENOMEM)
                                return r;
                        if (r < 0) {
                                (void) diag_add(diags, DIAG_WARNING, disp, 0, "tmpfiles.d: cannot read: %s",
                                                strerror(-r));
                                break;
                        }
                        r = tmpfiles_parse(text, disp, l, diags);
                        if (r < 0)
                                return r;
                        break;
                }
        return 0;
}

const TmpfilesEntry *tmpfiles_find_creator(const TmpfilesList *l, const char *path) {
        for (size_t i = 0; i < l->n; i++) {
                const TmpfilesEntry *e = &l->items[i];
                _cleanup_(freep) char *p = path_simplify_dup(e->path);
                if (p && streq(p, path) && tmpfiles_type_creates(e->type))
                        return e;
        }
        return NULL;
}
