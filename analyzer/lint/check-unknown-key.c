/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* unknown-key: assignments systemd ignores because it does not know the key there (or not in this version), and
 * sections it skips. A typo can hide the very setting the other checks judge. */

#include "lint/check-common.h"

static int cmp_size(const void *x, const void *y) {
        size_t a = *(const size_t *) x, b = *(const size_t *) y;
        return (a > b) - (a < b);
}

int check_unknown_key(const LintContext *c, ModelUnit *u, FindingList *out) {
        for (size_t i = 0; i < u->unit->n_settings; i++) {
                const Setting *s = &u->unit->settings[i];
                const char *file = u->unit->sources[s->source].path;
                const KeyInfo *any;
                Finding *f = NULL;

                if (!u->st)
                        break;
                switch (u->st[i]) {
                case SETTING_UNKNOWN_KEY:
                        any = rules_key_lookup_any(c->rules, s->key);
                        if (any)
                                f = lint_finding(c, out, "unknown-key", u, file, s->line,
                                                 "%s= does not belong in [%s] of a %s unit (it goes in [%s]); systemd "
                                                 "ignores it",
                                                 s->key, s->section, unit_type_to_string(u->unit->type), any->section);
                        else
                                f = lint_finding(c, out, "unknown-key", u, file, s->line,
                                                 "unknown key %s= in [%s]; systemd ignores it", s->key, s->section);
                        break;
                case SETTING_UNSUPPORTED:
                        any = rules_key_lookup_any(c->rules, s->key);
                        f = lint_finding(c, out, "unknown-key", u, file, s->line,
                                         "%s= is not known to systemd %u (%s %u); it is ignored there", s->key,
                                         c->version, any && any->since > c->version ? "it appeared in" : "removed after",
                                         any ? (any->since > c->version ? any->since : any->until) : 0);
                        break;
                case SETTING_UNKNOWN_SECTION:
                        f = lint_finding(c, out, "unknown-key", u, file, s->line,
                                         "section [%s] is unknown for a %s unit; systemd ignores %s=", s->section,
                                         unit_type_to_string(u->unit->type), s->key);
                        break;
                default:
                        continue;
                }
                if (!f)
                        return -ENOMEM;
        }
        /* sections the parser skipped never became settings: their warnings name the file and line, reported in
         * the order they were made */
        {
                _cleanup_(freep) size_t *all = NULL;
                size_t n = 0;

                for (size_t k = 0; k < u->unit->n_sources; k++) {
                        _cleanup_(freep) size_t *of = NULL;
                        bool seen = false;
                        int m;

                        for (size_t j = 0; j < k; j++)
                                seen = seen || streq(u->unit->sources[j].path, u->unit->sources[k].path);
                        if (seen)
                                continue;
                        m = lint_diags_of_file(c, u->unit->sources[k].path, &of);
                        if (m < 0)
                                return m;
                        for (int j = 0; j < m; j++) {
                                size_t *a;
                                if (!strstr(c->diags->items[of[j]].message, "unknown section"))
                                        continue;
                                a = realloc(all, sizeof(size_t) * (n + 1));
                                if (!a)
                                        return -ENOMEM;
                                all = a;
                                all[n++] = of[j];
                        }
                }
                if (n > 1)
                        qsort_safe(all, n, sizeof(size_t), cmp_size);
                for (size_t i = 0; i < n; i++) {
                        const Diag *d = &c->diags->items[all[i]];
                        if (!lint_finding(c, out, "unknown-key", u, d->file, d->line, "%s", d->message))
                                return -ENOMEM;
                }
        }
        return 0;
}
