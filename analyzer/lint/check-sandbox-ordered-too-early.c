/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sandbox-ordered-too-early: an ordering dependency the version adds by itself (PrivateTmp= -> After=
 * systemd-tmpfiles-setup.service, mounts-for, journald socket, ...) points at a unit that is itself ordered after
 * this one: an ordering cycle that only exists because of the implicit dependency. */

#include "lint/check-common.h"

int check_sandbox_ordered_too_early(const LintContext *c, ModelUnit *u, FindingList *out) {
        const Graph *g = model_graph(c->model);
        EdgeSet e = graph_out(g, u->node);

        for (size_t i = 0; i < e.n; i++) {
                uint32_t id = edge_set_get(&e, i);
                const GraphEdge *ed = graph_edge(g, id);
                const Origin *o = graph_origin(g, ed->origin);
                _cleanup_(freep) uint32_t *chain = NULL;
                _cleanup_(freep) char *d = NULL;
                const Setting *s = NULL;
                size_t m = 0;
                Finding *f;
                int r;

                /* edges the version adds by itself (exec settings, mounts-for, slices, ...), not the default
                 * dependencies of DefaultDependencies=yes and not those of the base model's own units */
                if (ed->type != DEP_AFTER || (o->kind != ORIGIN_RULE && o->kind != ORIGIN_MOUNTS_FOR) || o->base)
                        continue;
                if (o->kind == ORIGIN_RULE && o->class && streq(o->class, "default"))
                        continue;
                /* a cycle through units without a start job at boot (-.mount is mounted before PID 1 runs) never
                 * meets in a transaction: judge only chains of jobs when the boot transaction is known */
                if (c->transaction && (!transaction_has_job(c->transaction, u->node) ||
                                       !transaction_has_job(c->transaction, ed->to)))
                        continue;
                r = graph_ordered_after(g, ed->to, u->node, &chain, &m);
                if (r < 0)
                        return r;
                if (r == 0)
                        continue;
                /* and every unit on the way back has a job too */
                if (c->transaction) {
                        bool all_jobs = true;
                        for (size_t k = 0; all_jobs && k < m; k++) {
                                const GraphEdge *x = graph_edge(g, chain[k]);
                                all_jobs = transaction_has_job(c->transaction, x->from) &&
                                           transaction_has_job(c->transaction, x->to);
                        }
                        if (!all_jobs)
                                continue;
                }
                if (o->detail)
                        (void) lint_value(u, "Service", o->detail, &s);
                d = lint_describe_edge(c, id);
                if (!d)
                        return -ENOMEM;
                f = lint_finding(c, out, "sandbox-ordered-too-early", u,
                                 s ? u->unit->sources[s->source].path : u->unit->fragment_path, s ? s->line : 0,
                                 "for systemd %u, %s is ordered after %s by itself, which is already ordered after "
                                 "%s: an ordering cycle",
                                 c->version, u->unit->id, graph_node_name(g, ed->to), u->unit->id);
                if (!f || finding_add_evidence(f, "implicit: %s", d) < 0 ||
                    finding_add_evidence(f, "and back:") < 0)
                        return -ENOMEM;
                r = lint_evidence_chain(c, f, "  ", chain, m);
                if (r < 0)
                        return r;
                if (finding_add_evidence(f, "at boot PID 1 deletes one job of the cycle to break it, and which one "
                                            "changes from boot to boot") < 0)
                        return -ENOMEM;
        }
        return 0;
}
