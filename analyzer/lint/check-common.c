/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "lint/check-common.h"
#include "lint/exec-writes.h"

bool check_edge_of_sandbox(const LintContext *c, uint32_t edge) {
        const Graph *g = model_graph(c->model);
        const Origin *o = graph_origin(g, graph_edge(g, edge)->origin);

        if (o->kind == ORIGIN_RULE)
                return o->class && streq(o->class, "exec");
        if (o->kind != ORIGIN_MOUNTS_FOR || !o->rule)
                return false; /* a RequiresMountsFor= of the file */
        for (size_t i = 0; i < rules_dep_count(c->rules); i++) {
                const DepRule *d = rules_dep_get(c->rules, i);
                if (streq(d->id, o->rule))
                        return d->class && streq(d->class, "exec");
        }
        return false;
}

bool check_cycle_of_sandbox(const LintContext *c, const ModelUnit *u, const Cycle *cy) {
        const Graph *g = model_graph(c->model);

        for (size_t i = 0; i < cy->n; i++) {
                const GraphEdge *e = graph_edge(g, cy->edges[i]);
                if (e->type == DEP_AFTER && e->from == u->node && !graph_origin(g, e->origin)->base &&
                    check_edge_of_sandbox(c, cy->edges[i]))
                        return true;
        }
        return false;
}

char *check_cycle_breaking(const LintContext *c, size_t n, const uint8_t *victim, size_t n_victims, bool unfixable) {
        const Graph *g = model_graph(c->model);
        const char *them = n == 1 ? "it" : "them";
        char *r = NULL;

        if (n_victims == 0)
                (void) asprintf_safe(&r, "systemd cannot break %s: every job of %s matters to %s, the transaction "
                                     "fails", them, them, c->transaction_anchor);
        else if (n_victims == 1) {
                const char *name = NULL;
                for (uint32_t node = 0; !name && node < graph_node_count(g); node++)
                        if (victim[node])
                                name = graph_node_name(g, node);
                (void) asprintf_safe(&r, "systemd breaks %s by deleting the job of %s, the only one it may delete%s",
                                     them, strna(name),
                                     unfixable ? " (one cycle has none it may delete: the transaction fails)" : "");
        } else
                (void) asprintf_safe(&r, "systemd breaks %s by deleting one of %zu jobs, a different one from boot "
                                     "to boot%s", them, n_victims,
                                     unfixable ? " (one cycle has none it may delete: the transaction fails)" : "");
        return r;
}

int check_evidence_cycles(const LintContext *c, Finding *f, const Cycle * const *cycles, size_t n, size_t max,
                          const uint8_t *victim) {
        const Graph *g = model_graph(c->model);
        size_t k = 0, max_len = 0;
        bool any = false;
        int r;

        for (size_t i = 0; i < n; i++)
                max_len = MAX(max_len, cycles[i]->n);
        /* the shortest cycles say the most; list a few, count the rest (the victims come from all of them) */
        for (size_t len = 1; k < max && len <= max_len; len++)
                for (size_t i = 0; i < n && k < max; i++) {
                        const Cycle *cy = cycles[i];
                        if (cy->n != len)
                                continue;
                        if (finding_add_evidence(f, "cycle %zu (%zu jobs; each line is ordered after the next):", ++k,
                                                 cy->n) < 0)
                                return -ENOMEM;
                        r = lint_evidence_chain(c, f, "  ", cy->edges, cy->n);
                        if (r < 0)
                                return r;
                }
        if (n > k && finding_add_evidence(f, "(%zu longer cycle%s through the same jobs not listed)", n - k,
                                          n - k == 1 ? "" : "s") < 0)
                return -ENOMEM;
        for (uint32_t node = 0; node < graph_node_count(g); node++) {
                const char *name;
                if (!victim[node])
                        continue;
                if (!any && finding_add_evidence(f, "jobs systemd may delete (they do not matter to %s):",
                                                 c->transaction_anchor) < 0)
                        return -ENOMEM;
                any = true;
                name = graph_node_name(g, node);
                if (finding_add_evidence(f, "  %s: %s", name, lint_job_loss(c, name)) < 0)
                        return -ENOMEM;
        }
        if (c->cycles_truncated && finding_add_evidence(f, "(more cycles exist than were listed)") < 0)
                return -ENOMEM;
        return 0;
}

int check_evidence_after_edges(const LintContext *c, Finding *f, const ModelUnit *u) {
        const Graph *g = model_graph(c->model);
        bool any = false;

        for (int dir = 0; dir < 2; dir++) {
                EdgeSet e = dir == 0 ? graph_out(g, u->node) : graph_in(g, u->node);
                for (size_t i = 0; i < e.n; i++) {
                        uint32_t id = edge_set_get(&e, i);
                        const GraphEdge *ed = graph_edge(g, id);
                        _cleanup_(freep) char *d = NULL;

                        if (ed->type != (dir == 0 ? DEP_AFTER : DEP_BEFORE))
                                continue;
                        d = lint_describe_edge(c, id);
                        if (!d || finding_add_evidence(f, "  has: %s", d) < 0)
                                return -ENOMEM;
                        any = true;
                }
        }
        if (!any && finding_add_evidence(f, "  has: no ordering after any unit") < 0)
                return -ENOMEM;
        return 0;
}

int check_evidence_tmpfiles(const LintContext *c, Finding *f, const char *path) {
        const TmpfilesEntry *e = c->tmpfiles ? tmpfiles_find_creator(c->tmpfiles, path) : NULL;

        if (!e)
                return 0;
        return finding_add_evidence(f, "created at boot by systemd-tmpfiles-setup.service (%s:%u: %s %s)", e->file,
                                    e->line, e->type, e->path) < 0 ? -ENOMEM : 0;
}

int check_root_writable(const LintContext *c, ModelUnit *u, FindingList *out, const char *id, char **paths,
                        const Setting *why, const char *consequence) {
        _cleanup_(freep) char *joined = NULL;
        const char *file = why ? u->unit->sources[why->source].path : u->unit->fragment_path;
        ModelUnit *rm = model_get(c->model, "systemd-remount-fs.service");
        const char *dd = lint_value(u, "Unit", "DefaultDependencies", NULL);
        Finding *f;
        size_t len = 0;
        int r;

        r = lint_ordered_after(c, u, "systemd-remount-fs.service", NULL, NULL);
        if (r != 0)
                return r < 0 ? r : 0;
        if (!rm || !rm->loaded) {
                (void) diag_add(c->diags, DIAG_NOTICE, file, why ? why->line : 0,
                                "%s: cannot judge %s: systemd-remount-fs.service is unknown for systemd %u",
                                u->unit->id, id, c->version);
                return 0;
        }
        STRV_FOREACH(p, paths)
                len += strlen(*p) + 2;
        joined = calloc(len + 1, 1);
        if (!joined)
                return -ENOMEM;
        STRV_FOREACH(p, paths) {
                if (p != paths)
                        strcat(joined, ", ");
                strcat(joined, *p);
        }

        f = lint_finding(c, out, id, u, file, why ? why->line : 0,
                         "%s=%s needs %s writable, but for systemd %u nothing orders %s after "
                         "systemd-remount-fs.service",
                         why ? why->key : "?", why ? why->value : "?", joined, c->version, u->unit->id);
        if (!f)
                return -ENOMEM;
        if (finding_add_evidence(f, "needs writable: %s (%s=%s at %s:%u)", joined, why ? why->key : "?",
                                 why ? why->value : "?", strna(file), why ? why->line : 0) < 0)
                return -ENOMEM;
        STRV_FOREACH(p, paths)
                if ((r = check_evidence_tmpfiles(c, f, *p)) < 0)
                        return r;
        if (finding_add_evidence(f, "on the root file system (-.mount): / is read-only until "
                                    "systemd-remount-fs.service has run; -.mount itself is active from the start") <
                    0 ||
            (dd && lint_bool(dd) == 0 &&
             finding_add_evidence(f, "DefaultDependencies=no: not ordered after sysinit.target, which would "
                                     "order it after local-fs.target") < 0) ||
            finding_add_evidence(f, "ordering of %s:", u->unit->id) < 0)
                return -ENOMEM;
        r = check_evidence_after_edges(c, f, u);
        if (r < 0)
                return r;
        if (finding_add_evidence(f, "missing: %s After=systemd-remount-fs.service (directly, or through "
                                    "local-fs.target or systemd-tmpfiles-setup.service)",
                                 u->unit->id) < 0 ||
            finding_add_evidence(f, "consequence: %s", consequence) < 0)
                return -ENOMEM;
        f->fix = strdup("[Unit]\nAfter=systemd-remount-fs.service");
        return f->fix ? 0 : -ENOMEM;
}

int check_root_writes(const LintContext *c, ModelUnit *u, FindingList *out, const char *id, const char *intro) {
        _cleanup_(exec_write_list_done) ExecWriteList scratch = {};
        const ExecWriteList *l;
        _cleanup_(strv_freep) char **on_root = NULL;
        _cleanup_(freep) char *consequence = NULL;
        const ExecWriteFailure *fails = NULL;
        const ExecWriteAt *existing = NULL;
        const Setting *why = NULL;
        int r;

        r = lint_unit_writes(c, u, &scratch, &l);
        if (r < 0)
                return r;
        for (size_t i = 0; i < l->n; i++) {
                const ExecWriteAt *w = &l->items[i];
                _cleanup_(exec_write_ready_done) ExecWriteReady rd = {};

                if (!exec_write_judged_by(w->write, id))
                        continue;
                r = lint_exec_write_ready(c, w, &rd);
                if (r < 0)
                        return r;
                /* only what needs the root file system writable: not /run, not a mount of its own */
                if (!rd.remount)
                        continue;
                if (!strv_contains(on_root, w->under) && strv_extend(&on_root, w->under) < 0)
                        return -ENOMEM;
                why = why ?: w->setting;
                /* mkdir() of what the tree shows is there writes nothing (EEXIST): the failure is another
                 * write's of the same path (235-237's chmod of it), or the program's */
                if (w->write->op == EXEC_WRITE_MKDIR && c->root && root_entry_type(c->root, w->path) >= 0)
                        existing = existing ?: w;
                else
                        fails = fails ?: exec_write_failure(w->write, c->version);
        }
        if (!on_root)
                return 0;
        if (fails ? asprintf_safe(&consequence, "%s: for systemd %u, %s [%s]", intro, c->version,
                                  fails->text, fails->source) < 0
            : existing
                    ? asprintf_safe(&consequence,
                                    "%s: for systemd %u, %s is there already, so nothing is "
                                    "written to it before exec: the program fails on its first write there",
                                    intro, c->version, existing->path) < 0
                    : !(consequence = strdup(intro)))
                return -ENOMEM;
        return check_root_writable(c, u, out, id, on_root, why, consequence);
}
