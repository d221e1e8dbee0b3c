/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The candidate repairs: one change chosen from each group (their product, at most FIX_CANDIDATES_MAX), each
 * applied to the unit's text (a diff of its file, or a drop-in). */

#include "fix/fix-edit.h"
#include "fix/fix-internal.h"

/* ---- candidates */

void fix_group_done(Group *g) {
        for (size_t i = 0; i < g->n; i++)
                fix_step_done(&g->options[i]);
        free(g->options);
}

int fix_group_add(Group *g, FixKind kind, const char *section, const char *key, const char *value,
                  unsigned line) {
        FixStep *n, st = { .kind = kind,
                           .section = (char *) section,
                           .key = (char *) key,
                           .value = (char *) value,
                           .line = line };

        for (size_t i = 0; i < g->n; i++)
                if (fix_step_eq(&g->options[i], &st))
                        return 0;
        n = realloc(g->options, sizeof(FixStep) * (g->n + 1));
        if (!n)
                return -ENOMEM;
        g->options = n;
        return fix_step_copy(&st, &g->options[g->n++]) < 0 ? -ENOMEM : 0;
}

int fix_group_add_orderings(Group *g, const char *paths, const char *mount) {
        if (fix_group_add(g, FIX_REQUIRES_MOUNTS_FOR, "Unit", "RequiresMountsFor", paths, 0) < 0 ||
            (mount && !streq(mount, "-.mount") &&
             fix_group_add(g, FIX_AFTER_MOUNT, "Unit", "After", mount, 0) < 0) ||
            fix_group_add(g, FIX_AFTER_REMOUNT, "Unit", "After", "systemd-remount-fs.service", 0) < 0 ||
            fix_group_add(g, FIX_AFTER_TMPFILES, "Unit", "After", "systemd-tmpfiles-setup.service", 0) < 0 ||
            fix_group_add(g, FIX_AFTER_LOCAL_FS, "Unit", "After", "local-fs.target", 0) < 0)
                return -ENOMEM;
        return 0;
}

int fix_step_cmp(const void *a, const void *b) {
        const FixStep *x = a, *y = b;
        int r;
        if (x->kind != y->kind)
                return x->kind < y->kind ? -1 : 1;
        r = strcmp(x->value, y->value);
        return r ? r : (x->line > y->line) - (x->line < y->line);
}

static int label_of(const FixStep *steps, size_t n, bool dropin, char **ret) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);

        if (!f)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++) {
                const FixStep *st = &steps[i];
                fputs(i ? " + " : "", f);
                if (st->kind == FIX_DROP_ORDERING)
                        fprintf(f, "drop %s=%s (line %u)", st->key, st->value, st->line);
                else if (st->kind == FIX_DROP_SANDBOX && dropin)
                        fprintf(f, "%s=no", st->key);
                else if (st->kind == FIX_DROP_SANDBOX)
                        fprintf(f, "drop %s=%s (line %u)", st->key, st->value, st->line);
                else
                        fprintf(f, "%s=%s", st->key, st->value);
        }
        if (fclose(f) != 0)
                return -ENOMEM;
        *ret = buf;
        return 0;
}

/* Adds a candidate of these steps (deduplicated, sorted) unless the same one exists. */
int fix_candidate_add(FixResult *res, const FixStep *const *steps, size_t n, bool dropin) {
        _cleanup_(freep) FixStep *sorted = calloc(n + 1, sizeof(FixStep));
        FixCandidate *c, *nc;
        size_t k = 0;

        if (!sorted)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++) {
                bool dup = false;
                for (size_t j = 0; j < k; j++)
                        dup = dup || fix_step_eq(&sorted[j], steps[i]);
                if (!dup)
                        sorted[k++] = *steps[i];
        }
        qsort_safe(sorted, k, sizeof(FixStep), fix_step_cmp);
        for (size_t i = 0; i < res->n_candidates; i++) {
                bool same = res->candidates[i].n_steps == k;
                for (size_t j = 0; same && j < k; j++)
                        same = fix_step_eq(&res->candidates[i].steps[j], &sorted[j]);
                if (same)
                        return 0;
        }
        if (res->n_candidates >= FIX_CANDIDATES_MAX)
                return 0;
        nc = realloc(res->candidates, sizeof(FixCandidate) * (res->n_candidates + 1));
        if (!nc)
                return -ENOMEM;
        res->candidates = nc;
        c = &nc[res->n_candidates];
        *c = (FixCandidate) { .steps = calloc(k + 1, sizeof(FixStep)) };
        if (!c->steps)
                return -ENOMEM;
        res->n_candidates++;
        for (size_t i = 0; i < k; i++) {
                if (fix_step_copy(&sorted[i], &c->steps[i]) < 0)
                        return -ENOMEM;
                c->n_steps++;
                c->sandbox = c->sandbox || sorted[i].kind == FIX_DROP_SANDBOX;
        }
        c->lines = (unsigned) k;
        return label_of(c->steps, k, dropin, &c->label);
}

/* Every combination of one option per group. */
int fix_candidates_product(FixResult *res, Group *groups, size_t n_groups, bool dropin) {
        _cleanup_(freep) size_t *pick = calloc(n_groups + 1, sizeof(size_t));
        _cleanup_(freep) const FixStep **steps = calloc(n_groups + 1, sizeof(FixStep *));
        size_t n = 0;

        if (!pick || !steps)
                return -ENOMEM;
        for (size_t i = 0; i < n_groups; i++)
                if (groups[i].n > 0)
                        groups[n++] = groups[i];
        for (size_t i = n; i < n_groups; i++)
                groups[i] = (Group) {};
        if (n == 0)
                return 0;
        /* with several groups, each option alone too: its verdict explains why combinations are needed */
        for (size_t i = 0; n > 1 && i < n; i++)
                for (size_t k = 0; k < groups[i].n; k++) {
                        const FixStep *one[] = { &groups[i].options[k] };
                        if (fix_candidate_add(res, one, 1, dropin) < 0)
                                return -ENOMEM;
                }
        for (;;) {
                size_t i;
                for (i = 0; i < n; i++)
                        steps[i] = &groups[i].options[pick[i]];
                if (fix_candidate_add(res, steps, n, dropin) < 0)
                        return -ENOMEM;
                for (i = 0; i < n; i++) {
                        if (++pick[i] < groups[i].n)
                                break;
                        pick[i] = 0;
                }
                if (i == n)
                        return 0;
        }
}

/* ---- applying a candidate to the text */

int fix_candidate_text(const Search *s, FixCandidate *c) {
        _cleanup_(freep) char *text = strdup(s->res->old_text);
        _cleanup_(strv_freep) char **adds = NULL;
        const FixResult *res = s->res;

        if (!text)
                return -ENOMEM;
        /* drops first, from the bottom up so that line numbers stay right */
        for (size_t i = c->n_steps; i > 0; i--) {
                const FixStep *st = &c->steps[i - 1];
                char *n = NULL;
                int r;

                if (st->kind == FIX_DROP_ORDERING) {
                        if (res->dropin)
                                return asprintf_safe(
                                               &c->reason,
                                               "cannot be a drop-in: an empty %s= in a drop-in does not "
                                               "reset the dependencies of the unit file (they only add up); "
                                               "dropping %s=%s needs an edit of %s (run without --drop-in)",
                                               st->key, st->key, st->value, res->fragment) < 0
                                               ? -ENOMEM
                                               : 0;
                        r = fix_edit_remove_word(text, st->line, st->key, st->value, &n);
                        if (r == -ENOMEM)
                                return r;
                        if (r < 0)
                                return asprintf_safe(&c->reason, "%s=%s at %s:%u cannot be edited here: %s",
                                                     st->key, st->value, res->fragment, st->line,
                                                     r == -EOPNOTSUPP
                                                             ? "it is continued over several lines"
                                                             : "the word is not written there as such") < 0
                                               ? -ENOMEM
                                               : 0;
                        free(text);
                        text = n;
                } else if (st->kind == FIX_DROP_SANDBOX && !res->dropin) {
                        if (!streq_ptr(s->sandbox_file, res->fragment))
                                return asprintf_safe(&c->reason,
                                                     "%s=%s is set in %s, which this repair does not edit",
                                                     st->key, st->value, strna(s->sandbox_file)) < 0
                                               ? -ENOMEM
                                               : 0;
                        r = fix_edit_remove_key(text, st->section, st->key, &n);
                        if (r == -ENOMEM)
                                return r;
                        if (r < 0)
                                return asprintf_safe(&c->reason, "%s= is not in the [%s] section of %s",
                                                     st->key, st->section, res->fragment) < 0
                                               ? -ENOMEM
                                               : 0;
                        free(text);
                        text = n;
                } else if (st->kind == FIX_DROP_SANDBOX) {
                        _cleanup_(freep) char *line = NULL;
                        char *l[2] = {};
                        if (asprintf_safe(&line, "%s=no", st->key) < 0)
                                return -ENOMEM;
                        l[0] = line;
                        r = fix_edit_add(text, st->section, l, &n);
                        if (r < 0)
                                return r;
                        free(text);
                        text = n;
                }
        }
        for (size_t i = 0; i < c->n_steps; i++) {
                const FixStep *st = &c->steps[i];
                char *l = NULL;
                if (st->kind >= FIX_DROP_ORDERING)
                        continue;
                if (asprintf_safe(&l, "%s=%s", st->key, st->value) < 0 || strv_push(&adds, l) < 0)
                        return -ENOMEM;
        }
        if (adds) {
                char *n = NULL;
                int r = fix_edit_add(text, "Unit", adds, &n);
                if (r < 0)
                        return r;
                free(text);
                text = n;
        }
        if (res->dropin && !res->file_exists) {
                char *n = strjoin("# bootrace fix: ", c->label, "\n", text);
                if (!n)
                        return -ENOMEM;
                free(text);
                text = n;
        }
        c->text = TAKE_PTR(text);
        return 0;
}
