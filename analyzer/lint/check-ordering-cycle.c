/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ordering-cycle: the boot transaction (default.target) has After=/Before= cycles that the linted unit closes.
 * One finding per unit: every elementary cycle its file (or one of its settings) contributes an edge to, with
 * each edge's origin, and every job systemd may delete to break them with what the boot loses then. The units of
 * systemd itself are blamed only for cycles no other unit closes; a cycle whose cause is the unit's sandboxing is
 * sandbox-ordered-too-early's. */

#include "lint/check-common.h"
#include "model/transaction.h"

#define CYCLES_LISTED 10

/* Did the unit that has the edge write it: a line of its file or drop-in, or a rule that derives from one of its
 * settings? Not the default dependencies every unit gets, nor those of its type. */
static bool edge_written(const Graph *g, uint32_t edge) {
        const Origin *o = graph_origin(g, graph_edge(g, edge)->origin);

        switch (o->kind) {
        case ORIGIN_FILE:
        case ORIGIN_DROPIN:
        case ORIGIN_MOUNTS_FOR:
                return true;
        case ORIGIN_RULE:
                return o->class && (streq(o->class, "exec") || streq(o->class, "implicit"));
        default:
                return false;
        }
}

/* Is the unit systemd's own: from the base model, or named like one of its units (the root's copy of them)? */
static bool unit_of_systemd(const LintContext *c, uint32_t node) {
        const ModelUnit *mu = model_unit_of_node(c->model, node);
        const BaseModel *b;

        if (mu && mu->base)
                return true;
        if (mu && mu->profile_package)
                return startswith(mu->profile_package, "systemd ");
        b = rules_base_model(c->rules, c->version);
        return b && base_model_unit(b, graph_node_name(model_graph(c->model), node));
}

/* Does the unit close the cycle? It does when it writes one of its edges and no unit but systemd's writes one
 * when it is systemd's own; every unit on a cycle no file writes an edge of does. *ret_edge: the edge it wrote
 * (a line of its file first), or UINT32_MAX. */
static bool cycle_closed_by(const LintContext *c, const Cycle *cy, uint32_t node, uint32_t *ret_edge) {
        const Graph *g = model_graph(c->model);
        bool written = false, foreign = false;
        uint32_t mine = UINT32_MAX;

        for (size_t i = 0; i < cy->n; i++) {
                const GraphEdge *e = graph_edge(g, cy->edges[i]);
                const Origin *o = graph_origin(g, e->origin);

                if (!edge_written(g, cy->edges[i]))
                        continue;
                written = true;
                foreign = foreign || !unit_of_systemd(c, e->from);
                if (e->from == node &&
                    (mine == UINT32_MAX || ((o->kind == ORIGIN_FILE || o->kind == ORIGIN_DROPIN) && o->line > 0)))
                        mine = cy->edges[i];
        }
        *ret_edge = mine;
        if (!written)
                return cycle_has(cy, node);
        return mine != UINT32_MAX && (!foreign || !unit_of_systemd(c, node));
}

int check_ordering_cycle(const LintContext *c, ModelUnit *u, FindingList *out) {
        const Graph *g = model_graph(c->model);
        _cleanup_(freep) const Cycle **mine = NULL;
        _cleanup_(freep) uint8_t *victim = NULL;
        _cleanup_(freep) char *breaking = NULL;
        size_t n = 0, n_victims = 0, best = SIZE_MAX;
        uint32_t line_edge = UINT32_MAX;
        const char *file = u->unit->fragment_path;
        unsigned line = 0;
        bool unfixable = false;
        Finding *f;

        if (!c->transaction || c->n_cycles == 0)
                return 0;
        mine = calloc(c->n_cycles, sizeof(const Cycle *));
        if (!mine)
                return -ENOMEM;
        for (size_t i = 0; i < c->n_cycles; i++) {
                const Cycle *cy = &c->cycles[i];
                uint32_t e;

                if (!cycle_has(cy, u->node) || !cycle_closed_by(c, cy, u->node, &e) ||
                    check_cycle_of_sandbox(c, u, cy))
                        continue;
                /* a bitmap over the graph's nodes: made for the units on a cycle only (per unit, it was quadratic) */
                if (!victim && !(victim = calloc(graph_node_count(g) + 1, 1)))
                        return -ENOMEM;
                mine[n++] = cy;
                unfixable = unfixable || cy->n_victims == 0;
                for (size_t v = 0; v < cy->n_victims; v++)
                        if (!victim[cy->victims[v]]) { /* a flag: a count would wrap at 256 cycles */
                                victim[cy->victims[v]] = 1;
                                n_victims++;
                        }
                /* the line of the shortest cycle's edge is where the finding points */
                if (e != UINT32_MAX && cy->n < best) {
                        best = cy->n;
                        line_edge = e;
                }
        }
        if (n == 0)
                return 0;
        if (line_edge != UINT32_MAX) {
                const Origin *o = graph_origin(g, graph_edge(g, line_edge)->origin);
                if ((o->kind == ORIGIN_FILE || o->kind == ORIGIN_DROPIN) && o->file) {
                        file = o->file;
                        line = o->line;
                }
        }
        breaking = check_cycle_breaking(c, n, victim, n_victims, unfixable);
        if (!breaking)
                return -ENOMEM;
        f = lint_finding(c, out, "ordering-cycle", u, file, line,
                         "the boot transaction of %s has %zu ordering cycle%s that %s closes; %s",
                         c->transaction_anchor, n, n == 1 ? "" : "s", u->unit->id, breaking);
        if (!f)
                return -ENOMEM;
        return check_evidence_cycles(c, f, mine, n, CYCLES_LISTED, victim);
}
