/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Judging a candidate: the changed unit staged in a scratch directory and linted again for every target; the
 * races it closes, the cycles it makes and the units it delays. */

#include "fix/fix-internal.h"

/* ---- judging a candidate */

static int write_file(const char *path, const char *text) {
        _cleanup_(fclosep) FILE *f = fopen(path, "we");
        if (!f)
                return -errno;
        fputs(text, f);
        return fflush(f) != 0 || ferror(f) ? -EIO : 0;
}

/* Puts the candidate's file into the temporary directory the candidate runs search first. */
static int stage(const Search *s, const FixCandidate *c, char **ret_path, char **ret_subdir) {
        const char *base = path_basename(s->res->fragment);
        _cleanup_(freep) char *path = NULL, *sub = NULL;
        int r;

        *ret_subdir = NULL;
        if (s->res->dropin) {
                if (asprintf_safe(&sub, "%s/%s.d", s->tmpdir, base) < 0)
                        return -ENOMEM;
                if (mkdir(sub, 0755) < 0 && errno != EEXIST)
                        return -errno;
                path = path_join(sub, FIX_DROPIN_NAME);
        } else
                path = path_join(s->tmpdir, base);
        if (!path)
                return -ENOMEM;
        r = write_file(path, c->text);
        if (r < 0)
                return r;
        *ret_path = TAKE_PTR(path);
        *ret_subdir = TAKE_PTR(sub);
        return 0;
}

/* The entry of unit for version, made when missing. */
static FixDelay *delay_entry(FixCandidate *c, unsigned version, const char *unit) {
        FixDelay *n;

        for (size_t i = 0; i < c->n_delayed_items; i++)
                if (c->delayed[i].version == version && streq(c->delayed[i].unit, unit))
                        return &c->delayed[i];
        n = realloc(c->delayed, sizeof(FixDelay) * (c->n_delayed_items + 1));
        if (!n)
                return NULL;
        c->delayed = n;
        n[c->n_delayed_items] = (FixDelay) { .version = version, .unit = strdup(unit) };
        if (!n[c->n_delayed_items].unit)
                return NULL;
        return &n[c->n_delayed_items++];
}

/* The unit the repair itself names comes first in a list of what is waited for; the rest sorted. */
static void sort_waits(const FixCandidate *c, char **l) {
        size_t n = strv_length(l), k = 0;
        strv_sort(l);
        for (size_t s = 0; s < c->n_steps; s++)
                for (size_t i = k; i < n; i++)
                        if (streq(l[i], c->steps[s].value)) {
                                char *x = l[i];
                                memmove(l + k + 1, l + k, sizeof(char *) * (i - k));
                                l[k++] = x;
                                break;
                        }
}

static int judge_delays(const Search *s, FixCandidate *c, unsigned version, const LintRun *b,
                        const LintRun *cr) {
        const ModelUnit *bu = model_get(b->model, s->unit), *cu = model_get(cr->model, s->unit);
        const Graph *cg = model_graph(cr->model);
        _cleanup_(freep) uint8_t *wb = NULL, *wc = NULL, *ab = NULL, *ac = NULL;
        _cleanup_(strv_freep) char **new_waits = NULL;

        if (!bu || !cu)
                return 0;
        if (fix_closure(b, bu->node, true, &wb) < 0 || fix_closure(cr, cu->node, true, &wc) < 0 ||
            fix_closure(b, bu->node, false, &ab) < 0 || fix_closure(cr, cu->node, false, &ac) < 0)
                return -ENOMEM;
        for (uint32_t x = 0; x < graph_node_count(cg); x++) {
                const char *name = graph_node_name(cg, x);
                if (x == cu->node)
                        continue;
                if (wc[x] && !fix_marked(b, wb, name)) {
                        if (strv_extend(&new_waits, name) < 0)
                                return -ENOMEM;
                }
        }
        /* orderings dropped: what the unit no longer waits for, and who no longer waits for it */
        for (uint32_t x = 0; x < graph_node_count(model_graph(b->model)); x++) {
                const char *name = graph_node_name(model_graph(b->model), x);
                if (x == bu->node)
                        continue;
                c->n_lost += wb[x] && !fix_marked(cr, wc, name);
                c->n_lost += ab[x] && !fix_marked(cr, ac, name);
        }
        c->n_waits += strv_length(new_waits);
        if (new_waits) {
                /* the unit's own entry */
                FixDelay *self = delay_entry(c, version, s->unit);
                if (!self || !(self->waits_for = strv_copy(new_waits)))
                        return -ENOMEM;
                sort_waits(c, self->waits_for);
        }
        STRV_FOREACH(z, new_waits) {
                _cleanup_(freep) uint8_t *az = NULL;
                uint32_t zb;

                /* the units that already waited for z in the baseline */
                if (graph_find_node(model_graph(b->model), *z, &zb) >= 0 && fix_closure(b, zb, false, &az) < 0)
                        return -ENOMEM;
                for (uint32_t x = 0; x < graph_node_count(cg); x++) {
                        const char *name = graph_node_name(cg, x);
                        if (x == cu->node || !ac[x] || streq(name, *z) || fix_marked(b, az, name))
                                continue;
                        FixDelay *d = delay_entry(c, version, name);
                        if (!d || strv_extend(&d->waits_for, *z) < 0)
                                return -ENOMEM;
                }
        }
        for (size_t i = 0; i < c->n_delayed_items; i++)
                if (c->delayed[i].version == version && !streq(c->delayed[i].unit, s->unit)) {
                        sort_waits(c, c->delayed[i].waits_for);
                        c->n_delayed++;
                }
        return 0;
}

const char *fix_target_label(const FixTarget *t, char buf[static 32]) {
        if (t->name)
                return t->name;
        snprintf(buf, 32, "systemd %u", t->version);
        return buf;
}

/* The words of l joined by sep (a new string; "" for none), or NULL on OOM. */
static char *strv_join_sep(char **l, const char *sep) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);

        if (!f)
                return NULL;
        STRV_FOREACH(w, l)
                fprintf(f, "%s%s", w == l ? "" : sep, *w);
        if (fclose(f) != 0)
                return mfree(buf);
        return buf;
}

/* The races of the unit that still fire with candidate c (run) clear c->closes, and *fail (when not set yet)
 * says which of the baseline's (b) races c closes and which it leaves: "closes X but not Y for TARGET". */
static int races_left(const Search *s, FixCandidate *c, const LintRun *run, const LintRun *b, const FixTarget *tg,
                      char **fail) {
        _cleanup_(strv_freep) char **left = NULL, **closed = NULL;
        _cleanup_(freep) char *l = NULL, *cl = NULL;
        char buf[32];

        for (size_t i = 0; i < run->findings.n; i++) {
                const Finding *f = &run->findings.items[i];
                if (f->suppressed || !fix_check_is_race(f->check) || !streq_ptr(f->unit, s->unit))
                        continue;
                c->closes = false;
                if (strv_extend_unique(&left, f->check) < 0)
                        return -ENOMEM;
        }
        if (!left || *fail)
                return 0;
        for (size_t i = 0; i < b->findings.n; i++) {
                const Finding *f = &b->findings.items[i];
                if (!f->suppressed && fix_check_is_race(f->check) && streq_ptr(f->unit, s->unit) &&
                    !strv_contains(left, f->check) && strv_extend_unique(&closed, f->check) < 0)
                        return -ENOMEM;
        }
        l = strv_join_sep(left, ", ");
        cl = strv_join_sep(closed, ", ");
        if (!l || !cl)
                return -ENOMEM;
        if (closed ? asprintf_safe(fail, "closes %s but not %s for %s", cl, l, fix_target_label(tg, buf)) < 0
                   : asprintf_safe(fail, "does not close the race for %s: %s still fire%s", fix_target_label(tg, buf),
                                   l, left[1] ? "" : "s") < 0)
                return -ENOMEM;
        return 0;
}

static int judge_one(Search *s, FixCandidate *c, size_t t, const Removable ***words, size_t *n_words,
                     char **fail) {
        const FixRequest *req = s->req;
        const FixTarget *tg = &req->targets[t];
        _cleanup_(lint_run_freep) LintRun *run = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(strv_freep) char **extra = NULL;
        char *check_only[] = { (char *) s->unit, NULL }, buf[32];
        const ModelUnit *cu;
        int r;

        if (strv_extend(&extra, s->tmpdir) < 0)
                return -ENOMEM;
        STRV_FOREACH(d, req->extra_dirs)
        if (strv_extend(&extra, *d) < 0)
                return -ENOMEM;
        LintRunOptions o = {
                .root = req->root,
                .extra_dirs = extra,
                .version = tg->version,
                .target = tg->name,
                .distro = tg->distro,
                .profile = tg->profile,
                .generator_dir = tg->generator_dir,
                .anchor = req->anchor,
                .names = req->names,
                .check_only = check_only,
                .install_names = s->install,
                .suppressions = req->suppressions,
        };
        r = lint_run(&o, s->rules, &run, &diags);
        if (r < 0) {
                (void) diag_list_copy(s->diags, &diags, DIAG_ERROR);
                return r;
        }
        cu = model_get(run->model, s->unit);
        if (!cu || !cu->loaded)
                return asprintf_safe(fail, "%s does not load with it for %s", s->unit,
                                     fix_target_label(tg, buf)) < 0
                               ? -ENOMEM
                               : 0;

        /* (a) the race is closed: every race the baseline has, and no other */
        r = races_left(s, c, run, req->baselines[t], tg, fail);
        if (r < 0)
                return r;
        /* (b) no new ordering cycle */
        {
                _cleanup_(strv_freep) char **sigs = NULL;
                _cleanup_(freep) char *desc = NULL;
                if (fix_cycle_signatures(run, &sigs) < 0)
                        return -ENOMEM;
                for (size_t i = 0; i < run->n_cycles && !desc; i++) {
                        _cleanup_(freep) char *sig = fix_cycle_string(run, &run->cycles[i], UINT32_MAX);
                        if (!sig)
                                return -ENOMEM;
                        if (strv_contains(s->baseline_cycles[t], sig))
                                continue;
                        c->new_cycle = true;
                        desc = fix_cycle_string(run, &run->cycles[i], cu->node);
                        if (!desc)
                                return -ENOMEM;
                }
                if (!desc && (!run->transaction || !transaction_has_job(run->transaction, cu->node))) {
                        /* not in the boot transaction: a cycle of the graph through the unit counts */
                        _cleanup_(freep) uint8_t *wc = NULL, *wb = NULL;
                        const ModelUnit *bu = model_get(req->baselines[t]->model, s->unit);
                        if (fix_closure(run, cu->node, true, &wc) < 0 ||
                            (bu && fix_closure(req->baselines[t], bu->node, true, &wb) < 0))
                                return -ENOMEM;
                        if (wc[cu->node] && !(wb && bu && wb[bu->node])) {
                                c->new_cycle = true;
                                desc = strjoin(s->unit, " would be ordered after itself");
                                if (!desc)
                                        return -ENOMEM;
                        }
                }
                if (desc) {
                        char *m = NULL;
                        if (asprintf_safe(
                                    &m, "creates an ordering cycle for %s: %s (each ordered after the next)",
                                    fix_target_label(tg, buf), desc) < 0)
                                return -ENOMEM;
                        /* a new cycle outweighs a race left open in the explanation */
                        free(*fail);
                        *fail = m;
                        r = fix_cycle_words(s, run, s->baseline_cycles[t], words, n_words);
                        if (r < 0)
                                return r;
                }
        }
        /* (c) who waits longer now */
        return judge_delays(s, c, tg->version, req->baselines[t], run);
}

static int delay_cmp(const void *a, const void *b) {
        const FixDelay *x = a, *y = b;
        if (x->version != y->version)
                return x->version < y->version ? -1 : 1;
        return strcmp(x->unit, y->unit);
}

/* RequiresMountsFor= the paths on the root file system, and nothing else? */
static bool candidate_is_root_mounts_for(const Search *s, const FixCandidate *c) {
        return c->n_steps == 1 && c->steps[0].kind == FIX_REQUIRES_MOUNTS_FOR &&
               streq_ptr(c->steps[0].value, s->root_paths);
}

int fix_judge(Search *s, FixCandidate *c, const Removable ***words, size_t *n_words) {
        _cleanup_(freep) char *fail = NULL, *path = NULL, *sub = NULL;
        int r;

        r = fix_candidate_text(s, c);
        if (r < 0 || !c->text)
                return r;
        r = stage(s, c, &path, &sub);
        if (r < 0)
                return r;
        c->evaluated = true;
        c->closes = true;
        for (size_t t = 0; t < s->req->n_targets && r >= 0; t++)
                r = judge_one(s, c, t, words, n_words, &fail);
        (void) unlink(path);
        if (sub)
                (void) rmdir(sub);
        if (r < 0)
                return r;
        if (c->n_delayed_items > 0)
                qsort_safe(c->delayed, c->n_delayed_items, sizeof(FixDelay), delay_cmp);
        if (fail) {
                if (!c->closes && !c->new_cycle && candidate_is_root_mounts_for(s, c)) {
                        char *m = strjoin(fail,
                                          ": RequiresMountsFor= of a path on the root file system only adds "
                                          "After=-.mount, and -.mount is active (read-only) from the start");
                        if (!m)
                                return -ENOMEM;
                        free(fail);
                        fail = m;
                }
                c->reason = TAKE_PTR(fail);
        }
        if (c->sandbox && !c->note &&
            asprintf_safe(&c->note,
                          "closes every race, as PID 1 then writes nothing for it before exec, but "
                          "removes the sandboxing: without %s= the service shares the host's /tmp and "
                          "/var/tmp with everyone, and what it writes there early still needs / writable",
                          s->sandbox ? s->sandbox->key : "PrivateTmp") < 0)
                return -ENOMEM;
        return 0;
}
