/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <fcntl.h>

#include "fix/fix-internal.h"
#include "fix/fix-search.h"

static const char * const race_checks[] = {
        "private-tmp-before-remount",
        "writable-path-before-remount",
        "path-on-separate-mount",
        "exec-write-before-writable",
        "exec-write-removed-by-tmpfiles",
        "sandbox-ordered-too-early",
        "ordering-cycle",
        NULL,
};

/* Settings that sandbox a unit and, by doing so, give it ordering dependencies of their own (knowledge/
 * implicit-deps.md §2-3): removing one is the repair of last resort. */
static const char * const sandbox_settings[] = { "PrivateTmp", "PrivateDevices", NULL };

bool fix_check_is_race(const char *check) {
        for (const char * const *c = race_checks; *c; c++)
                if (streq(*c, check))
                        return true;
        return false;
}

void fix_target_done(FixTarget *t) {
        t->name = mfree(t->name);
        t->distro = mfree(t->distro);
        lint_generated_removep(&t->generator_dir);
}

/* ---- memory */

void fix_step_done(FixStep *s) {
        free(s->section);
        free(s->key);
        free(s->value);
}

static void delays_free(FixDelay *d, size_t n) {
        for (size_t i = 0; i < n; i++) {
                free(d[i].unit);
                strv_free(d[i].waits_for);
        }
        free(d);
}

static void candidate_done(FixCandidate *c) {
        free(c->label);
        for (size_t i = 0; i < c->n_steps; i++)
                fix_step_done(&c->steps[i]);
        free(c->steps);
        free(c->text);
        delays_free(c->delayed, c->n_delayed_items);
        free(c->reason);
        free(c->note);
        *c = (FixCandidate) {};
}

FixResult *fix_result_free(FixResult *r) {
        if (!r)
                return NULL;
        free(r->unit);
        free(r->fragment);
        free(r->file);
        free(r->old_text);
        for (size_t i = 0; i < r->n_findings; i++) {
                free(r->findings[i].check);
                free(r->findings[i].message);
        }
        free(r->findings);
        for (size_t i = 0; i < r->n_candidates; i++)
                candidate_done(&r->candidates[i]);
        free(r->candidates);
        free(r->none_reason);
        free(r);
        return NULL;
}

int fix_step_copy(const FixStep *s, FixStep *d) {
        *d = (FixStep) {
                .kind = s->kind,
                .line = s->line,
                .section = strdup(s->section),
                .key = strdup(s->key),
                .value = strdup(s->value),
        };
        if (!d->section || !d->key || !d->value) {
                fix_step_done(d);
                return -ENOMEM;
        }
        return 0;
}

bool fix_step_eq(const FixStep *a, const FixStep *b) {
        return a->kind == b->kind && streq(a->key, b->key) && streq(a->value, b->value) &&
               a->line == b->line;
}

/* ---- reading the file */

static int read_text(const char *path, char **ret, bool *ret_exists) {
        _cleanup_(closep) int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        struct stat st;
        size_t size;

        if (fd < 0) {
                if (errno != ENOENT || !ret_exists)
                        return -errno;
                *ret_exists = false;
                *ret = strdup("");
                return *ret ? 0 : -ENOMEM;
        }
        if (fstat(fd, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode))
                return -EBADFD;
        if (ret_exists)
                *ret_exists = true;
        return read_full_fd(fd, 16u << 20, ret, &size);
}

/* ---- the ordering closures of a unit */

/* Marks in *ret the units ordered after start (after = true: what start waits for) or before it (the units
 * that wait for start), start itself only when a cycle leads back. With jobs, only over units with a start
 * job of the transaction, as systemd orders jobs. Returns the number fix_marked or -ENOMEM. */
int fix_closure(const LintRun *run, uint32_t start, bool after, uint8_t **ret) {
        const Graph *g = model_graph(run->model);
        const Transaction *tr = run->transaction;
        bool jobs = tr && transaction_has_job(tr, start);
        size_t n = graph_node_count(g), head = 0, tail = 0;
        _cleanup_(freep) uint32_t *queue = malloc(sizeof(uint32_t) * (n + 1));
        _cleanup_(freep) uint8_t *seen = calloc(n + 1, 1);
        int count = 0;

        if (!queue || !seen)
                return -ENOMEM;
        queue[tail++] = start;
        while (head < tail) {
                uint32_t x = queue[head++];
                for (int dir = 0; dir < 2; dir++) {
                        EdgeSet e = dir == 0 ? graph_out(g, x) : graph_in(g, x);
                        /* out-edges After= and in-edges Before= lead to what x waits for */
                        DepType want = (dir == 0) == after ? DEP_AFTER : DEP_BEFORE;

                        for (size_t i = 0; i < e.n; i++) {
                                const GraphEdge *ed = graph_edge(g, edge_set_get(&e, i));
                                uint32_t y = dir == 0 ? ed->to : ed->from;
                                if (ed->type != want || seen[y])
                                        continue;
                                if (jobs && !transaction_has_job(tr, y))
                                        continue;
                                seen[y] = 1;
                                count++;
                                queue[tail++] = y;
                        }
                }
        }
        *ret = TAKE_PTR(seen);
        return count;
}

bool fix_marked(const LintRun *run, const uint8_t *set, const char *name) {
        uint32_t node;
        return set && graph_find_node(model_graph(run->model), name, &node) >= 0 && set[node];
}

/* ---- cycles */

/* "a -> b -> c" for a cycle, rotated to start at first (when on it) or at its smallest name. */
char *fix_cycle_string(const LintRun *run, const Cycle *cy, uint32_t first) {
        const Graph *g = model_graph(run->model);
        size_t start = 0, len = 0;
        char *buf = NULL;
        FILE *f;

        for (size_t i = 0; i < cy->n; i++)
                if (cy->nodes[i] == first) {
                        start = i;
                        goto found;
                }
        for (size_t i = 1; i < cy->n; i++)
                if (strcmp(graph_node_name(g, cy->nodes[i]), graph_node_name(g, cy->nodes[start])) < 0)
                        start = i;
found:
        f = open_memstream(&buf, &len);
        if (!f)
                return NULL;
        for (size_t i = 0; i <= cy->n; i++)
                fprintf(f, "%s%s", i ? " -> " : "", graph_node_name(g, cy->nodes[(start + i) % cy->n]));
        if (fclose(f) != 0)
                return mfree(buf);
        return buf;
}

int fix_cycle_signatures(const LintRun *run, char ***ret) {
        _cleanup_(strv_freep) char **l = NULL;

        for (size_t i = 0; i < run->n_cycles; i++) {
                char *s = fix_cycle_string(run, &run->cycles[i], UINT32_MAX);
                if (!s)
                        return -ENOMEM;
                if (strv_contains(l, s))
                        free(s);
                else if (strv_push(&l, s) < 0)
                        return -ENOMEM;
        }
        *ret = TAKE_PTR(l);
        return 0;
}

/* ---- what the search works with */

static void search_done(Search *s) {
        strv_free(s->install);
        for (size_t t = 0; s->baseline_cycles && t < s->req->n_targets; t++)
                strv_free(s->baseline_cycles[t]);
        free(s->baseline_cycles);
        for (size_t i = 0; i < s->n_removable; i++) {
                free(s->removable[i].key);
                free(s->removable[i].word);
        }
        free(s->removable);
        free(s->sandbox_file);
        free(s->root_paths);
        if (s->tmpdir)
                (void) rmdir(s->tmpdir);
        free(s->tmpdir);
}

static const Removable *removable_find(const Search *s, const char *key, const char *word) {
        for (size_t i = 0; i < s->n_removable; i++)
                if (streq(s->removable[i].key, key) && streq(s->removable[i].word, word))
                        return &s->removable[i];
        return NULL;
}

/* The After=/Before= words written in the unit's fragment (only those can be dropped by editing it). */
static int collect_removable(Search *s, const LintRun *b, const ModelUnit *mu) {
        const Graph *g = model_graph(b->model);
        EdgeSet e = graph_out(g, mu->node);

        for (size_t i = 0; i < e.n; i++) {
                const GraphEdge *ed = graph_edge(g, edge_set_get(&e, i));
                const Origin *o = graph_origin(g, ed->origin);
                const char *key = dep_type_to_string(ed->type), *word = graph_node_name(g, ed->to);
                Removable *x;

                if ((ed->type != DEP_AFTER && ed->type != DEP_BEFORE) || o->kind != ORIGIN_FILE ||
                    o->line == 0 || !streq_ptr(o->file, mu->unit->fragment_path) ||
                    removable_find(s, key, word))
                        continue;
                x = realloc(s->removable, sizeof(Removable) * (s->n_removable + 1));
                if (!x)
                        return -ENOMEM;
                s->removable = x;
                x[s->n_removable] = (Removable) {
                        .key = strdup(key),
                        .word = strdup(word),
                        .line = o->line,
                };
                if (!x[s->n_removable].key || !x[s->n_removable].word) {
                        free(x[s->n_removable].key);
                        free(x[s->n_removable].word);
                        return -ENOMEM;
                }
                s->n_removable++;
        }
        return 0;
}

/* The removable words on cycles of run through the unit (baseline cycles, or the new cycles of a candidate).
 */
int fix_cycle_words(const Search *s, const LintRun *run, char **old_cycles, const Removable ***ret,
                    size_t *ret_n) {
        const Graph *g = model_graph(run->model);
        const ModelUnit *mu = model_get(run->model, s->unit);

        if (!mu)
                return 0;
        for (size_t i = 0; i < run->n_cycles; i++) {
                const Cycle *cy = &run->cycles[i];
                if (!cycle_has(cy, mu->node))
                        continue;
                if (old_cycles) {
                        _cleanup_(freep) char *sig = fix_cycle_string(run, cy, UINT32_MAX);
                        if (!sig)
                                return -ENOMEM;
                        if (strv_contains(old_cycles, sig))
                                continue;
                }
                for (size_t k = 0; k < cy->n; k++) {
                        const GraphEdge *ed = graph_edge(g, cy->edges[k]);
                        const Removable *x, **n;
                        bool dup = false;

                        if (ed->from != mu->node || (ed->type != DEP_AFTER && ed->type != DEP_BEFORE))
                                continue;
                        x = removable_find(s, dep_type_to_string(ed->type), graph_node_name(g, ed->to));
                        if (!x)
                                continue;
                        for (size_t j = 0; j < *ret_n; j++)
                                dup = dup || (*ret)[j] == x;
                        if (dup)
                                continue;
                        n = realloc(*ret, sizeof(Removable *) * (*ret_n + 1));
                        if (!n)
                                return -ENOMEM;
                        *ret = n;
                        n[(*ret_n)++] = x;
                }
        }
        /* without a transaction (or a job for the unit) cycles are judged on the graph alone */
        if (!run->transaction || !transaction_has_job(run->transaction, mu->node)) {
                EdgeSet e = graph_out(g, mu->node);
                for (size_t i = 0; i < e.n; i++) {
                        const GraphEdge *ed = graph_edge(g, edge_set_get(&e, i));
                        const Removable *x, **nn;
                        int r;

                        if (ed->type != DEP_AFTER && ed->type != DEP_BEFORE)
                                continue;
                        x = removable_find(s, dep_type_to_string(ed->type), graph_node_name(g, ed->to));
                        if (!x)
                                continue;
                        r = ed->type == DEP_AFTER ? graph_ordered_after(g, ed->to, mu->node, NULL, NULL)
                                                  : graph_ordered_after(g, mu->node, ed->to, NULL, NULL);
                        if (r < 0)
                                return r;
                        if (r == 0)
                                continue;
                        nn = realloc(*ret, sizeof(Removable *) * (*ret_n + 1));
                        if (!nn)
                                return -ENOMEM;
                        *ret = nn;
                        nn[(*ret_n)++] = x;
                }
        }
        return 0;
}

/* ---- the search */

static int add_finding(FixResult *res, const Finding *f, unsigned version, const char *target) {
        FixFinding *n = realloc(res->findings, sizeof(FixFinding) * (res->n_findings + 1));
        if (!n)
                return -ENOMEM;
        res->findings = n;
        n[res->n_findings] = (FixFinding) { .check = strdup(f->check),
                                           .version = version,
                                           .target = target,
                                           .line = f->line,
                                           .message = strdup(f->message) };
        if (!n[res->n_findings].check || !n[res->n_findings].message) {
                free(n[res->n_findings].check);
                free(n[res->n_findings].message);
                return -ENOMEM;
        }
        res->n_findings++;
        return 0;
}

static bool fired(const LintRun *b, const char *unit, const char *check) {
        for (size_t i = 0; i < b->findings.n; i++) {
                const Finding *f = &b->findings.items[i];
                if (!f->suppressed && streq(f->check, check) && streq_ptr(f->unit, unit))
                        return true;
        }
        return false;
}

/* The options of the groups the baselines' findings call for, per version. */
static int groups_of(Search *s, Group **ret, size_t *ret_n, bool *ret_sandbox) {
        const FixRequest *req = s->req;
        _cleanup_(strv_freep) char **root_paths = NULL, **mount_paths = NULL, **mounts = NULL;
        _cleanup_(freep) const Removable **words = NULL;
        size_t n_words = 0, n = 0;
        bool private_tmp = false, cycle = false;
        Group *g;
        int r;

        for (size_t t = 0; t < req->n_targets; t++) {
                const LintRun *b = req->baselines[t];
                ModelUnit *mu = model_get(b->model, s->unit);
                _cleanup_(exec_write_list_done) ExecWriteList writes = {};
                LintContext lc = { .model = b->model,
                                   .rules = s->rules,
                                   .version = req->targets[t].version,
                                   .boot_tmpfiles = b->boot_tmpfiles,
                                   .root = req->root };
                bool pt = fired(b, s->unit, "private-tmp-before-remount") ||
                          fired(b, s->unit, "exec-write-removed-by-tmpfiles"),
                     ew = fired(b, s->unit, "exec-write-before-writable"),
                     wr = fired(b, s->unit, "writable-path-before-remount"),
                     sep = fired(b, s->unit, "path-on-separate-mount"),
                     cy = fired(b, s->unit, "ordering-cycle") ||
                          fired(b, s->unit, "sandbox-ordered-too-early");

                if (!mu)
                        continue;
                private_tmp = private_tmp || pt;
                cycle = cycle || cy;
                /* what PID 1 and the child write before exec, each with what makes it ready (the model) */
                r = lint_exec_writes(&lc, mu, &writes);
                if (r < 0)
                        return r;
                for (size_t i = 0; i < writes.n; i++) {
                        const ExecWriteAt *w = &writes.items[i];
                        _cleanup_(exec_write_ready_done) ExecWriteReady rd = {};
                        bool by_pt = exec_write_judged_by(w->write, "private-tmp-before-remount") ||
                                     exec_write_judged_by(w->write, "exec-write-removed-by-tmpfiles"),
                             by_ew = exec_write_judged_by(w->write, "exec-write-before-writable"),
                             by_wr = exec_write_judged_by(w->write, "writable-path-before-remount"),
                             by_sep = exec_write_judged_by(w->write, "path-on-separate-mount");

                        r = lint_exec_write_ready(&lc, w, &rd);
                        if (r < 0)
                                return r;
                        if (!rd.mount)
                                continue; /* /run: ready from the start */
                        if (streq(rd.mount, "-.mount")) {
                                /* a path only needed (a bind source) is there from the start */
                                if (((pt && by_pt) || (wr && by_wr) ||
                                     (ew && by_ew && w->write->op != EXEC_WRITE_NONE)) &&
                                    strv_extend_unique(&root_paths, w->under) < 0)
                                        return -ENOMEM;
                                continue;
                        }
                        if (strv_contains(mount_paths, w->under) || !((sep && by_sep) || (ew && by_ew)))
                                continue;
                        if (!(ew && by_ew)) {
                                r = lint_ordered_after(&lc, mu, rd.mount, NULL, NULL);
                                if (r < 0)
                                        return r;
                                if (r > 0)
                                        continue;
                        }
                        if (strv_extend(&mount_paths, w->under) < 0 || strv_extend(&mounts, rd.mount) < 0)
                                return -ENOMEM;
                }
                if (ew)
                        private_tmp = true; /* dropping the sandbox that writes is a repair too */
                if (cy && fix_cycle_words(s, b, NULL, &words, &n_words) < 0)
                        return -ENOMEM;
        }

        g = calloc(strv_length(mount_paths) + 3, sizeof(Group));
        if (!g)
                return -ENOMEM;
        *ret = g;
        if (root_paths) {
                _cleanup_(freep) char *joined = NULL;
                size_t len = 0;
                STRV_FOREACH(p, root_paths)
                len += strlen(*p) + 1;
                joined = calloc(len + 1, 1);
                if (!joined)
                        return -ENOMEM;
                STRV_FOREACH(p, root_paths) {
                        if (p != root_paths)
                                strcat(joined, " ");
                        strcat(joined, *p);
                }
                if (fix_group_add_orderings(&g[n], joined, NULL) < 0)
                        return -ENOMEM;
                s->root_paths = TAKE_PTR(joined);
                n++;
        }
        for (size_t i = 0; mount_paths && mount_paths[i]; i++) {
                if (fix_group_add_orderings(&g[n], mount_paths[i], mounts[i]) < 0)
                        return -ENOMEM;
                n++;
        }
        if (cycle) {
                for (size_t i = 0; i < n_words; i++)
                        if (fix_group_add(&g[n], FIX_DROP_ORDERING, "Unit", words[i]->key, words[i]->word,
                                          words[i]->line) < 0)
                                return -ENOMEM;
                n++;
        }
        *ret_n = n;
        *ret_sandbox = private_tmp || cycle;
        return 0;
}

/* Does a cycle of run through the unit run through one of its default dependencies (After=sysinit.target,
 * After=basic.target, ...)? Then DefaultDependencies=no, with the orderings the unit then needs, is a repair. */
static bool cycle_through_default_deps(const LintRun *run, const ModelUnit *mu) {
        const Graph *g = model_graph(run->model);

        if (!mu->default_deps)
                return false;
        for (size_t i = 0; i < run->n_cycles; i++) {
                const Cycle *cy = &run->cycles[i];
                if (!cycle_has(cy, mu->node))
                        continue;
                for (size_t k = 0; k < cy->n; k++) {
                        const GraphEdge *ed = graph_edge(g, cy->edges[k]);
                        const Origin *o = graph_origin(g, ed->origin);
                        if (ed->from == mu->node && o->kind == ORIGIN_RULE && streq_ptr(o->class, "default"))
                                return true;
                }
        }
        return false;
}

/* DefaultDependencies=no + Conflicts= and Before=shutdown.target (what the default dependencies gave) + After=
 * what its writes then need: systemd-remount-fs.service for paths on the root file system, and
 * systemd-tmpfiles-setup.service for what must outlive the boot's tmpfiles.d. Adds nothing when no cycle of a
 * baseline runs through the unit's default dependencies. */
static int no_default_deps_candidate(Search *s, bool dropin) {
        const FixRequest *req = s->req;
        bool applies = false, root = false, lasting = false;
        FixStep st[5];
        const FixStep *steps[5];
        size_t n = 0;

        for (size_t t = 0; t < req->n_targets; t++) {
                const LintRun *b = req->baselines[t];
                ModelUnit *mu = model_get(b->model, s->unit);
                LintContext lc = { .model = b->model,
                                   .rules = s->rules,
                                   .version = req->targets[t].version,
                                   .boot_tmpfiles = b->boot_tmpfiles,
                                   .root = req->root };
                _cleanup_(exec_write_list_done) ExecWriteList writes = {};

                if (!mu || !cycle_through_default_deps(b, mu))
                        continue;
                applies = true;
                if (lint_exec_writes(&lc, mu, &writes) < 0)
                        return -ENOMEM;
                /* what the writes need once sysinit.target no longer orders the unit (the model) */
                for (size_t i = 0; i < writes.n; i++) {
                        _cleanup_(exec_write_ready_done) ExecWriteReady rd = {};
                        if (lint_exec_write_ready(&lc, &writes.items[i], &rd) < 0)
                                return -ENOMEM;
                        lasting = lasting || rd.removed_by;
                        root = root || rd.remount;
                }
        }
        if (!applies)
                return 0;
        st[n++] = (FixStep) { .kind = FIX_NO_DEFAULT_DEPS, .section = (char *) "Unit",
                              .key = (char *) "DefaultDependencies", .value = (char *) "no" };
        st[n++] = (FixStep) { .kind = FIX_CONFLICTS_SHUTDOWN, .section = (char *) "Unit",
                              .key = (char *) "Conflicts", .value = (char *) "shutdown.target" };
        st[n++] = (FixStep) { .kind = FIX_BEFORE_SHUTDOWN, .section = (char *) "Unit", .key = (char *) "Before",
                              .value = (char *) "shutdown.target" };
        if (root)
                st[n++] = (FixStep) { .kind = FIX_AFTER_REMOUNT, .section = (char *) "Unit",
                                      .key = (char *) "After", .value = (char *) "systemd-remount-fs.service" };
        if (lasting)
                st[n++] = (FixStep) { .kind = FIX_AFTER_TMPFILES, .section = (char *) "Unit",
                                      .key = (char *) "After", .value = (char *) "systemd-tmpfiles-setup.service" };
        for (size_t i = 0; i < n; i++)
                steps[i] = &st[i];
        return fix_candidate_add(s->res, steps, n, dropin);
}

/* A sandboxing setting of the unit that may be removed: set to true in the unit's own files. */
static void find_sandbox(Search *s, const ModelUnit *mu) {
        for (const char * const *k = sandbox_settings; *k; k++) {
                const Setting *st = NULL;
                const char *v = lint_value(mu, rules_type_section(mu->unit->type) ?: "Service", *k, &st);
                if (v && st && lint_bool(v) > 0) {
                        s->sandbox = st;
                        s->sandbox_file = strdup(mu->unit->sources[st->source].path);
                        return;
                }
        }
}

static int prepare(Search *s, bool dropin, const char *fragment, const char *dropin_path) {
        FixResult *res = s->res;
        const char *tmp = getenv("TMPDIR");
        int r;

        res->fragment = strdup(fragment);
        if (!res->fragment)
                return -ENOMEM;
        res->dropin = dropin;
        if (dropin) {
                if (dropin_path)
                        res->file = strdup(dropin_path);
                else if (asprintf_safe(&res->file, "%s.d/%s", fragment, FIX_DROPIN_NAME) < 0)
                        res->file = NULL;
                if (!res->file)
                        return -ENOMEM;
        } else {
                res->file = strdup(fragment);
                if (!res->file)
                        return -ENOMEM;
        }
        res->file_exists = true;
        r = read_text(res->file, &res->old_text, dropin ? &res->file_exists : NULL);
        if (r < 0) {
                (void) diag_add(s->diags, DIAG_ERROR, res->file, 0, "cannot read: %s", strerror(-r));
                return r;
        }
        if (asprintf_safe(&s->tmpdir, "%s/bootrace-fix.XXXXXX", isempty(tmp) ? "/tmp" : tmp) < 0)
                return -ENOMEM;
        if (!mkdtemp(s->tmpdir)) {
                r = -errno;
                (void) diag_add(s->diags, DIAG_ERROR, s->tmpdir, 0, "cannot create a directory: %s",
                                strerror(-r));
                s->tmpdir = mfree(s->tmpdir);
                return r;
        }
        return 0;
}

int fix_search(const FixRequest *req, const Rules *rules, const char *unit, const char *fragment,
               bool dropin, const char *dropin_path, FixResult **ret, DiagList *diags) {
        _cleanup_(fix_result_freep) FixResult *res = calloc(1, sizeof(FixResult));
        _cleanup_(search_done)
                Search s = { .req = req, .rules = rules, .unit = unit, .res = res, .diags = diags };
        Group *groups = NULL;
        size_t n_groups = 0, n_first;
        bool sandbox = false;
        int r;

        if (!res || !(res->unit = strdup(unit)))
                return -ENOMEM;
        s.baseline_cycles = calloc(req->n_targets + 1, sizeof(char **));
        if (!s.baseline_cycles)
                return -ENOMEM;
        for (size_t t = 0; t < req->n_targets; t++) {
                const LintRun *b = req->baselines[t];
                ModelUnit *mu = model_get(b->model, unit);

                for (size_t i = 0; i < b->findings.n; i++) {
                        const Finding *f = &b->findings.items[i];
                        if (!f->suppressed && fix_check_is_race(f->check) && streq_ptr(f->unit, unit) &&
                            add_finding(res, f, req->targets[t].version, req->targets[t].name) < 0)
                                return -ENOMEM;
                }
                for (size_t i = 0; i < b->n_units; i++)
                        if (b->units[i]->unit->from_extra_dir &&
                            strv_extend(&s.install, b->units[i]->unit->id) < 0)
                                return -ENOMEM;
                if (fix_cycle_signatures(b, &s.baseline_cycles[t]) < 0)
                        return -ENOMEM;
                if (mu && mu->loaded) {
                        if (collect_removable(&s, b, mu) < 0)
                                return -ENOMEM;
                        if (!s.sandbox)
                                find_sandbox(&s, mu);
                }
        }
        if (res->n_findings == 0) {
                *ret = TAKE_PTR(res);
                return 0;
        }
        /* an empty list keeps lint_run() from counting every unit of an extra directory as enabled */
        if (!s.install && strv_extend(&s.install, "") < 0)
                return -ENOMEM;
        r = prepare(&s, dropin, fragment, dropin_path);
        if (r < 0)
                return r;

        r = groups_of(&s, &groups, &n_groups, &sandbox);
        if (r >= 0)
                r = fix_candidates_product(res, groups, n_groups, dropin);
        /* removing the sandbox is a repair of its own, never mixed with orderings */
        if (r >= 0 && sandbox && s.sandbox) {
                FixStep st = { .kind = FIX_DROP_SANDBOX,
                               .section = s.sandbox->section,
                               .key = s.sandbox->key,
                               .value = s.sandbox->value,
                               .line = s.sandbox->line };
                const FixStep *one[] = { &st };
                r = fix_candidate_add(res, one, 1, dropin);
        }
        /* a cycle through the unit's default dependencies: without them, and with what it then needs */
        if (r >= 0)
                r = no_default_deps_candidate(&s, dropin);
        for (size_t i = 0; i < n_groups; i++)
                fix_group_done(&groups[i]);
        free(groups);
        if (r < 0)
                return r;

        /* first round; then a repair that only failed by closing a cycle through an ordering written in the
         * file is tried again without that ordering */
        n_first = res->n_candidates;
        for (size_t i = 0; i < res->n_candidates; i++) {
                _cleanup_(freep) const Removable **words = NULL;
                size_t n_words = 0;

                r = fix_judge(&s, &res->candidates[i], &words, &n_words);
                if (r < 0)
                        return r;
                if (i >= n_first || !res->candidates[i].new_cycle || res->candidates[i].sandbox)
                        continue;
                for (size_t w = 0; w < n_words; w++) {
                        FixCandidate *c = &res->candidates[i];
                        _cleanup_(freep) const FixStep **steps = calloc(c->n_steps + 2, sizeof(FixStep *));
                        FixStep drop = { .kind = FIX_DROP_ORDERING,
                                         .section = (char *) "Unit",
                                         .key = words[w]->key,
                                         .value = words[w]->word,
                                         .line = words[w]->line };
                        bool own = false;

                        if (!steps)
                                return -ENOMEM;
                        for (size_t k = 0; k < c->n_steps; k++) {
                                steps[k] = &c->steps[k];
                                /* never drop what the candidate adds */
                                own = own || (streq(c->steps[k].key, drop.key) &&
                                              streq(c->steps[k].value, drop.value));
                        }
                        steps[c->n_steps] = &drop;
                        if (!own && fix_candidate_add(res, steps, c->n_steps + 1, dropin) < 0)
                                return -ENOMEM;
                }
        }

        qsort_safe(res->candidates, res->n_candidates, sizeof(FixCandidate), fix_candidate_cmp);
        res->chosen = res->n_candidates > 0 && res->candidates[0].evaluated && res->candidates[0].closes &&
                      !res->candidates[0].new_cycle;
        if (res->chosen) {
                for (size_t i = 1; i < res->n_candidates; i++)
                        if (fix_explain_rejection(&res->candidates[0], &res->candidates[i], unit) < 0)
                                return -ENOMEM;
        } else {
                size_t unwritable = 0, open = 0, cycles = 0;
                for (size_t i = 0; i < res->n_candidates; i++) {
                        const FixCandidate *c = &res->candidates[i];
                        unwritable += !c->evaluated;
                        open += c->evaluated && !c->closes;
                        cycles += c->evaluated && c->closes && c->new_cycle;
                }
                if (res->n_candidates == 0)
                        res->none_reason =
                                strdup("no candidate repair applies: the ordering that closes the cycle "
                                       "is not written in the unit's own file");
                else if (asprintf_safe(
                                 &res->none_reason,
                                 "no candidate closes the race%s without a new ordering cycle: of %zu "
                                 "candidate%s, %zu leave%s a race open, %zu create%s a cycle, %zu cannot be "
                                 "written%s",
                                 req->n_targets > 1 ? " on every version" : "", res->n_candidates,
                                 res->n_candidates == 1 ? "" : "s", open, open == 1 ? "s" : "", cycles,
                                 cycles == 1 ? "s" : "", unwritable,
                                 dropin && unwritable > 0 ? " as a drop-in (try without --drop-in)" : "") <
                         0)
                        res->none_reason = NULL;
                if (!res->none_reason)
                        return -ENOMEM;
        }
        *ret = TAKE_PTR(res);
        return 0;
}
