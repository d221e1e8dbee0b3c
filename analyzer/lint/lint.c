/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdarg.h>

#include "basic/unit-name.h"
#include "lint/lint.h"
#include "load/unit-verify.h"

Finding *lint_finding(const LintContext *c, FindingList *out, const char *id, const ModelUnit *u, const char *file,
                      unsigned line, const char *fmt, ...) {
        const CheckInfo *info = rules_check_lookup(c->rules, id);
        _cleanup_(freep) char *m = NULL;
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = vasprintf(&m, fmt, ap);
        va_end(ap);
        if (r < 0)
                return NULL;
        return finding_add(out, id, info ? info->severity : SEVERITY_ERROR, u ? u->unit->id : NULL, file, line, "%s",
                           m);
}

char *lint_describe_edge(const LintContext *c, uint32_t edge) {
        const Graph *g = model_graph(c->model);
        const GraphEdge *e = graph_edge(g, edge);
        const Origin *o = graph_origin(g, e->origin);
        _cleanup_(freep) char *where = NULL;
        char *r = NULL;

        switch (o->kind) {
        case ORIGIN_FILE:
        case ORIGIN_DROPIN:
                if (o->line > 0)
                        (void) asprintf_safe(&where, "%s:%u", strna(o->file), o->line);
                else
                        where = strdup(strna(o->file));
                break;
        case ORIGIN_LINK:
                (void) asprintf_safe(&where, "link %s", strna(o->file));
                break;
        case ORIGIN_RULE:
                (void) asprintf_safe(&where, "%s dependency: rule %s%s%s, systemd %u%s", strna(o->class), strna(o->rule),
                                     o->detail ? " for " : "", strempty(o->detail), o->version,
                                     o->base ? ", base model" : "");
                break;
        case ORIGIN_MOUNTS_FOR:
                (void) asprintf_safe(&where, "mount of %s%s%s", strna(o->detail), o->rule ? " via rule " : "",
                                     strempty(o->rule));
                break;
        default:
                where = strdup(strna(origin_kind_to_string(o->kind)));
                break;
        }
        if (!where)
                return NULL;
        if (o->base && o->kind != ORIGIN_RULE) {
                char *t = strjoin(where, ", base model");
                free(where);
                where = t;
                if (!where)
                        return NULL;
        }
        /* an edge of a profile's unit names the package it comes from */
        const ModelUnit *fu = model_unit_of_node(c->model, e->from);
        if (fu && fu->profile_package && o->kind != ORIGIN_LINK) {
                char *t = strjoin(where, ", ", fu->profile_package);
                free(where);
                where = t;
                if (!where)
                        return NULL;
        }
        (void) asprintf_safe(&r, "%s %s=%s (%s)", graph_node_name(g, e->from), dep_type_to_string(e->type),
                             graph_node_name(g, e->to), where);
        return r;
}

int lint_evidence_chain(const LintContext *c, Finding *f, const char *prefix, const uint32_t *chain, size_t n) {
        for (size_t i = 0; i < n; i++) {
                _cleanup_(freep) char *d = lint_describe_edge(c, chain[i]);
                if (!d || finding_add_evidence(f, "%s%s", prefix, d) < 0)
                        return -ENOMEM;
        }
        return 0;
}

int lint_ordered_after(const LintContext *c, const ModelUnit *u, const char *name, uint32_t **ret_chain,
                       size_t *ret_n) {
        const Graph *g = model_graph(c->model);
        uint32_t to;

        if (ret_chain)
                *ret_chain = NULL;
        if (ret_n)
                *ret_n = 0;
        if (graph_find_node(g, name, &to) < 0)
                return 0;
        return graph_ordered_after(g, u->node, to, ret_chain, ret_n);
}

char *lint_mount_for_path(const LintContext *c, const char *path) {
        _cleanup_(freep) char *p = path_simplify_dup(path);

        if (!p)
                return NULL;
        /* from the path up to "/": the first prefix with a loaded mount unit holds it */
        for (;;) {
                _cleanup_(freep) char *name = NULL;
                ModelUnit *m;

                if (streq(p, "/"))
                        return strdup("-.mount");
                if (unit_name_from_path(p, ".mount", &name) >= 0) {
                        m = model_get(c->model, name);
                        if (m && m->loaded)
                                return TAKE_PTR(name);
                }
                (void) path_cut_last(p);
        }
}

const char *lint_value(const ModelUnit *u, const char *section, const char *key, const Setting **ret_setting) {
        for (size_t i = u->unit->n_settings; i > 0; i--) {
                const Setting *s = &u->unit->settings[i - 1];
                if (u->st && u->st[i - 1] != SETTING_EFFECTIVE)
                        continue;
                if (streq(s->key, key) && streq(s->section, section)) {
                        if (ret_setting)
                                *ret_setting = s;
                        return s->value;
                }
        }
        if (ret_setting)
                *ret_setting = NULL;
        return NULL;
}

const char *lint_job_loss(const LintContext *c, const char *name) {
        const char *loss = rules_check_loss(c->rules, "ordering-cycle", name);
        return loss ?: "not started in that boot, nor what needs it to have started";
}

int lint_bool(const char *s) {
        return parse_boolean(s);
}

static const DiagList *index_diags; /* qsort has no context argument: the list being indexed */

static int cmp_diag_file(const void *x, const void *y) {
        size_t a = *(const size_t *) x, b = *(const size_t *) y;
        int r = strcmp(index_diags->items[a].file, index_diags->items[b].file);
        return r != 0 ? r : (a > b) - (a < b);
}

int lint_index_diags(LintContext *c, size_t **ret_index) {
        size_t *index, n = 0;

        *ret_index = NULL;
        c->diags_by_file = NULL;
        c->n_diags_by_file = c->n_diags_indexed = 0;
        if (!c->diags)
                return 0;
        index = malloc(sizeof(size_t) * (c->diags->n + 1));
        if (!index)
                return -ENOMEM;
        for (size_t i = 0; i < c->diags->n; i++)
                if (c->diags->items[i].file)
                        index[n++] = i;
        index_diags = c->diags;
        qsort_safe(index, n, sizeof(size_t), cmp_diag_file);
        index_diags = NULL;
        c->diags_by_file = index;
        c->n_diags_by_file = n;
        c->n_diags_indexed = c->diags->n;
        *ret_index = index;
        return 0;
}

static int push_index(size_t **a, size_t *allocated, size_t *n, size_t i) {
        if (GREEDY_REALLOC(*a, *allocated, *n + 1) < 0)
                return -ENOMEM;
        (*a)[(*n)++] = i;
        return 0;
}

int lint_diags_of_file(const LintContext *c, const char *file, size_t **ret) {
        _cleanup_(freep) size_t *out = NULL;
        size_t n = 0, allocated = 0, lo = 0, hi = c->n_diags_by_file, start = 0;

        *ret = NULL;
        if (!c->diags)
                return 0;
        if (c->diags_by_file) {
                /* the first indexed diagnostic of file, then the run of them */
                while (lo < hi) {
                        size_t mid = (lo + hi) / 2;
                        if (strcmp(c->diags->items[c->diags_by_file[mid]].file, file) < 0)
                                lo = mid + 1;
                        else
                                hi = mid;
                }
                for (; lo < c->n_diags_by_file && streq(c->diags->items[c->diags_by_file[lo]].file, file); lo++)
                        if (push_index(&out, &allocated, &n, c->diags_by_file[lo]) < 0)
                                return -ENOMEM;
                start = c->n_diags_indexed;
        }
        /* what was added after the index was made, or everything without one */
        for (size_t i = start; i < c->diags->n; i++)
                if (c->diags->items[i].file && streq(c->diags->items[i].file, file) &&
                    push_index(&out, &allocated, &n, i) < 0)
                        return -ENOMEM;
        *ret = TAKE_PTR(out);
        return (int) MIN(n, (size_t) INT32_MAX);
}
