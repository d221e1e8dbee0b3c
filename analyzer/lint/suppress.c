/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <ctype.h>
#include <fcntl.h>

#include "lint/suppress.h"

void suppression_file_done(SuppressionFile *s) {
        free(s->path);
        strv_free(s->units);
        strv_free(s->checks);
        free(s->lines);
        free(s->used);
        *s = (SuppressionFile) {};
}

int suppression_file_load(const char *path, SuppressionFile *ret, DiagList *diags) {
        _cleanup_(closep) int fd = -EBADF;
        _cleanup_(freep) char *data = NULL;
        size_t size, n = 0;
        unsigned line = 0;
        int r, error = 0;

        *ret = (SuppressionFile) { .path = strdup(path) };
        if (!ret->path)
                return -ENOMEM;
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) {
                (void) diag_add(diags, DIAG_ERROR, path, 0, "cannot open suppression file: %s", strerror(errno));
                return -errno;
        }
        r = read_full_fd(fd, 16u << 20, &data, &size);
        if (r < 0) {
                (void) diag_add(diags, DIAG_ERROR, path, 0, "cannot read suppression file: %s", strerror(-r));
                return r;
        }
        for (char *p = data, *nl; p && *p; p = nl ? nl + 1 : NULL) {
                char *hash, *colon, *unit, *check, *end;

                nl = strchr(p, '\n');
                if (nl)
                        *nl = 0;
                line++;
                if ((hash = strchr(p, '#')))
                        *hash = 0;
                while (isspace((unsigned char) *p))
                        p++;
                if (!*p)
                        continue;
                colon = strchr(p, ':');
                if (!colon) {
                        (void) diag_add(diags, DIAG_ERROR, path, line, "expected \"UNIT: CHECK\"");
                        error = -EBADMSG;
                        continue;
                }
                *colon = 0;
                unit = p;
                for (end = colon; end > unit && isspace((unsigned char) end[-1]); end--)
                        end[-1] = 0;
                check = colon + 1;
                while (isspace((unsigned char) *check))
                        check++;
                check[strcspn(check, " \t\r")] = 0;
                if (!*unit || !*check) {
                        (void) diag_add(diags, DIAG_ERROR, path, line, "expected \"UNIT: CHECK\"");
                        error = -EBADMSG;
                        continue;
                }
                if (strv_extend(&ret->units, unit) < 0 || strv_extend(&ret->checks, check) < 0)
                        return -ENOMEM;
                ret->lines = realloc(ret->lines, sizeof(unsigned) * (n + 1));
                ret->used = realloc(ret->used, sizeof(bool) * (n + 1));
                if (!ret->lines || !ret->used)
                        return -ENOMEM;
                ret->lines[n] = line;
                ret->used[n] = false;
                n++;
        }
        return error;
}

/* Where in u's files a comment suppresses check: "file:line", or NULL (also when out of memory: the finding then
 * counts, which fails safe). */
static char *inline_suppression(const Unit *u, const char *check) {
        for (size_t i = 0; i < u->n_sources; i++) {
                const Source *src = &u->sources[i];

                if (src->masked)
                        continue;
                for (size_t k = 0; k < src->n_ignores; k++)
                        if (strv_contains(src->ignores[k].checks, check) ||
                            strv_contains(src->ignores[k].checks, "all")) {
                                char *r = NULL;
                                (void) asprintf_safe(&r, "%s:%u", src->path, src->ignores[k].line);
                                return r;
                        }
        }
        return NULL;
}

int suppress_findings(FindingList *l, size_t first, const Unit *u, SuppressionFile *s) {
        for (size_t i = first; i < l->n; i++) {
                Finding *f = &l->items[i];

                if (f->suppressed || !streq_ptr(f->unit, u->id))
                        continue;
                f->suppressed = inline_suppression(u, f->check);
                if (f->suppressed || !s)
                        continue;
                for (size_t k = 0; s->units && s->units[k]; k++)
                        if ((streq(s->units[k], "*") || strv_contains(u->names, s->units[k])) &&
                            (streq(s->checks[k], f->check) || streq(s->checks[k], "all"))) {
                                if (asprintf_safe(&f->suppressed, "override %s:%u", s->path, s->lines[k]) < 0)
                                        return -ENOMEM;
                                s->used[k] = true;
                                break;
                        }
        }
        return 0;
}
