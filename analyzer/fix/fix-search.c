/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "basic/unified-diff.h"
#include "fix/fix-edit.h"
#include "fix/fix-search.h"
#include "lint/check-common.h"

#define FIX_CANDIDATES_MAX 200

static const char * const race_checks[] = {
        "private-tmp-before-remount",
        "writable-path-before-remount",
        "path-on-separate-mount",
        "sandbox-ordered-too-early",
        "ordering-cycle",
        NULL,
};

/* Settings that sandbox a unit and, by doing so, give it ordering dependencies of their own (knowledge/
 * implicit-deps.md §2-3): removing one is the repair of last resort. */
static const char * const sandbox_settings[] = { "PrivateTmp", NULL };

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

static void step_done(FixStep *s) {
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
                step_done(&c->steps[i]);
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

static int step_copy(const FixStep *s, FixStep *d) {
        *d = (FixStep) {
                .kind = s->kind,
                .line = s->line,
                .section = strdup(s->section),
                .key = strdup(s->key),
                .value = strdup(s->value),
        };
        if (!d->section || !d->key || !d->value) {
                step_done(d);
                return -ENOMEM;
        }
        return 0;
}

static bool step_eq(const FixStep *a, const FixStep *b) {
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
 * job of the transaction, as systemd orders jobs. Returns the number marked or -ENOMEM. */
static int closure(const LintRun *run, uint32_t start, bool after, uint8_t **ret) {
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

static bool marked(const LintRun *run, const uint8_t *set, const char *name) {
        uint32_t node;
        return set && graph_find_node(model_graph(run->model), name, &node) >= 0 && set[node];
}

/* ---- cycles */

/* "a -> b -> c" for a cycle, rotated to start at first (when on it) or at its smallest name. */
static char *cycle_string(const LintRun *run, const Cycle *cy, uint32_t first) {
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

static int cycle_signatures(const LintRun *run, char ***ret) {
        _cleanup_(strv_freep) char **l = NULL;

        for (size_t i = 0; i < run->n_cycles; i++) {
                char *s = cycle_string(run, &run->cycles[i], UINT32_MAX);
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

typedef struct Removable {
        char *key, *word;
        unsigned line;
} Removable;

typedef struct Search {
        const FixRequest *req;
        const Rules *rules;
        const char *unit;
        FixResult *res;
        char **install; /* units the baselines count as enabled */
        char ***baseline_cycles; /* per target */
        Removable *removable; /* After=/Before= words of the unit's own file */
        size_t n_removable;
        const Setting *sandbox; /* a sandboxing setting that can go, or NULL */
        char *sandbox_file;
        char *root_paths;        /* the paths on the root file system that must be writable, joined */
        char *tmpdir;
        DiagList *diags;
} Search;

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
static int cycle_words(const Search *s, const LintRun *run, char **old_cycles, const Removable ***ret,
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
                        _cleanup_(freep) char *sig = cycle_string(run, cy, UINT32_MAX);
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

/* ---- candidates */

typedef struct Group {
        FixStep *options;
        size_t n;
} Group;

static void group_done(Group *g) {
        for (size_t i = 0; i < g->n; i++)
                step_done(&g->options[i]);
        free(g->options);
}

static int group_add(Group *g, FixKind kind, const char *section, const char *key, const char *value,
                     unsigned line) {
        FixStep *n, st = { .kind = kind,
                           .section = (char *) section,
                           .key = (char *) key,
                           .value = (char *) value,
                           .line = line };

        for (size_t i = 0; i < g->n; i++)
                if (step_eq(&g->options[i], &st))
                        return 0;
        n = realloc(g->options, sizeof(FixStep) * (g->n + 1));
        if (!n)
                return -ENOMEM;
        g->options = n;
        return step_copy(&st, &g->options[g->n++]) < 0 ? -ENOMEM : 0;
}

static int group_add_orderings(Group *g, const char *paths, const char *mount) {
        if (group_add(g, FIX_REQUIRES_MOUNTS_FOR, "Unit", "RequiresMountsFor", paths, 0) < 0 ||
            (mount && !streq(mount, "-.mount") &&
             group_add(g, FIX_AFTER_MOUNT, "Unit", "After", mount, 0) < 0) ||
            group_add(g, FIX_AFTER_REMOUNT, "Unit", "After", "systemd-remount-fs.service", 0) < 0 ||
            group_add(g, FIX_AFTER_TMPFILES, "Unit", "After", "systemd-tmpfiles-setup.service", 0) < 0 ||
            group_add(g, FIX_AFTER_LOCAL_FS, "Unit", "After", "local-fs.target", 0) < 0)
                return -ENOMEM;
        return 0;
}

static int step_cmp(const void *a, const void *b) {
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
static int candidate_add(FixResult *res, const FixStep *const *steps, size_t n, bool dropin) {
        _cleanup_(freep) FixStep *sorted = calloc(n + 1, sizeof(FixStep));
        FixCandidate *c, *nc;
        size_t k = 0;

        if (!sorted)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++) {
                bool dup = false;
                for (size_t j = 0; j < k; j++)
                        dup = dup || step_eq(&sorted[j], steps[i]);
                if (!dup)
                        sorted[k++] = *steps[i];
        }
        qsort_safe(sorted, k, sizeof(FixStep), step_cmp);
        for (size_t i = 0; i < res->n_candidates; i++) {
                bool same = res->candidates[i].n_steps == k;
                for (size_t j = 0; same && j < k; j++)
                        same = step_eq(&res->candidates[i].steps[j], &sorted[j]);
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
                if (step_copy(&sorted[i], &c->steps[i]) < 0)
                        return -ENOMEM;
                c->n_steps++;
                c->sandbox = c->sandbox || sorted[i].kind == FIX_DROP_SANDBOX;
        }
        c->lines = (unsigned) k;
        return label_of(c->steps, k, dropin, &c->label);
}

/* Every combination of one option per group. */
static int candidates_product(FixResult *res, Group *groups, size_t n_groups, bool dropin) {
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
                        if (candidate_add(res, one, 1, dropin) < 0)
                                return -ENOMEM;
                }
        for (;;) {
                size_t i;
                for (i = 0; i < n; i++)
                        steps[i] = &groups[i].options[pick[i]];
                if (candidate_add(res, steps, n, dropin) < 0)
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

static int candidate_text(const Search *s, FixCandidate *c) {
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
        if (closure(b, bu->node, true, &wb) < 0 || closure(cr, cu->node, true, &wc) < 0 ||
            closure(b, bu->node, false, &ab) < 0 || closure(cr, cu->node, false, &ac) < 0)
                return -ENOMEM;
        for (uint32_t x = 0; x < graph_node_count(cg); x++) {
                const char *name = graph_node_name(cg, x);
                if (x == cu->node)
                        continue;
                if (wc[x] && !marked(b, wb, name)) {
                        if (strv_extend(&new_waits, name) < 0)
                                return -ENOMEM;
                }
        }
        /* orderings dropped: what the unit no longer waits for, and who no longer waits for it */
        for (uint32_t x = 0; x < graph_node_count(model_graph(b->model)); x++) {
                const char *name = graph_node_name(model_graph(b->model), x);
                if (x == bu->node)
                        continue;
                c->n_lost += wb[x] && !marked(cr, wc, name);
                c->n_lost += ab[x] && !marked(cr, ac, name);
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
                if (graph_find_node(model_graph(b->model), *z, &zb) >= 0 && closure(b, zb, false, &az) < 0)
                        return -ENOMEM;
                for (uint32_t x = 0; x < graph_node_count(cg); x++) {
                        const char *name = graph_node_name(cg, x);
                        if (x == cu->node || !ac[x] || streq(name, *z) || marked(b, az, name))
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
                .distro = tg->distro,
                .generator_dir = tg->generator_dir,
                .anchor = req->anchor,
                .names = req->names,
                .check_only = check_only,
                .install_names = s->install,
                .suppressions = req->suppressions,
        };
        r = lint_run(&o, s->rules, &run, &diags);
        if (r < 0) {
                for (size_t i = 0; i < diags.n; i++)
                        if (diags.items[i].level == DIAG_ERROR)
                                (void) diag_add(s->diags, DIAG_ERROR, diags.items[i].file,
                                                diags.items[i].line, "%s", diags.items[i].message);
                return r;
        }
        cu = model_get(run->model, s->unit);
        if (!cu || !cu->loaded)
                return asprintf_safe(fail, "%s does not load with it for %s", s->unit,
                                     fix_target_label(tg, buf)) < 0
                               ? -ENOMEM
                               : 0;

        /* (a) the race is closed */
        for (size_t i = 0; i < run->findings.n; i++) {
                const Finding *f = &run->findings.items[i];
                if (f->suppressed || !fix_check_is_race(f->check) || !streq_ptr(f->unit, s->unit))
                        continue;
                c->closes = false;
                if (!*fail && asprintf_safe(fail, "does not close the race for %s: %s still fires",
                                            fix_target_label(tg, buf), f->check) < 0)
                        return -ENOMEM;
        }
        /* (b) no new ordering cycle */
        {
                _cleanup_(strv_freep) char **sigs = NULL;
                _cleanup_(freep) char *desc = NULL;
                if (cycle_signatures(run, &sigs) < 0)
                        return -ENOMEM;
                for (size_t i = 0; i < run->n_cycles && !desc; i++) {
                        _cleanup_(freep) char *sig = cycle_string(run, &run->cycles[i], UINT32_MAX);
                        if (!sig)
                                return -ENOMEM;
                        if (strv_contains(s->baseline_cycles[t], sig))
                                continue;
                        c->new_cycle = true;
                        desc = cycle_string(run, &run->cycles[i], cu->node);
                        if (!desc)
                                return -ENOMEM;
                }
                if (!desc && (!run->transaction || !transaction_has_job(run->transaction, cu->node))) {
                        /* not in the boot transaction: a cycle of the graph through the unit counts */
                        _cleanup_(freep) uint8_t *wc = NULL, *wb = NULL;
                        const ModelUnit *bu = model_get(req->baselines[t]->model, s->unit);
                        if (closure(run, cu->node, true, &wc) < 0 ||
                            (bu && closure(req->baselines[t], bu->node, true, &wb) < 0))
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
                        r = cycle_words(s, run, s->baseline_cycles[t], words, n_words);
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

static int judge(Search *s, FixCandidate *c, const Removable ***words, size_t *n_words) {
        _cleanup_(freep) char *fail = NULL, *path = NULL, *sub = NULL;
        int r;

        r = candidate_text(s, c);
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
                          "removes the sandboxing: without %s= the service shares the host's /tmp and "
                          "/var/tmp with everyone, and what it writes there early still needs / writable",
                          s->sandbox ? s->sandbox->key : "PrivateTmp") < 0)
                return -ENOMEM;
        return 0;
}

/* ---- ranking */

static int candidate_cmp(const void *a, const void *b) {
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
                int r = step_cmp(&x->steps[i], &y->steps[i]);
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

static int explain_rejection(const FixCandidate *chosen, FixCandidate *c, const char *unit) {
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
                _cleanup_(lint_paths_done) LintPaths paths = {};
                LintContext lc = { .model = b->model,
                                   .rules = s->rules,
                                   .version = req->targets[t].version };
                bool pt = fired(b, s->unit, "private-tmp-before-remount"),
                     wr = fired(b, s->unit, "writable-path-before-remount"),
                     sep = fired(b, s->unit, "path-on-separate-mount"),
                     cy = fired(b, s->unit, "ordering-cycle") ||
                          fired(b, s->unit, "sandbox-ordered-too-early");

                if (!mu)
                        continue;
                private_tmp = private_tmp || pt;
                cycle = cycle || cy;
                r = lint_unit_paths(mu, s->rules, model_features(b->model), &paths);
                if (r < 0)
                        return r;
                for (size_t i = 0; i < paths.n; i++) {
                        const LintPath *p = &paths.items[i];
                        _cleanup_(freep) char *mount = lint_mount_for_path(&lc, p->path);
                        bool is_pt = p->source == LINT_PATH_PRIVATE_TMP;

                        if (!mount)
                                return -ENOMEM;
                        if (path_startswith_dir(p->path, "/run"))
                                continue;
                        if (streq(mount, "-.mount")) {
                                if (((pt && is_pt) ||
                                     (wr && !is_pt && p->source != LINT_PATH_WORKING_DIR)) &&
                                    strv_extend_unique(&root_paths, p->path) < 0)
                                        return -ENOMEM;
                                continue;
                        }
                        if (!sep || strv_contains(mount_paths, p->path))
                                continue;
                        r = lint_ordered_after(&lc, mu, mount, NULL, NULL);
                        if (r < 0)
                                return r;
                        if (r == 0 &&
                            (strv_extend(&mount_paths, p->path) < 0 || strv_extend(&mounts, mount) < 0))
                                return -ENOMEM;
                }
                if (cy && cycle_words(s, b, NULL, &words, &n_words) < 0)
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
                if (group_add_orderings(&g[n], joined, NULL) < 0)
                        return -ENOMEM;
                s->root_paths = TAKE_PTR(joined);
                n++;
        }
        for (size_t i = 0; mount_paths && mount_paths[i]; i++) {
                if (group_add_orderings(&g[n], mount_paths[i], mounts[i]) < 0)
                        return -ENOMEM;
                n++;
        }
        if (cycle) {
                for (size_t i = 0; i < n_words; i++)
                        if (group_add(&g[n], FIX_DROP_ORDERING, "Unit", words[i]->key, words[i]->word,
                                      words[i]->line) < 0)
                                return -ENOMEM;
                n++;
        }
        *ret_n = n;
        *ret_sandbox = private_tmp || cycle;
        return 0;
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
                if (cycle_signatures(b, &s.baseline_cycles[t]) < 0)
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
                r = candidates_product(res, groups, n_groups, dropin);
        /* removing the sandbox is a repair of its own, never mixed with orderings */
        if (r >= 0 && sandbox && s.sandbox) {
                FixStep st = { .kind = FIX_DROP_SANDBOX,
                               .section = s.sandbox->section,
                               .key = s.sandbox->key,
                               .value = s.sandbox->value,
                               .line = s.sandbox->line };
                const FixStep *one[] = { &st };
                r = candidate_add(res, one, 1, dropin);
        }
        for (size_t i = 0; i < n_groups; i++)
                group_done(&groups[i]);
        free(groups);
        if (r < 0)
                return r;

        /* first round; then a repair that only failed by closing a cycle through an ordering written in the
         * file is tried again without that ordering */
        n_first = res->n_candidates;
        for (size_t i = 0; i < res->n_candidates; i++) {
                _cleanup_(freep) const Removable **words = NULL;
                size_t n_words = 0;

                r = judge(&s, &res->candidates[i], &words, &n_words);
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
                        if (!own && candidate_add(res, steps, c->n_steps + 1, dropin) < 0)
                                return -ENOMEM;
                }
        }

        qsort_safe(res->candidates, res->n_candidates, sizeof(FixCandidate), candidate_cmp);
        res->chosen = res->n_candidates > 0 && res->candidates[0].evaluated && res->candidates[0].closes &&
                      !res->candidates[0].new_cycle;
        if (res->chosen) {
                for (size_t i = 1; i < res->n_candidates; i++)
                        if (explain_rejection(&res->candidates[0], &res->candidates[i], unit) < 0)
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
