/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Ranking the judged candidates, explaining why each other one lost, and the results as lint shows them
 * (fix_attach()). */

#include "basic/unified-diff.h"
#include "fix/fix-internal.h"

/* ---- ranking */

int fix_candidate_cmp(const void *a, const void *b) {
        const FixCandidate *x = a, *y = b;
#define CMP(e)                                                                                              \
        do {                                                                                                \
                if ((e(x)) != (e(y)))                                                                       \
                        return (e(x)) < (e(y)) ? -1 : 1;                                                    \
        } while (0)
#define BAD(c) (!(c)->evaluated ? 3 : !(c)->closes ? 2 : (c)->new_cycle ? 1 : 0)
#define SANDBOX(c) ((c)->sandbox)
#define DELAYED(c) ((c)->n_delayed)
#define LINES(c) ((c)->lines)
#define WAITS(c) ((c)->n_waits)
#define LOST(c) ((c)->n_lost)
        CMP(BAD);
        CMP(SANDBOX);
        CMP(DELAYED);
        CMP(LINES);
        CMP(WAITS);
        CMP(LOST);
#undef BAD
#undef SANDBOX
#undef DELAYED
#undef LINES
#undef WAITS
#undef LOST
#undef CMP
        for (size_t i = 0; i < x->n_steps && i < y->n_steps; i++) {
                int r = fix_step_cmp(&x->steps[i], &y->steps[i]);
                if (r)
                        return r;
        }
        return strcmp(x->label, y->label);
}

/* "a.service, b.service and 1 more would now wait for local-fs.target (and 4 more units)" */
static int delay_sentence(const FixCandidate *c, const char *unit, char **ret) {
        _cleanup_(strv_freep) char **waits = NULL;
        char *buf = NULL;
        size_t len = 0, n_units = 0, shown = 0;
        const char *first = NULL;
        FILE *f;

        for (size_t i = 0; i < c->n_delayed_items; i++) {
                if (streq(c->delayed[i].unit, unit))
                        continue;
                n_units++;
                STRV_FOREACH(w, c->delayed[i].waits_for) {
                        if (!first)
                                first = *w;
                        if (strv_extend_unique(&waits, *w) < 0)
                                return -ENOMEM;
                }
        }
        f = open_memstream(&buf, &len);
        if (!f)
                return -ENOMEM;
        for (size_t i = 0; i < c->n_delayed_items; i++) {
                if (streq(c->delayed[i].unit, unit))
                        continue;
                if (shown == 2 && n_units > 3) {
                        fprintf(f, " and %zu more", n_units - shown);
                        break;
                }
                fprintf(f, "%s%s",
                        shown == 0             ? ""
                        : shown + 1 == n_units ? " and "
                                               : ", ",
                        c->delayed[i].unit);
                shown++;
        }
        fprintf(f, " would now wait for %s", strna(first));
        if (strv_length(waits) > 1)
                fprintf(f, " (and %zu more unit%s)", strv_length(waits) - 1,
                        strv_length(waits) == 2 ? "" : "s");
        if (fclose(f) != 0)
                return -ENOMEM;
        *ret = buf;
        return 0;
}

int fix_explain_rejection(const FixCandidate *chosen, FixCandidate *c, const char *unit) {
        _cleanup_(freep) char *d = NULL;

        if (c->reason)
                return 0;
        if (c->sandbox && !chosen->sandbox)
                return asprintf_safe(&c->reason, "%s; an ordering repair exists (%s)", c->note,
                                     chosen->label) < 0
                               ? -ENOMEM
                               : 0;
        if (c->n_delayed > chosen->n_delayed) {
                if (delay_sentence(c, unit, &d) < 0)
                        return -ENOMEM;
                return asprintf_safe(&c->reason, "delays %zu other unit%s: %s", c->n_delayed,
                                     c->n_delayed == 1 ? "" : "s", strna(d)) < 0
                               ? -ENOMEM
                               : 0;
        }
        if (c->lines > chosen->lines && strstr(c->label, "DefaultDependencies=no"))
                return asprintf_safe(&c->reason,
                                     "breaks the cycle without the default dependencies and keeps every ordering "
                                     "written in the file, but changes %u lines, the chosen repair %u",
                                     c->lines, chosen->lines) < 0
                               ? -ENOMEM
                               : 0;
        if (c->lines > chosen->lines)
                return asprintf_safe(&c->reason, "changes %u lines, the chosen repair %u", c->lines,
                                     chosen->lines) < 0
                               ? -ENOMEM
                               : 0;
        if (c->n_waits > chosen->n_waits)
                return asprintf_safe(
                               &c->reason,
                               "less precise: %s would newly wait for %zu unit%s, with the chosen one %zu",
                               unit, c->n_waits, c->n_waits == 1 ? "" : "s", chosen->n_waits) < 0
                               ? -ENOMEM
                               : 0;
        if (c->n_lost > chosen->n_lost)
                return asprintf_safe(&c->reason, "drops more orderings (%zu, the chosen repair %zu)",
                                     c->n_lost, chosen->n_lost) < 0
                               ? -ENOMEM
                               : 0;
        if (c->n_steps == 1 && c->steps[0].kind == FIX_AFTER_MOUNT)
                return asprintf_safe(&c->reason,
                                     "as good, but orders after %s without pulling it in; "
                                     "RequiresMountsFor= does both and follows the mount if it moves",
                                     c->steps[0].value) < 0
                               ? -ENOMEM
                               : 0;
        c->reason =
                strdup("as good by every measure; the chosen repair comes first in the order of preference");
        return c->reason ? 0 : -ENOMEM;
}

/* ---- for lint */

int fix_result_diff(const FixResult *r, const char *label, char **ret) {
        const FixCandidate *c = &r->candidates[0];

        *ret = NULL;
        if (!r->chosen)
                return 0;
        return unified_diff(r->old_text, strlen(r->old_text), c->text, strlen(c->text),
                            r->dropin && !r->file_exists ? "/dev/null" : label, label, 3, ret);
}

int fix_result_summary(const FixResult *r, char **ret) {
        const FixCandidate *c = r->chosen ? &r->candidates[0] : NULL;
        bool dropin_form = true;
        _cleanup_(freep) char *text = NULL;
        size_t len = 0;
        FILE *f;

        *ret = NULL;
        if (!c)
                return 0;
        for (size_t i = 0; i < c->n_steps; i++)
                dropin_form = dropin_form && c->steps[i].kind != FIX_DROP_ORDERING;
        if (!dropin_form || r->dropin)
                return fix_result_diff(r, r->file, ret);
        /* the drop-in text: what lint has always shown */
        f = open_memstream(&text, &len);
        if (!f)
                return -ENOMEM;
        for (int pass = 0, any = 0; pass < 2; pass++) {
                bool header = false;
                for (size_t i = 0; i < c->n_steps; i++) {
                        const FixStep *st = &c->steps[i];
                        if ((pass == 0) != (st->kind != FIX_DROP_SANDBOX))
                                continue;
                        if (!header)
                                fprintf(f, "%s[%s]\n", any ? "\n" : "", st->section);
                        header = true;
                        any = 1;
                        fprintf(f, "%s=%s\n", st->key, st->kind == FIX_DROP_SANDBOX ? "no" : st->value);
                }
        }
        if (fclose(f) != 0)
                return -ENOMEM;
        if (len > 0 && text[len - 1] == '\n')
                text[len - 1] = 0;
        *ret = TAKE_PTR(text);
        return 0;
}

static int details_of(const FixResult *r, FindingFix **ret) {
        _cleanup_(finding_fix_freep) FindingFix *x = calloc(1, sizeof(FindingFix));
        const FixCandidate *c = r->chosen ? &r->candidates[0] : NULL;

        if (!x)
                return -ENOMEM;
        if (c) {
                bool drop = false;
                for (size_t i = 0; i < c->n_steps; i++)
                        drop = drop || c->steps[i].kind == FIX_DROP_ORDERING;
                x->candidate = strdup(c->label);
                x->form = strdup(drop ? "diff" : "drop-in");
                x->lines = c->lines;
                if (!x->candidate || !x->form)
                        return -ENOMEM;
                if (c->note && !(x->note = strdup(c->note)))
                        return -ENOMEM;
                for (size_t i = 0; i < c->n_delayed_items; i++) {
                        const FixDelay *d = &c->delayed[i];
                        char *line = NULL;
                        if (streq(d->unit, r->unit))
                                continue;
                        if (asprintf_safe(&line, "%s would now wait for", d->unit) < 0)
                                return -ENOMEM;
                        STRV_FOREACH(w, d->waits_for) {
                                char *n = strjoin(line, w == d->waits_for ? " " : ", ", *w);
                                free(line);
                                if (!(line = n))
                                        return -ENOMEM;
                        }
                        if (strv_push(&x->delayed, line) < 0)
                                return -ENOMEM;
                }
        } else if (!(x->none_reason = strdup(strempty(r->none_reason))))
                return -ENOMEM;
        for (size_t i = c ? 1 : 0; i < r->n_candidates; i++)
                if (strv_extend(&x->rejected, r->candidates[i].label) < 0 ||
                    strv_extend(&x->rejected, strempty(r->candidates[i].reason)) < 0)
                        return -ENOMEM;
        *ret = TAKE_PTR(x);
        return 0;
}

int fix_attach(const LintRunOptions *o, const Rules *rules, LintRun *run, DiagList *diags) {
        FixTarget target = { .version = o->version,
                             .name = (char *) o->target,
                             .distro = (char *) o->distro,
                             .generator_dir = (char *) o->generator_dir };
        LintRun *baselines[] = { run };
        FixRequest req = {
                .root = o->root,
                .extra_dirs = o->extra_dirs,
                .names = o->names,
                .anchor = o->anchor,
                .suppressions = o->suppressions,
                .targets = &target,
                .n_targets = 1,
                .baselines = baselines,
        };
        int r;

        for (size_t i = 0; i < run->n_units; i++) {
                ModelUnit *mu = run->units[i];
                _cleanup_(fix_result_freep) FixResult *res = NULL;
                _cleanup_(freep) char *summary = NULL;
                DiagList scratch = {};
                bool any = false;

                for (size_t k = 0; k < run->findings.n; k++) {
                        const Finding *f = &run->findings.items[k];
                        any = any || (!f->suppressed && fix_check_is_race(f->check) &&
                                      streq_ptr(f->unit, mu->unit->id));
                }
                if (!any || !mu->unit->fragment_path)
                        continue;
                /* a unit whose file cannot be read back or staged keeps its finding without a repair */
                r = fix_search(&req, rules, mu->unit->id, mu->unit->fragment_path, false, NULL, &res, &scratch);
                diag_list_done(&scratch);
                if (r == -ENOMEM)
                        return r;
                if (r < 0) {
                        if (diag_add(diags, DIAG_NOTICE, mu->unit->fragment_path, 0, "%s: no repair searched: %s",
                                     mu->unit->id, strerror(-r)) < 0)
                                return -ENOMEM;
                        continue;
                }
                r = fix_result_summary(res, &summary);
                if (r < 0)
                        return r;
                for (size_t k = 0; k < run->findings.n; k++) {
                        Finding *f = &run->findings.items[k];
                        if (f->suppressed || !fix_check_is_race(f->check) ||
                            !streq_ptr(f->unit, mu->unit->id))
                                continue;
                        free(f->fix);
                        f->fix = NULL;
                        if (summary && !(f->fix = strdup(summary)))
                                return -ENOMEM;
                        finding_fix_free(f->fix_details);
                        f->fix_details = NULL;
                        r = details_of(res, &f->fix_details);
                        if (r < 0)
                                return r;
                }
        }
        return 0;
}
