/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sandbox-ordered-too-early: an ordering dependency the version adds for the unit's sandboxing (PrivateTmp= ->
 * After=systemd-tmpfiles-setup.service, its mounts-for, the journald socket, ...: rules of class exec) points at a
 * unit that is itself ordered after this one: an ordering cycle that only exists because of the implicit
 * dependency. With the boot transaction known, the cycles are its cycles through that edge, which ordering-cycle
 * then leaves to this check (one finding per cause). */

#include "lint/check-common.h"
#include "lint/exec-writes.h"

#define CYCLES_LISTED 10

/* What the unit's writes before exec need (the exec-time write model): one evidence line per write that
 * needs a unit to have run, so that a repair of the cycle keeps the unit after those. */
static int evidence_writes(const LintContext *c, const ModelUnit *u, Finding *f) {
        _cleanup_(exec_write_list_done) ExecWriteList scratch = {};
        const ExecWriteList *l;
        bool any = false;
        int r;

        r = lint_unit_writes(c, u, &scratch, &l);
        if (r < 0)
                return r;
        for (size_t i = 0; i < l->n; i++) {
                _cleanup_(strv_freep) char **needs = NULL;
                _cleanup_(freep) char *why = NULL, *joined = NULL;

                r = lint_exec_write_needs(c, &l->items[i], &needs);
                if (r < 0)
                        return r;
                if (!needs)
                        continue;
                why = lint_exec_write_why(u, &l->items[i]);
                if (!why)
                        return -ENOMEM;
                STRV_FOREACH(n, needs) {
                        char *x = joined ? strjoin(joined, ", ", *n) : strdup(*n);
                        free(joined);
                        if (!(joined = x))
                                return -ENOMEM;
                }
                if ((!any &&
                     finding_add_evidence(f, "what its writes before exec need (rules/exec-writes.xml); "
                                             "an ordering repair keeps these:") < 0) ||
                    finding_add_evidence(f, "  %s (%s): after %s", l->items[i].path, why, joined) < 0)
                        return -ENOMEM;
                any = true;
        }
        return 0;
}

/* The transaction's cycles through edge: their list, victims (a bitmap over the graph's nodes, made only when a
 * cycle goes through the edge: most edges are on none) and the unit's own file line closing the shortest
 * (*ret_edge, UINT32_MAX when none). Returns how many, or -ENOMEM. */
static int cycles_through(const LintContext *c, const ModelUnit *u, uint32_t edge, const Cycle ***ret,
                          uint8_t **ret_victim, size_t *ret_n_victims, bool *ret_unfixable, uint32_t *ret_edge) {
        const Graph *g = model_graph(c->model);
        _cleanup_(freep) const Cycle **list = NULL;
        _cleanup_(freep) uint8_t *victim = NULL;
        size_t n = 0, best = SIZE_MAX;

        *ret_edge = UINT32_MAX;
        for (size_t i = 0; i < c->n_cycles; i++) {
                const Cycle *cy = &c->cycles[i];
                bool through = false;

                for (size_t k = 0; !through && k < cy->n; k++)
                        through = cy->edges[k] == edge;
                if (!through)
                        continue;
                if (!list && !(list = calloc(c->n_cycles + 1, sizeof(const Cycle *))))
                        return -ENOMEM;
                if (!victim && !(victim = calloc(graph_node_count(g) + 1, 1)))
                        return -ENOMEM;
                list[n++] = cy;
                *ret_unfixable = *ret_unfixable || cy->n_victims == 0;
                for (size_t v = 0; v < cy->n_victims; v++)
                        if (!victim[cy->victims[v]]) { /* a flag: a count would wrap at 256 cycles */
                                victim[cy->victims[v]] = 1;
                                (*ret_n_victims)++;
                        }
                for (size_t k = 0; k < cy->n; k++) {
                        const GraphEdge *e = graph_edge(g, cy->edges[k]);
                        const Origin *o = graph_origin(g, e->origin);
                        if (e->from == u->node && (o->kind == ORIGIN_FILE || o->kind == ORIGIN_DROPIN) &&
                            o->line > 0 && cy->n < best) {
                                best = cy->n;
                                *ret_edge = cy->edges[k];
                        }
                }
        }
        *ret = TAKE_PTR(list);
        *ret_victim = TAKE_PTR(victim);
        return (int) n;
}

static int judge_with_transaction(const LintContext *c, ModelUnit *u, uint32_t id, FindingList *out) {
        const Graph *g = model_graph(c->model);
        const GraphEdge *ed = graph_edge(g, id);
        _cleanup_(freep) const Cycle **list = NULL;
        _cleanup_(freep) uint8_t *victim = NULL;
        _cleanup_(freep) char *d = NULL, *breaking = NULL;
        const char *file = u->unit->fragment_path;
        size_t n_victims = 0;
        bool unfixable = false;
        uint32_t closing;
        unsigned line = 0;
        Finding *f;
        int n, r;

        n = cycles_through(c, u, id, &list, &victim, &n_victims, &unfixable, &closing);
        if (n <= 0)
                return n;
        if (closing != UINT32_MAX) {
                const Origin *o = graph_origin(g, graph_edge(g, closing)->origin);
                file = o->file ?: file;
                line = o->line;
        }
        d = lint_describe_edge(c, id);
        breaking = check_cycle_breaking(c, (size_t) n, victim, n_victims, unfixable);
        if (!d || !breaking)
                return -ENOMEM;
        f = lint_finding(c, out, "sandbox-ordered-too-early", u, file, line,
                         "for systemd %u, %s is ordered after %s by itself, which is already ordered after %s: %d "
                         "ordering cycle%s of the boot transaction of %s; %s",
                         c->version, u->unit->id, graph_node_name(g, ed->to), u->unit->id, n, n == 1 ? "" : "s",
                         c->transaction_anchor, breaking);
        if (!f || finding_add_evidence(f, "implicit: %s", d) < 0)
                return -ENOMEM;
        r = evidence_writes(c, u, f);
        if (r < 0)
                return r;
        return check_evidence_cycles(c, f, list, (size_t) n, CYCLES_LISTED, victim);
}

/* Without the boot transaction (its anchor could not be loaded): any chain of ordering back to the unit. */
static int judge_by_graph(const LintContext *c, ModelUnit *u, uint32_t id, FindingList *out) {
        const Graph *g = model_graph(c->model);
        const GraphEdge *ed = graph_edge(g, id);
        _cleanup_(freep) uint32_t *chain = NULL;
        _cleanup_(freep) char *d = NULL;
        const char *file = u->unit->fragment_path;
        unsigned line = 0;
        size_t m = 0;
        Finding *f;
        int r;

        r = graph_ordered_after(g, ed->to, u->node, &chain, &m);
        if (r <= 0)
                return r;
        for (size_t k = 0; k < m; k++) {
                const GraphEdge *x = graph_edge(g, chain[k]);
                const Origin *o = graph_origin(g, x->origin);
                if (x->from == u->node && (o->kind == ORIGIN_FILE || o->kind == ORIGIN_DROPIN) && o->line > 0) {
                        file = o->file ?: file;
                        line = o->line;
                        break;
                }
        }
        d = lint_describe_edge(c, id);
        if (!d)
                return -ENOMEM;
        f = lint_finding(c, out, "sandbox-ordered-too-early", u, file, line,
                         "for systemd %u, %s is ordered after %s by itself, which is already ordered after %s: an "
                         "ordering cycle",
                         c->version, u->unit->id, graph_node_name(g, ed->to), u->unit->id);
        if (!f || finding_add_evidence(f, "implicit: %s", d) < 0)
                return -ENOMEM;
        r = evidence_writes(c, u, f);
        if (r < 0)
                return r;
        if (finding_add_evidence(f, "and back:") < 0)
                return -ENOMEM;
        r = lint_evidence_chain(c, f, "  ", chain, m);
        if (r < 0)
                return r;
        if (finding_add_evidence(f, "at boot PID 1 deletes one job of the cycle to break it, and which one "
                                    "changes from boot to boot") < 0)
                return -ENOMEM;
        return 0;
}

int check_sandbox_ordered_too_early(const LintContext *c, ModelUnit *u, FindingList *out) {
        const Graph *g = model_graph(c->model);
        EdgeSet e = graph_out(g, u->node);

        for (size_t i = 0; i < e.n; i++) {
                uint32_t id = edge_set_get(&e, i);
                const GraphEdge *ed = graph_edge(g, id);
                int r;

                /* edges the version adds for the sandbox (not the default dependencies, not those of BusName=
                 * or the unit's type, not those of the base model's own units) */
                if (ed->type != DEP_AFTER || graph_origin(g, ed->origin)->base || !check_edge_of_sandbox(c, id))
                        continue;
                r = c->transaction ? judge_with_transaction(c, u, id, out) : judge_by_graph(c, u, id, out);
                if (r < 0)
                        return r;
        }
        return 0;
}
