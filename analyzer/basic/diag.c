/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdarg.h>

#include "basic/diag.h"

static const char * const diag_level_table[_DIAG_LEVEL_MAX] = {
        [DIAG_ERROR] = "error",
        [DIAG_WARNING] = "warning",
        [DIAG_NOTICE] = "notice",
};

const char *diag_level_to_string(DiagLevel l) {
        return l >= 0 && l < _DIAG_LEVEL_MAX ? diag_level_table[l] : NULL;
}

void diag_list_done(DiagList *l) {
        for (size_t i = 0; i < l->n; i++) {
                free(l->items[i].file);
                free(l->items[i].message);
        }
        l->items = mfree(l->items);
        l->n = l->allocated = 0;
}

int diag_list_move(DiagList *dst, DiagList *src) {
        if (dst && src->n > 0) {
                if (GREEDY_REALLOC(dst->items, dst->allocated, dst->n + src->n) < 0)
                        return -ENOMEM;
                memcpy(dst->items + dst->n, src->items, sizeof(Diag) * src->n);
                dst->n += src->n;
                src->n = 0;
        }
        diag_list_done(src);
        return 0;
}

int diag_list_copy(DiagList *dst, const DiagList *src, DiagLevel max_level) {
        for (size_t i = 0; dst && i < src->n; i++)
                if (src->items[i].level <= max_level &&
                    diag_add(dst, src->items[i].level, src->items[i].file, src->items[i].line, "%s",
                             src->items[i].message) < 0)
                        return -ENOMEM;
        return 0;
}

int diag_add(DiagList *l, DiagLevel level, const char *file, unsigned line, const char *fmt, ...) {
        _cleanup_(freep) char *m = NULL, *f = NULL;
        va_list ap;
        int r;

        if (!l)
                return 0;
        va_start(ap, fmt);
        r = vasprintf(&m, fmt, ap);
        va_end(ap);
        if (r < 0) {
                m = NULL;
                return -ENOMEM;
        }
        if (file && !(f = strdup(file)))
                return -ENOMEM;
        if (GREEDY_REALLOC(l->items, l->allocated, l->n + 1) < 0)
                return -ENOMEM;
        l->items[l->n++] = (Diag) {
                .level = level,
                .file = TAKE_PTR(f),
                .line = line,
                .message = TAKE_PTR(m),
        };
        return 0;
}

size_t diag_count(const DiagList *l, DiagLevel level) {
        size_t n = 0;
        for (size_t i = 0; i < l->n; i++)
                if (l->items[i].level == level)
                        n++;
        return n;
}

/* File names and messages come from the input: control characters are printed escaped, so a diagnostic is
 * always one line and cannot forge others or drive the terminal. */
static void fputs_escaped(const char *s, FILE *f) {
        _cleanup_(freep) char *e = escape_control(s);

        fputs(e ?: "(out of memory)", f);
}

void diag_list_print(const DiagList *l, FILE *f, DiagLevel max_level) {
        for (size_t i = 0; i < l->n; i++) {
                const Diag *d = &l->items[i];
                if (d->level > max_level)
                        continue;
                if (d->file) {
                        fputs_escaped(d->file, f);
                        if (d->line > 0)
                                fprintf(f, ":%u", d->line);
                        fputs(": ", f);
                }
                fprintf(f, "%s: ", diag_level_to_string(d->level));
                fputs_escaped(d->message, f);
                fputc('\n', f);
        }
}
