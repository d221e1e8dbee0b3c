/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "basic/suggest.h"

size_t suggest_distance(const char *a, const char *b) {
        size_t la = strlen(a), lb = strlen(b), best;
        /* three rows of the optimal-string-alignment table: the one before last, the last, this one */
        _cleanup_(freep) size_t *rows = calloc(3 * (lb + 1), sizeof(size_t));

        if (!rows)
                return SIZE_MAX;
        size_t *pp = rows, *p = rows + lb + 1, *c = rows + 2 * (lb + 1);
        for (size_t j = 0; j <= lb; j++)
                p[j] = j;
        for (size_t i = 1; i <= la; i++) {
                c[0] = i;
                for (size_t j = 1; j <= lb; j++) {
                        size_t cost = a[i - 1] != b[j - 1];
                        size_t v = MIN(MIN(p[j] + 1, c[j - 1] + 1), p[j - 1] + cost);
                        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                                v = MIN(v, pp[j - 2] + 1);
                        c[j] = v;
                }
                size_t *t = pp;
                pp = p;
                p = c;
                c = t;
        }
        best = p[lb];
        return best;
}

const char *suggest_closest(const char *word, const char * const *candidates, size_t n) {
        size_t limit = MAX((size_t) 1, strlen(word) / 3), best = SIZE_MAX;
        const char *found = NULL;
        bool tie = false;

        for (size_t i = 0; i < n; i++) {
                size_t d;
                if (!candidates[i])
                        continue;
                d = suggest_distance(word, candidates[i]);
                if (d == 0 || d > limit)
                        continue;
                if (d < best) {
                        best = d;
                        found = candidates[i];
                        tie = false;
                } else if (d == best && !streq(found, candidates[i]))
                        tie = true;
        }
        return tie ? NULL : found;
}
