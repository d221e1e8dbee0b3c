/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* "# bootrace: ignore ..." comments of a unit file (unit-ignores.h). */

#include <ctype.h>
#include <string.h>

#include "basic/util.h"
#include "load/unit-ignores.h"

static bool is_blank(char c) {
        return c == ' ' || c == '\t';
}

/* One line (without its end): -ENOMEM, 0 not such a comment, 1 a comment (its ids added to *checks). */
static int parse_line(const char *p, const char *end, char ***checks) {
        static const char tag[] = "bootrace:", verb[] = "ignore";

        while (p < end && is_blank(*p))
                p++;
        if (p == end || (*p != '#' && *p != ';'))
                return 0;
        p++;
        while (p < end && is_blank(*p))
                p++;
        if ((size_t) (end - p) < strlen(tag) || memcmp(p, tag, strlen(tag)) != 0)
                return 0;
        p += strlen(tag);
        while (p < end && is_blank(*p))
                p++;
        if ((size_t) (end - p) < strlen(verb) || memcmp(p, verb, strlen(verb)) != 0)
                return 0;
        p += strlen(verb);
        if (p < end && !is_blank(*p) && *p != '\r')
                return 0; /* "ignored", "ignore-me": another word */
        for (;;) {
                const char *w;

                while (p < end && (is_blank(*p) || *p == ',' || *p == '\r'))
                        p++;
                if (p == end)
                        return 1;
                w = p;
                while (p < end && !is_blank(*p) && *p != ',' && *p != '\r')
                        p++;
                if (p - w == 2 && w[0] == '-' && w[1] == '-')
                        return 1; /* the reason follows */
                char *id = strndup_safe(w, (size_t) (p - w));
                if (!id || strv_push(checks, id) < 0) /* strv_push() frees id when it fails */
                        return -ENOMEM;
        }
}

typedef struct IgnoreList {
        SourceIgnore *items;
        size_t n;
} IgnoreList;

static void ignore_list_done(IgnoreList *l) {
        source_ignores_free(l->items, l->n);
}

static int ignore_list_add(IgnoreList *l, unsigned line, char ***checks) {
        SourceIgnore *m = realloc(l->items, (l->n + 1) * sizeof(SourceIgnore));

        if (!m)
                return -ENOMEM;
        l->items = m;
        if (!*checks && !(*checks = calloc(1, sizeof(char *))))
                return -ENOMEM;
        l->items[l->n++] = (SourceIgnore) { .line = line, .checks = TAKE_PTR(*checks) };
        return 0;
}

int source_ignores_parse(const char *data, size_t size, SourceIgnore **ret, size_t *ret_n) {
        _cleanup_(ignore_list_done) IgnoreList l = {};
        unsigned line = 0;

        *ret = NULL;
        *ret_n = 0;
        /* most files have none: one search of the whole file decides */
        if (!memmem(data, size, "bootrace:", strlen("bootrace:")))
                return 0;
        for (const char *p = data, *end = data + size; p < end;) {
                const char *nl = memchr(p, '\n', (size_t) (end - p)), *stop = nl ? nl : end;
                const char *nul = memchr(p, '\0', (size_t) (stop - p));
                _cleanup_(strv_freep) char **checks = NULL;
                int r;

                line++;
                r = parse_line(p, nul ? nul : stop, &checks);
                if (r > 0)
                        r = ignore_list_add(&l, line, &checks);
                if (r < 0)
                        return r;
                p = nl ? nl + 1 : end;
        }
        *ret = TAKE_PTR(l.items);
        *ret_n = l.n;
        l.n = 0;
        return 0;
}

void source_ignores_free(SourceIgnore *l, size_t n) {
        for (size_t i = 0; i < n; i++)
                strv_free(l[i].checks);
        free(l);
}
