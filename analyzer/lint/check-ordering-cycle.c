/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ordering-cycle: the boot transaction (default.target) has After=/Before= cycles through a linted unit. One
 * finding per unit: every elementary cycle through it with each edge's origin, and every job systemd may delete
 * to break them with what the boot loses then. */

#include "lint/check-common.h"
#include "model/transaction.h"

#define CYCLES_LISTED 10

int check_ordering_cycle(const LintContext *c, ModelUnit *u, FindingList *out) {
        const Graph *g = model_graph(c->model);
        _cleanup_(freep) uint8_t *victim = NULL;
        size_t n_cycles = 0, n_victims = 0, k = 0;
        bool unfixable = false;
        Finding *f;
        int r;

        if (!c->transaction)
                return 0;
        for (size_t i = 0; i < c->n_cycles; i++)
                if (cycle_has(&c->cycles[i], u->node)) {
                        n_cycles++;
                        unfixable = unfixable || c->cycles[i].n_victims == 0;
                }
        if (n_cycles == 0)
                return 0;
        victim = calloc(graph_node_count(g) + 1, 1);
        if (!victim)
                return -ENOMEM;
        for (size_t i = 0; i < c->n_cycles; i++)
                if (cycle_has(&c->cycles[i], u->node))
                        for (size_t v = 0; v < c->cycles[i].n_victims; v++)
                                if (!victim[c->cycles[i].victims[v]]++)
                                        n_victims++;

        f = lint_finding(c, out, "ordering-cycle", u, u->unit->fragment_path, 0,
                         "the boot transaction of %s has %zu ordering cycle%s through %s; systemd breaks %s by "
                         "deleting one of %zu jobs, a different one from boot to boot%s",
                         c->transaction_anchor, n_cycles, n_cycles == 1 ? "" : "s", u->unit->id,
                         n_cycles == 1 ? "it" : "them", n_victims,
                         unfixable ? " (one cycle has none it may delete: the transaction fails)" : "");
        if (!f)
                return -ENOMEM;
        /* the shortest cycles say the most; list a few, count the rest (the victims come from all of them) */
        for (size_t len = 1; k < CYCLES_LISTED && len <= graph_node_count(g); len++)
                for (size_t i = 0; i < c->n_cycles && k < CYCLES_LISTED; i++) {
                        const Cycle *cy = &c->cycles[i];
                        if (cy->n != len || !cycle_has(cy, u->node))
                                continue;
                        if (finding_add_evidence(f, "cycle %zu (%zu jobs; each line is ordered after the next):", ++k,
                                                 cy->n) < 0)
                                return -ENOMEM;
                        r = lint_evidence_chain(c, f, "  ", cy->edges, cy->n);
                        if (r < 0)
                                return r;
                }
        if (n_cycles > k && finding_add_evidence(f, "(%zu longer cycles through the same jobs not listed)",
                                                 n_cycles - k) < 0)
                return -ENOMEM;
        if (finding_add_evidence(f, "jobs systemd may delete (they do not matter to %s):", c->transaction_anchor) < 0)
                return -ENOMEM;
        for (uint32_t node = 0; node < graph_node_count(g); node++) {
                const char *name;
                if (!victim[node])
                        continue;
                name = graph_node_name(g, node);
                if (finding_add_evidence(f, "  %s: %s", name, lint_job_loss(c, name)) < 0)
                        return -ENOMEM;
        }
        if (c->cycles_truncated && finding_add_evidence(f, "(more cycles exist than were listed)") < 0)
                return -ENOMEM;
        return 0;
}
