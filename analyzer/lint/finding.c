/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdarg.h>

#include "lint/finding.h"

FindingFix *finding_fix_free(FindingFix *x) {
        if (!x)
                return NULL;
        free(x->candidate);
        free(x->form);
        free(x->note);
        strv_free(x->delayed);
        strv_free(x->rejected);
        free(x->none_reason);
        free(x);
        return NULL;
}

void finding_list_done(FindingList *l) {
        for (size_t i = 0; i < l->n; i++) {
                Finding *f = &l->items[i];
                free(f->check);
                free(f->unit);
                free(f->file);
                free(f->message);
                strv_free(f->evidence);
                free(f->fix);
                finding_fix_free(f->fix_details);
                free(f->suppressed);
                free(f->profile);
        }
        l->items = mfree(l->items);
        l->n = l->allocated = 0;
}

Finding *finding_add(FindingList *l, const char *check, Severity severity, const char *unit, const char *file,
                     unsigned line, const char *fmt, ...) {
        Finding *f;
        va_list ap;
        int r;

        if (GREEDY_REALLOC(l->items, l->allocated, l->n + 1) < 0)
                return NULL;
        f = &l->items[l->n];
        *f = (Finding) { .severity = severity, .line = line };
        va_start(ap, fmt);
        r = vasprintf(&f->message, fmt, ap);
        va_end(ap);
        if (r < 0)
                return NULL;
        f->check = strdup(check);
        f->unit = unit ? strdup(unit) : NULL;
        f->file = file ? strdup(file) : NULL;
        if (!f->check || (unit && !f->unit) || (file && !f->file)) {
                free(f->check);
                free(f->unit);
                free(f->file);
                free(f->message);
                return NULL;
        }
        l->n++;
        return f;
}

int finding_add_evidence(Finding *f, const char *fmt, ...) {
        char *s = NULL;
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = vasprintf(&s, fmt, ap);
        va_end(ap);
        if (r < 0)
                return -ENOMEM;
        return strv_push(&f->evidence, s);
}

static int finding_cmp(const void *a, const void *b) {
        const Finding *x = a, *y = b;
        int c = strcmp(strempty(x->file), strempty(y->file));
        if (c != 0)
                return c;
        if (x->line != y->line)
                return x->line < y->line ? -1 : 1;
        c = strcmp(x->check, y->check);
        if (c != 0)
                return c;
        return strcmp(strempty(x->unit), strempty(y->unit));
}

void finding_list_sort(FindingList *l) {
        if (l->n > 1)
                qsort_safe(l->items, l->n, sizeof(Finding), finding_cmp);
}

size_t finding_list_count_at_least(const FindingList *l, Severity s) {
        size_t n = 0;
        for (size_t i = 0; i < l->n; i++)
                if (!l->items[i].suppressed && l->items[i].severity <= s)
                        n++;
        return n;
}
